// A handler's not-found was a bare "tool invocation failed" on HTTP; over MCP the model must read the
// same meaning: an isError result whose text is `<code> (<reason>): <the tool's message>`, scrubbed.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { describe, expect, it } from 'vitest'
import { createDispatcher } from 'result-views'
import { createMcpServer } from 'result-views/mcp'
import { SECRET, surfaceTools } from '../support/surface-tools.js'

describe('an error a tool reports, over MCP', () => {
  it('is an error result the model reads, with code, reason and the scrubbed message', async () => {
    const server = createMcpServer(createDispatcher({ tools: surfaceTools() }), { name: 't', version: '1.0.0' })
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
    await server.connect(serverTransport)
    const client = new Client({ name: 'c', version: '1.0.0' })
    await client.connect(clientTransport)
    try {
      for (const [code, reason] of [['resource_not_found', 'ticket_not_found'], ['resource_conflict', 'ticket_closed'], ['argument_invalid', 'ticket_id_format']] as const) {
        const result = await client.callTool({ name: 'tickets__get', arguments: { ticket_id: 'T-1', outcome: code, reason, secret_ref: SECRET } })
        expect(result.isError).toBe(true)
        const text = (result.content as Array<{ type: string; text: string }>).map((part) => part.text).join('\n')
        expect(text).toContain(`${code} (${reason}): ticket "T-1" cannot be read with [REDACTED]`)
        expect(JSON.stringify(result)).not.toContain('XYZ123')
      }
    } finally {
      await client.close()
      await server.close()
    }
  })
})
