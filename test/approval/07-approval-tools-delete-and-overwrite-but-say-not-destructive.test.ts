// Regression: `_set` (replaces the grant with the same key, a reject can become an allow) and
// `_revoke` (deletes a grant) said risk 'write', so MCP listed them with destructiveHint: false.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineApprovalTools, type Dispatcher } from 'result-views'
import { createMcpServer } from 'result-views/mcp'

describe('07-approval-tools-delete-and-overwrite-but-say-not-destructive', () => {
  it('_set and _revoke say risk destructive, and MCP lists them with destructiveHint true; _list stays read-only', async () => {
    let d: Dispatcher | undefined
    d = createDispatcher({ tools: defineApprovalTools({ approvals: () => d!.approvals }) })
    expect(['compozy__tool_approvals_set', 'compozy__tool_approvals_list', 'compozy__tool_approvals_revoke'].map((id) => d!.describe(id)?.risk)).toEqual(['destructive', 'read', 'destructive'])
    const server = createMcpServer(d, { name: 'h', version: '1' })
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    const client = new Client({ name: 'c', version: '1' })
    await client.connect(clientSide)
    try {
      const hints = Object.fromEntries((await client.listTools()).tools.map((tool) => [tool.name, [tool.annotations?.readOnlyHint, tool.annotations?.destructiveHint]]))
      expect(hints).toEqual({
        compozy__tool_approvals_set: [false, true],
        compozy__tool_approvals_list: [true, undefined],
        compozy__tool_approvals_revoke: [false, true],
      })
    } finally {
      await client.close()
    }
  })
})
