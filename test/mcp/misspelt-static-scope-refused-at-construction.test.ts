// Regression (break-it review): `createMcpServer(d, { name, version, scope: { workspaceId: 'w' } })`
// was accepted, and then every tools/call answered request_invalid for the misspelt field. A
// static scope is checked when the server is made.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { createMcpServer } from 'result-views/mcp'

const dispatcher = createDispatcher({ tools: [defineTool({ id: 't__ok', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })] })

describe('a static MCP scope', () => {
  it('with a misspelt field is McpOptionsError invalid_option at /scope, naming the field it meant', () => {
    expect(() => createMcpServer(dispatcher, { name: 'n', version: '1', scope: { workspaceId: 'w' } as never })).toThrow(
      expect.objectContaining({ code: 'mcp_options_invalid', problems: [expect.objectContaining({ path: '/scope', code: 'invalid_option', message: expect.stringContaining('workspace_id') })] }),
    )
  })

  it('that is well formed is accepted', () => {
    expect(() => createMcpServer(dispatcher, { name: 'n', version: '1', scope: { workspace_id: 'w' } })).not.toThrow()
  })
})
