// The example catalog served over stdio with the MCP SDK v2 (`result-views/mcp-v2`):
// `npx tsx examples/mcp-server-v2.ts`. Same tools, scope and results as examples/mcp-server.ts
// (the v1 SDK); `serveStdio` answers 2026-07-28 clients and 2025 ones on one connection.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { createMcpServerFactory } from 'result-views/mcp-v2'
import { exampleDispatcher } from './mcp-server.js'

function main(): void {
  const factory = createMcpServerFactory(exampleDispatcher(), {
    name: 'result-views-example',
    version: '0.1.0',
    scope: { workspace_id: 'ws_example', session_id: 'sess-example', agent_name: 'general', profile_id: 'prof_default' },
    toolCallIdPrefix: 'mcp-',
  })
  serveStdio(factory)
  process.stderr.write('result-views example MCP server (SDK v2) on stdio\n')
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main()
