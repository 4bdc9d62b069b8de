// A schema the draft-07 meta-schema refuses fails its first call as `schema_compile_failed` with
// ajv's own words, whichever path checks it: the precompiled check hands every refusal (and every
// schema naming a `$schema`) to ajv's validateSchema, and own-property instances use ajv's alone.
import { createDispatcher, defineTool, type JsonSchema } from 'result-views'
import { describe, expect, it } from 'vitest'

const closed = (properties: Record<string, unknown>): JsonSchema => ({ type: 'object', properties, additionalProperties: false }) as JsonSchema

async function firstCall(input: JsonSchema, output: JsonSchema): Promise<unknown> {
  const tool = defineTool({ id: 'probe__meta', description: 'meta-schema probe', input, output, handler: () => ({ a: 'x' }) })
  const outcome = await createDispatcher({ tools: [tool] }).invoke({ tool_id: 'probe__meta', input: { a: 'x' } })
  return outcome.status === 'error' ? { reason: outcome.error.reason, message: outcome.error.message } : outcome.status
}

describe('a meta-invalid schema on its first call', () => {
  it('input schema: ajv refuses it word for word', async () => {
    expect(await firstCall(closed({ a: { type: 'string', minLength: -1 } }), closed({ a: { type: 'string' } }))).toEqual({
      reason: 'schema_compile_failed',
      message: 'tool "probe__meta" input schema cannot be compiled: schema is invalid: data/properties/a/minLength must be >= 0',
    })
  })

  it('output schema: ajv refuses it word for word', async () => {
    expect(await firstCall(closed({ a: { type: 'string' } }), closed({ a: { type: 'string', maxLength: 1.5 } }))).toMatchObject({
      reason: 'schema_compile_failed',
      message: expect.stringContaining('schema is invalid: data/properties/a/maxLength must be integer'),
    })
  })

  it('a schema naming a property Object.prototype has (own-property validators): the same words', async () => {
    const input = closed({ a: { type: 'string', minLength: -1 }, constructor: { type: 'string' } })
    expect(await firstCall(input, closed({ a: { type: 'string' } }))).toEqual({
      reason: 'schema_compile_failed',
      message: 'tool "probe__meta" input schema cannot be compiled: schema is invalid: data/properties/a/minLength must be >= 0',
    })
  })

  it('a schema naming draft-07 as its $schema: checked by ajv, valid or not', async () => {
    const draft = 'http://json-schema.org/draft-07/schema#'
    const valid = { $schema: draft, ...closed({ a: { type: 'string' } }) } as JsonSchema
    expect(await firstCall(valid, closed({ a: { type: 'string' } }))).toBe('ok')
    const invalid = { $schema: draft, ...closed({ a: { type: 'strin' } }) } as JsonSchema
    expect(await firstCall(invalid, closed({ a: { type: 'string' } }))).toMatchObject({ reason: 'schema_compile_failed', message: expect.stringContaining('schema is invalid: data/properties/a/type must be equal to one of the allowed values') })
  })
})
