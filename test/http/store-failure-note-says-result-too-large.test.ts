// When the continuation store failed to keep a cut result, the first part's note said "The rest is
// too large to keep … call the tool again with narrower input": the wording for a result over the
// store's maxBytes, which sends the model narrowing a call that would have worked on a retry. A
// store that fails now gets its own note (the rest could not be kept right now; calling again may
// succeed), on HTTP and on MCP alike; a result over maxBytes keeps the old one.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { createFetchHandler, createMemoryContinuationStore, type ContinuationStore } from 'result-views/http'
import { createMcpServer } from 'result-views/mcp'

const dump = defineTool({
  id: 'docs__dump',
  description: 'Dump.',
  input: Type.Object({ count: Type.Integer() }),
  output: Type.Object({ items: Type.Array(Type.String()) }),
  handler: ({ count }) => ({ items: Array.from({ length: count }, (_, i) => `item-${i}-é😀`) }),
})
const dispatcher = createDispatcher({ tools: [dump] })
const failing = (): ContinuationStore => ({ ...createMemoryContinuationStore(), put: () => Promise.reject(new Error('connection refused')) })
const tooSmall = (): ContinuationStore => createMemoryContinuationStore({ maxBytes: 300 })

async function httpNote(store: ContinuationStore): Promise<{ continuation?: string; note: string }> {
  const handler = createFetchHandler(dispatcher, { maxResultBytes: 256, continuationStore: store })
  const response = await handler(new Request('http://127.0.0.1/api/tools/docs__dump/invoke', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: { count: 50 } }) }), { remoteAddress: '127.0.0.1' })
  expect(response.status).toBe(200)
  return ((await response.json()) as { result_part: { continuation?: string; note: string } }).result_part
}

async function mcpNote(store: ContinuationStore): Promise<{ continuation?: string; note: string }> {
  const server = createMcpServer(dispatcher, { name: 'notes', version: '1.0.0', maxResultBytes: 256, continuationStore: store })
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
  await server.connect(serverTransport)
  const client = new Client({ name: 'test-client', version: '1.0.0' })
  await client.connect(clientTransport)
  try {
    const result = await client.callTool({ name: 'docs__dump', arguments: { count: 50 } })
    expect(result.isError).toBeUndefined()
    return result.structuredContent as { continuation?: string; note: string }
  } finally {
    await client.close()
    await server.close()
  }
}

describe('the note of a cut result whose rest was not kept', () => {
  it('HTTP: a failing store says the rest could not be kept right now and a new call may succeed, not "too large"', async () => {
    const part = await httpNote(failing())
    expect(part.continuation).toBeUndefined()
    expect(part.note).toContain('The rest could not be kept for POST /api/results/continue right now: calling docs__dump again may succeed.')
    expect(part.note).not.toContain('too large')
    expect(part.note).not.toContain('narrower')
  })

  it('HTTP: a result over the store maxBytes still says it is too large, with narrower input', async () => {
    const part = await httpNote(tooSmall())
    expect(part.continuation).toBeUndefined()
    expect(part.note).toContain('The rest is too large to keep for POST /api/results/continue: call docs__dump again with narrower input.')
  })

  it('MCP: the same two notes', async () => {
    const failed = await mcpNote(failing())
    expect(failed.continuation).toBeUndefined()
    expect(failed.note).toContain('The rest could not be kept for result_continue right now: calling docs__dump again may succeed.')
    expect(failed.note).not.toContain('narrower')
    const large = await mcpNote(tooSmall())
    expect(large.note).toContain('The rest is too large to keep for result_continue: call docs__dump again with narrower input.')
  })
})
