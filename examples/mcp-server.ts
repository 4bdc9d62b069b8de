/**
 * Serves the example catalog over MCP on stdio: the spec's session, spawn and skill tools
 * (`examples/tools/catalog.ts`) plus the contracts tool `compozy__tool_info`, through one
 * dispatcher.
 *
 *     npx tsx examples/mcp-server.ts
 *
 * Then point any MCP client at that command, e.g. the SDK's `StdioClientTransport({ command:
 * 'npx', args: ['tsx', 'examples/mcp-server.ts'] })`. `tools/list` shows each tool's input schema
 * (viewed tools list `result_view`) and no output schemas; call `compozy__tool_info` with
 * `{ "tool_id": "compozy__session_status" }` to read both contracts. stdout carries only MCP
 * messages; the one status line goes to stderr.
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { createDispatcher, defineToolInfoTool, type Dispatcher, type DispatcherOptions } from 'result-views'
import { createMcpServer } from 'result-views/mcp'
import { exampleTools } from './tools/catalog.js'

/**
 * The example dispatcher: the five example tools over a fresh store, plus `compozy__tool_info`;
 * `options` (a policy, approval stores, ...) go to `createDispatcher` as they are.
 */
export function exampleDispatcher(options: Omit<DispatcherOptions, 'tools'> = {}): Dispatcher {
  let dispatcher: Dispatcher | undefined
  const info = defineToolInfoTool({ id: 'compozy__tool_info', describe: (id) => dispatcher?.describe(id) })
  dispatcher = createDispatcher({ ...options, tools: [...exampleTools(), info] })
  return dispatcher
}

async function main(): Promise<void> {
  const server = createMcpServer(exampleDispatcher(), {
    name: 'result-views-example',
    version: '0.1.0',
    scope: { workspace_id: 'ws_example', session_id: 'sess-example', agent_name: 'general', profile_id: 'prof_default' },
    toolCallIdPrefix: 'mcp-',
  })
  await server.connect(new StdioServerTransport())
  process.stderr.write('result-views example MCP server on stdio\n')
}

// Run only when executed directly (tests import `exampleDispatcher`).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exit(1)
  })
}
