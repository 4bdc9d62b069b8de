// The example catalog's MCP contract (test/mcp/example-catalog-contract.ts, the assertions v1 is
// held to) over the v2 SDK, with the official v2 client on the 2026-07-28 revision, over the three
// transports: in memory, stdio (a child process running examples/mcp-server-v2.ts) and stateless
// Streamable HTTP on a loopback port.
import { createMcpServerFactory } from 'result-views/mcp-v2'
import { exampleDispatcher } from '../../examples/mcp-server.js'
import { describeExampleCatalogOverMcp, type McpTestClient } from '../mcp/example-catalog-contract.js'
import { connectHttp, connectInMemory, connectStdio, serveHttp, type V2Connection } from './support/connect.js'

const exampleFactory = () => createMcpServerFactory(exampleDispatcher(), { name: 'result-views-example', version: '0.1.0' })

/** The v2 client answers the shapes the contract reads (its `Tool` and `CallToolResult` types are its own). */
const asContract = ({ client, close }: V2Connection) => ({ client: client as unknown as McpTestClient, close })

describeExampleCatalogOverMcp('SDK v2, in-memory transport', async () => asContract(await connectInMemory(exampleFactory())))

describeExampleCatalogOverMcp('SDK v2, stdio transport, child process', async () => asContract(await connectStdio('examples/mcp-server-v2.ts')))

describeExampleCatalogOverMcp('SDK v2, stateless Streamable HTTP on a loopback port', async () => {
  const served = await serveHttp(exampleFactory())
  const connection = await connectHttp(served.url)
  return asContract({
    client: connection.client,
    close: async () => {
      await connection.close()
      await served.close()
    },
  })
})
