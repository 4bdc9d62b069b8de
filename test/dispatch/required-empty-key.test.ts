// ajv 8 does not enforce `required: [""]` (an empty-string property name) in the unrolled check it
// compiles when it stops at the first error (ajv-validator/ajv#2077), which the dispatcher uses to
// decide input and output validity: a record or an input without the "" key used to pass.
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, type JsonSchema } from 'result-views'

const withEmptyKey: JsonSchema = { type: 'object', properties: { '': { type: 'string' }, id: { type: 'string' } }, required: ['', 'id'] }

describe('required: [""]', () => {
  it('refuses a handler record without the "" key, in either view and for a single-result tool (regression: ajv#2077)', async () => {
    const viewed = defineTool({ id: 'v', description: 'd', input: { type: 'object' } as never, output: { compact: withEmptyKey as never, full: withEmptyKey as never }, handler: () => ({ id: 'a' }) as never })
    const single = defineTool({ id: 's', description: 'd', input: { type: 'object' } as never, output: withEmptyKey as never, handler: () => ({ id: 'a' }) as never })
    const dispatcher = createDispatcher({ tools: [viewed, single] })
    for (const input of [{}, { result_view: 'full' }]) {
      expect(await dispatcher.invoke({ tool_id: 'v', input })).toMatchObject({ status: 'error', error: { code: 'tool_output_invalid' } })
    }
    expect(await dispatcher.invoke({ tool_id: 's', input: {} })).toMatchObject({ status: 'error', error: { code: 'tool_output_invalid' } })
  })

  it('accepts the record once it carries the "" key', async () => {
    const tool = defineTool({ id: 's', description: 'd', input: { type: 'object' } as never, output: withEmptyKey as never, handler: () => ({ '': 'x', id: 'a' }) as never })
    expect(await createDispatcher({ tools: [tool] }).invoke({ tool_id: 's', input: {} })).toMatchObject({ status: 'ok', result: { structured: { '': 'x', id: 'a' } } })
  })

  it('refuses an input without the "" key', async () => {
    const tool = defineTool({ id: 's', description: 'd', input: withEmptyKey as never, output: { type: 'object' } as never, handler: () => ({}) as never })
    const dispatcher = createDispatcher({ tools: [tool] })
    expect(await dispatcher.invoke({ tool_id: 's', input: { id: 'a' } })).toMatchObject({ status: 'error', error: { code: 'tool_invalid_input' } })
    expect(await dispatcher.invoke({ tool_id: 's', input: { '': 'x', id: 'a' } })).toMatchObject({ status: 'ok' })
  })
})
