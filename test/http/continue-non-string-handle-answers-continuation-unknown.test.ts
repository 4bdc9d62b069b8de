// `POST /results/continue` with a handle that is not a string (`{"continuation": 5}`) answered 400
// continuation_unknown, as if a store had been asked about a handle it never issued, while MCP's
// result_continue answers schema_invalid and every other bad body field is request_invalid. A
// missing or non-string `continuation` is now 400 tool_invalid_input / request_invalid naming the
// field, and no store is asked.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { createFetchHandler, createMemoryContinuationStore, type ContinuationStore } from 'result-views/http'

const dump = defineTool({
  id: 'docs__dump',
  description: 'Dump.',
  input: Type.Object({ count: Type.Integer() }),
  output: Type.Object({ items: Type.Array(Type.String()) }),
  handler: ({ count }) => ({ items: Array.from({ length: count }, (_, i) => `item-${i}`) }),
})

describe('POST /results/continue with a continuation that is not a string', () => {
  it('answers 400 tool_invalid_input / request_invalid naming the field, without asking the store', async () => {
    const memory = createMemoryContinuationStore()
    const reads: unknown[] = []
    const store: ContinuationStore = { ...memory, read: (...args) => (reads.push(args), memory.read(...args)) }
    const handler = createFetchHandler(createDispatcher({ tools: [dump] }), { maxResultBytes: 256, continuationStore: store })
    for (const body of [{ continuation: 5 }, { continuation: null }, { continuation: ['rvc_x'] }, { continuation: { handle: 'rvc_x' } }, { continuation: true }, {}]) {
      const response = await handler(new Request('http://127.0.0.1/api/results/continue', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), { remoteAddress: '127.0.0.1' })
      const reply = (await response.json()) as { error: { code: string; reason: string; details?: { issues?: Array<{ pointer: string }> } } }
      expect([JSON.stringify(body), response.status, reply.error.code, reply.error.reason]).toEqual([JSON.stringify(body), 400, 'tool_invalid_input', 'request_invalid'])
      // The field is named as MCP names it (the pointer into result_continue's input), never its value.
      expect(reply.error.details?.issues).toEqual([{ pointer: '/continuation', keyword: 'continuation' in body ? 'type' : 'required', expected: 'continuation' in body ? 'type string' : 'property "continuation"' }])
    }
    expect(reads).toEqual([])
    // A string that is no handle is still the store's to judge: continuation_unknown.
    const unknown = await handler(new Request('http://127.0.0.1/api/results/continue', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"continuation":"rvc_nope"}' }), { remoteAddress: '127.0.0.1' })
    expect([unknown.status, ((await unknown.json()) as { error: { reason: string } }).error.reason]).toEqual([400, 'continuation_unknown'])
  })
})
