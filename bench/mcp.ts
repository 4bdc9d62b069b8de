/**
 * MCP `tools/call` against the plain SDK: our `createMcpServer` over a dispatcher with the
 * realistic session tool, and the SDK's own `McpServer.registerTool` answering the same compact
 * record (`structuredContent` plus its JSON text, as ours answers), each over an
 * `InMemoryTransport` pair with the SDK `Client`. Interleaved rounds (bench/harness.ts).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { createDispatcher, defineTool } from 'result-views'
import { createMcpServer } from 'result-views/mcp'
import { realisticSessionFull, realisticSessionInput } from './fixtures/realistic-session.js'
import { RealisticCompactResult, RealisticFullResult, RealisticSessionInput, withoutFormats } from './fixtures/realistic-session-schema.js'
import { formatMeasured, measureInRounds, median, roundsFor } from './harness.js'
import { handwrittenRealisticProjection } from './handwritten.js'

interface Connected {
  readonly client: Client
  readonly close: () => Promise<void>
}

async function connect(server: { connect(transport: InMemoryTransport): Promise<void>; close(): Promise<void> }): Promise<Connected> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
  await server.connect(serverTransport)
  const client = new Client({ name: 'bench-client', version: '1.0.0' })
  await client.connect(clientTransport)
  return {
    client,
    close: async () => {
      await client.close()
      await server.close()
    },
  }
}

/** Runs the MCP candidates, prints their table, returns `mcp_vs_plain_sdk` (and without formats) and the per-call times. */
export async function mcpBench(quick = false): Promise<Record<string, number>> {
  const full = structuredClone(realisticSessionFull)
  const base = { description: 'Read one session.', input: RealisticSessionInput, handler: () => full }
  const tools = [
    defineTool({ ...base, id: 'compozy__session_status', output: { compact: RealisticCompactResult, full: RealisticFullResult } }),
    // The same tool without `format` keywords (see withoutFormats): what the library adds besides ajv-formats.
    defineTool({ ...base, id: 'compozy__session_status_plain', output: { compact: withoutFormats(RealisticCompactResult), full: withoutFormats(RealisticFullResult) } } as never),
  ]
  const ours = await connect(createMcpServer(createDispatcher({ tools }), { name: 'bench', version: '1.0.0' }))

  const plainServer = new McpServer({ name: 'bench-plain', version: '1.0.0' })
  plainServer.registerTool('compozy__session_status', { description: 'Read one session.', inputSchema: { session_id: z.string().min(1) } }, () => {
    const compact = handwrittenRealisticProjection(full)
    return { structuredContent: compact, content: [{ type: 'text' as const, text: JSON.stringify(compact) }] }
  })
  const plain = await connect(plainServer)

  const call = { name: 'compozy__session_status', arguments: realisticSessionInput }
  const plainCall = { name: 'compozy__session_status_plain', arguments: realisticSessionInput }
  const check = (result: Awaited<ReturnType<Client['callTool']>>): void => {
    if (result.isError === true || result.structuredContent === undefined) throw new Error(`bench MCP call failed: ${JSON.stringify(result)}`)
  }
  try {
    const measured = await measureInRounds(
      [
        { name: 'createMcpServer tools/call (realistic)', run: async () => check(await ours.client.callTool(call)), batch: 10, async: true },
        { name: 'createMcpServer tools/call (realistic, no formats)', run: async () => check(await ours.client.callTool(plainCall)), batch: 10, async: true },
        { name: 'plain SDK McpServer tools/call (realistic)', run: async () => check(await plain.client.callTool(call)), batch: 10, async: true },
      ],
      roundsFor(quick),
    )
    console.log(formatMeasured('\nMCP over InMemoryTransport (median per call)', measured))
    const oursNs = median(measured, 'createMcpServer tools/call (realistic)')
    const plainNs = median(measured, 'plain SDK McpServer tools/call (realistic)')
    const noFormatsNs = median(measured, 'createMcpServer tools/call (realistic, no formats)')
    return { mcp_vs_plain_sdk: oursNs / plainNs, mcp_no_formats_vs_plain_sdk: noFormatsNs / plainNs, mcp_call_us: oursNs / 1000, mcp_plain_call_us: plainNs / 1000 }
  } finally {
    await ours.close()
    await plain.close()
  }
}
