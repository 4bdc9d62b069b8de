// The example server (examples/mcp-server.ts) in a child process, driven over stdio by the SDK's
// own Client: the same contract as in memory, across a real process boundary and JSON framing.
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { describeExampleCatalogOverMcp } from './example-catalog-contract.js'

const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

describeExampleCatalogOverMcp('stdio transport, child process', async () => {
  // tsx resolves 'result-views' through tsconfig paths; a run with its own tsconfig passes it on.
  const env = getDefaultEnvironment()
  if (process.env.TSX_TSCONFIG_PATH !== undefined) env.TSX_TSCONFIG_PATH = process.env.TSX_TSCONFIG_PATH
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'examples/mcp-server.ts'],
    cwd: repoRoot,
    env,
    stderr: 'pipe',
  })
  const client = new Client({ name: 'stdio-test-client', version: '1.0.0' })
  await client.connect(transport)
  return { client, close: () => client.close() }
})
