// The default preview is written when `result.preview` is first read (callers such as the MCP
// server never read it), from the caller's own record; a tool's own preview runs on the call,
// on the handler's record as it was returned.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, type InvokeOk } from 'result-views'

const Full = Type.Object({ id: Type.String(), token: Type.String(), body: Type.String() })
const Compact = Type.Object({ id: Type.String(), token: Type.String() })

function okOf(outcome: unknown): InvokeOk {
  expect((outcome as { status: string }).status).toBe('ok')
  return outcome as InvokeOk
}

describe('the default preview is written on first read', () => {
  const record = { id: 'r-1', token: 'tok-secret-value', body: 'x'.repeat(400) }
  const tool = defineTool({ id: 'p', description: 'd', input: Type.Object({ token: Type.String() }), output: { compact: Compact, full: Full }, handler: () => record, sensitiveInputFields: ['token'] })

  it('is an own enumerable accessor that gives the same text on every read, as spread, keys and JSON see it', async () => {
    const dispatcher = createDispatcher({ tools: [tool] })
    const { result } = okOf(await dispatcher.invoke({ tool_id: 'p', input: { token: 'other' }, sensitive_input_fields: [] }))
    const descriptor = Object.getOwnPropertyDescriptor(result, 'preview')!
    expect(typeof descriptor.get).toBe('function')
    expect(descriptor.enumerable).toBe(true)
    expect(Object.keys(result)).toEqual(['structured', 'preview'])
    const first = result.preview
    expect(first).toBe(JSON.stringify(result.structured))
    expect(result.preview).toBe(first)
    expect({ ...result }.preview).toBe(first)
    expect(JSON.parse(JSON.stringify(result)).preview).toBe(first)
  })

  it('is scrubbed of the call secrets however late it is read', async () => {
    const dispatcher = createDispatcher({ tools: [tool] })
    const { result } = okOf(await dispatcher.invoke({ tool_id: 'p', input: { token: 'tok-secret-value' } }))
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(result.preview).not.toContain('tok-secret-value')
    expect(result.preview).toContain('[REDACTED]')
  })

  it('is the same text a post_call hook received', async () => {
    const seen: string[] = []
    const dispatcher = createDispatcher({ tools: [tool], hooks: { 'tool.post_call': (payload) => void seen.push(payload.tool_result.preview) } })
    const { result } = okOf(await dispatcher.invoke({ tool_id: 'p', input: { token: 'tok-secret-value' } }))
    expect(seen).toEqual([result.preview])
  })
})

describe("a tool's own preview runs during the call", () => {
  it('reads the handler record as it was returned, even when the handler changes it afterwards', async () => {
    const record = { id: 'before', token: 't', body: 'b' }
    let calls = 0
    const tool = defineTool({
      id: 'own',
      description: 'd',
      input: Type.Object({}),
      output: { compact: Compact, full: Full },
      handler: () => record,
      preview: (full) => (calls++, `id=${full.id}`),
    })
    const dispatcher = createDispatcher({ tools: [tool] })
    const { result } = okOf(await dispatcher.invoke({ tool_id: 'own', input: {} }))
    expect(calls).toBe(1)
    record.id = 'after'
    expect(result.preview).toBe('id=before')
    expect(Object.getOwnPropertyDescriptor(result, 'preview')!.get).toBeUndefined()
  })
})
