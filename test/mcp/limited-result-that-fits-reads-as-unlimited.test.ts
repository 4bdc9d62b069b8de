// Under `maxResultBytes`, a result whose JSON text fits is answered exactly as without the limit
// (the size check and the answer share one reading of the outcome, so the JSON is written once):
// the same text block, `structuredContent`, `isError` and `_meta`, for any value a tool returns.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, type Dispatcher } from 'result-views'
import { createMcpServer, MCP_OUTCOME_META_KEY, type McpServerOptions } from 'result-views/mcp'

async function connect(dispatcher: Dispatcher, options: Partial<McpServerOptions>) {
  const server = createMcpServer(dispatcher, { name: 'limits', version: '1.0.0', toolCallIdPrefix: 'mcp-', ...options })
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
  await server.connect(serverTransport)
  const client = new Client({ name: 'test-client', version: '1.0.0' })
  await client.connect(clientTransport)
  return { client, close: async () => { await client.close(); await server.close() } }
}

describe('createMcpServer maxResultBytes, a result that fits', () => {
  it('reads exactly as the same call on a server without the limit, for any JSON value', async () => {
    let value: unknown = null
    const echo = defineTool({ id: 'echo', description: 'd', input: Type.Object({}), output: Type.Unknown(), handler: () => value })
    const dispatcher = createDispatcher({ tools: [echo] })
    const unlimited = await connect(dispatcher, {})
    const limited = await connect(dispatcher, { maxResultBytes: 1 << 20 })
    try {
      await fc.assert(
        fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (generated) => {
          value = generated
          // Both clients send the same request IDs in the same order, so the tool_call_ids match too.
          const whole = await unlimited.client.callTool({ name: 'echo', arguments: {} })
          const checked = await limited.client.callTool({ name: 'echo', arguments: {} })
          expect(checked).toEqual(whole)
          const meta = (checked._meta as Record<string, { status: string }>)[MCP_OUTCOME_META_KEY]!
          if (meta.status === 'ok') expect(checked.content).toEqual([{ type: 'text', text: JSON.stringify(generated) }])
        }),
        { numRuns: 200 },
      )
    } finally {
      await unlimited.close()
      await limited.close()
    }
  })
})
