// Errors a model can act on: input errors name the property and the first few problems, stay
// bounded and redacted; the selector rules decide first; `undefined` members are absent in invoke.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, inputDigest, isUsageError } from 'result-views'
import { errorOf, thrown } from '../support/outcomes.js'

const ticket = defineTool({
  id: 'tickets__get',
  description: 'Get a ticket.',
  input: Type.Object({ ticket_id: Type.String(), limit: Type.Optional(Type.Integer()), creds: Type.Optional(Type.Object({}, { additionalProperties: false })) }, { additionalProperties: false }),
  output: { compact: Type.Object({ id: Type.String() }), full: Type.Object({ id: Type.String(), body: Type.String() }) },
  sensitiveInputFields: ['creds'],
  handler: (input) => ({ id: input.ticket_id, body: 'b' }),
})
const dispatcher = createDispatcher({ tools: [ticket] })
const invoke = (input: unknown) => dispatcher.invoke({ tool_id: 'tickets__get', input })

/** `depth` nested arrays around `inner`. */
function nested(depth: number, inner: unknown = 1): unknown {
  let value = inner
  for (let i = 0; i < depth; i++) value = [value]
  return value
}

describe('input validation messages name the property', () => {
  it('an unknown property: unknown property "bogus"', async () => {
    const error = errorOf(await invoke({ ticket_id: 't1', bogus: 1 }))
    expect([error.code, error.reason, error.message]).toEqual(['tool_invalid_input', 'schema_invalid', 'tool "tickets__get" input does not match its schema: unknown property "bogus"'])
  })

  it('a missing required property, and a wrong type at a pointer', async () => {
    expect(errorOf(await invoke({})).message).toBe('tool "tickets__get" input does not match its schema: missing required property "ticket_id"')
    expect(errorOf(await invoke({ ticket_id: 7 })).message).toBe('tool "tickets__get" input does not match its schema: wrong type at "/ticket_id": must be string')
  })

  it('lists the first three problems and says how many more there are (details.issues has them all)', async () => {
    const error = errorOf(await invoke({ ticket_id: 7, limit: 'x', a: 1, b: 2, c: 3 }))
    expect(error.message).toMatch(/^tool "tickets__get" input does not match its schema: [^;]+; [^;]+; [^;]+; and 2 more problems \(details\.issues lists all\)$/)
    expect((error.details as { issues: unknown[] }).issues).toHaveLength(5)
  })

  it('an unknown key under a sensitive input field is redacted in the message and in details', async () => {
    const error = errorOf(await invoke({ ticket_id: 't1', creds: { 'sk-live-abc123': 'x' } }))
    expect(error.message).toBe('tool "tickets__get" input does not match its schema: unknown property "[REDACTED]" at "/creds"')
    expect(JSON.stringify(error.details)).not.toContain('sk-live-abc123')
  })

  it('quotes an unbounded property name cut to 128 characters and says it was cut', async () => {
    const long = 'k'.repeat(10_000)
    const error = errorOf(await invoke({ ticket_id: 't1', [long]: 1 }))
    expect(error.message).toBe(`tool "tickets__get" input does not match its schema: unknown property "${'k'.repeat(128)}…" (cut to 128 of 10000 characters)`)
  })

  it('quotes an unbounded JSON Pointer cut, in a non_json_input message', async () => {
    const error = errorOf(await invoke({ ticket_id: 't1', limit: nested(3_000, Number.NaN) }))
    expect(error.reason).toBe('non_json_input')
    expect(error.message.length).toBeLessThan(300)
    expect(error.message).toMatch(/^tool "tickets__get" input is not plain JSON at "\/limit(\/0)+…" \(cut to 128 of \d+ characters\)$/)
  })
})

describe('the selector rules decide first', () => {
  it('a result_view nested 5,000 deep gets the row-2 error, not non_json_input', async () => {
    const error = errorOf(await invoke({ ticket_id: 't1', result_view: nested(5_000) }))
    expect([error.code, error.reason, error.message]).toEqual(['tool_invalid_input', 'schema_invalid', 'tool "tickets__get" input "result_view" must be one of "compact", "full"'])
  })
})

describe('an own property whose value is undefined is absent in invoke', () => {
  it('{ ticket_id: "t1", result_view: undefined } runs with the default view', async () => {
    const outcome = await invoke({ ticket_id: 't1', result_view: undefined })
    expect(outcome).toMatchObject({ status: 'ok', result_view: 'compact', result: { structured: { id: 't1' } } })
  })

  it('an undefined optional field is absent too (not a wrong type)', async () => {
    expect((await invoke({ ticket_id: 't1', limit: undefined })).status).toBe('ok')
  })

  it('an undefined array element is still non_json_input', async () => {
    const tool = defineTool({ id: 'list', description: 'd', input: Type.Object({ items: Type.Array(Type.Any()) }), output: Type.Object({}), handler: () => ({}) })
    const error = errorOf(await createDispatcher({ tools: [tool] }).invoke({ tool_id: 'list', input: { items: [undefined] } }))
    expect([error.reason, error.message]).toEqual(['non_json_input', 'tool "list" input is not plain JSON at "/items/0"'])
  })

  it('inputDigest called directly stays strict and refuses it', () => {
    const error = thrown(() => inputDigest({ ticket_id: 't1', result_view: undefined }))
    expect(isUsageError(error) && error.code).toBe('non_json_value')
  })
})
