/**
 * MCP `tools/call` against the plain SDK tool, on both SDK lines:
 *
 * - v1 (`@modelcontextprotocol/sdk`): our `createMcpServer` (result-views/mcp) against the SDK's
 *   own `McpServer.registerTool`, each over an `InMemoryTransport` pair with the SDK `Client`;
 * - v2 (`@modelcontextprotocol/server` + `@modelcontextprotocol/client`): our
 *   `createMcpServerFactory` (result-views/mcp-v2) against the v2 SDK's own
 *   `McpServer.registerTool`, each served by `serveStdio(factory)` on the v2 `InMemoryTransport`
 *   pair (the 2026-07-28 revision, as a real stdio connection negotiates it) with the v2 `Client`.
 *
 * Our servers get the scope the way a host passes it (the `scope` option: workspace, session,
 * agent, profile) and serve the realistic session tool through a dispatcher; the plain tools are
 * the direct limit: the SDK validates the input with zod and the handler picks the compact record
 * by hand (bench/handwritten.ts) and answers `structuredContent` plus its JSON text, as ours
 * answers. Both sides are called with the same arguments. The headline is the record without
 * `format` keywords (ajv-formats' date-time checks are a cost the plain tool, which checks no
 * output, does not have); the record with them is the second row.
 *
 * Figures are CPU time: each candidate runs a block of calls between two `process.cpuUsage()`
 * readings, candidates interleaved in rounds with the order rotated every round, and a figure is
 * the median over rounds of CPU µs per call (as bench/cpu-ratios.ts), so the time this process
 * waits while others run on a loaded machine is left out; a ratio is the median over rounds of
 * the two candidates' ratio within one round. `dispatcher.invoke` alone and the plain
 * tool's body alone are measured in the same rounds, so the table shows what the serving layer
 * adds on top of the dispatcher (`mcp_serving_us`, `mcp_v2_serving_us`).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { Client as ClientV2 } from '@modelcontextprotocol/client'
import { InMemoryTransport as InMemoryTransportV2, McpServer as McpServerV2 } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { z } from 'zod'
import { createDispatcher, defineTool, type CallScope } from 'result-views'
import { createMcpServer } from 'result-views/mcp'
import { createMcpServerFactory } from 'result-views/mcp-v2'
import { realisticSessionFull, realisticSessionInput } from './fixtures/realistic-session.js'
import { RealisticCompactResult, RealisticFullResult, RealisticSessionInput, withoutFormats } from './fixtures/realistic-session-schema.js'
import { formatTable } from './harness.js'
import { handwrittenRealisticProjection } from './handwritten.js'

interface Connected<C> {
  readonly client: C
  readonly close: () => Promise<void>
}

/** The scope a host binds its MCP server to (as bench/cpu-ratios.ts passes it to `invoke`). */
const SCOPE: CallScope = { workspace_id: 'ws_storage', session_id: 'sess-coordinator-01', agent_name: 'general', profile_id: 'prof_backend' }

async function connectV1(server: { connect(transport: InMemoryTransport): Promise<void>; close(): Promise<void> }): Promise<Connected<Client>> {
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

/** A v2 factory served as a stdio connection is (`serveStdio`), on the in-memory pair, with a 2026-07-28 client. */
async function connectV2(factory: Parameters<typeof serveStdio>[0]): Promise<Connected<ClientV2>> {
  const [clientTransport, serverTransport] = InMemoryTransportV2.createLinkedPair()
  const served = serveStdio(factory, { transport: serverTransport })
  const client = new ClientV2({ name: 'bench-client', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } })
  await client.connect(clientTransport)
  return {
    client,
    close: async () => {
      await client.close()
      await served.close()
    },
  }
}

/** CPU microseconds per call of `run`, over `calls` calls. */
async function cpuPerCall(run: () => Promise<unknown>, calls: number): Promise<number> {
  const start = process.cpuUsage()
  for (let i = 0; i < calls; i++) await run()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / calls
}

type Answer = { readonly isError?: unknown; readonly structuredContent?: unknown }

/** Throws unless the answer is a successful result with the compact record (a bench that measures errors measures nothing). */
function check(answer: unknown): void {
  const result = answer as Answer
  if (result.isError === true || typeof result.structuredContent !== 'object' || result.structuredContent === null || !('session' in result.structuredContent)) {
    throw new Error(`bench MCP call failed: ${JSON.stringify(result)}`)
  }
}

/** Runs the MCP candidates, prints their table, returns the `mcp_` ratios (v1 and v2, without and with formats) and the per-call CPU times. */
export async function mcpBench(quick = false): Promise<Record<string, number>> {
  const full = structuredClone(realisticSessionFull)
  const base = { description: 'Read one session.', input: RealisticSessionInput, handler: () => full }
  const tools = [
    defineTool({ ...base, id: 'compozy__session_status', output: { compact: RealisticCompactResult, full: RealisticFullResult } }),
    // The same tool without `format` keywords (see withoutFormats): what the library adds besides ajv-formats.
    defineTool({ ...base, id: 'compozy__session_status_plain', output: { compact: withoutFormats(RealisticCompactResult), full: withoutFormats(RealisticFullResult) } } as never),
  ]
  const dispatcher = createDispatcher({ tools })
  const options = { name: 'bench', version: '1.0.0', scope: SCOPE }

  const plainBody = (): { structuredContent: Record<string, unknown>; content: { type: 'text'; text: string }[] } => {
    const compact = handwrittenRealisticProjection(full)
    return { structuredContent: compact, content: [{ type: 'text' as const, text: JSON.stringify(compact) }] }
  }
  const plainInput = z.object({ session_id: z.string().min(1) })
  const plainV1 = new McpServer({ name: 'bench-plain', version: '1.0.0' })
  plainV1.registerTool('compozy__session_status', { description: 'Read one session.', inputSchema: { session_id: z.string().min(1) } }, plainBody)
  const plainV2 = (): McpServerV2 => {
    const server = new McpServerV2({ name: 'bench-plain', version: '1.0.0' })
    server.registerTool('compozy__session_status', { description: 'Read one session.', inputSchema: plainInput }, plainBody)
    return server
  }

  const connections = [
    await connectV1(createMcpServer(dispatcher, options)),
    await connectV1(plainV1),
    await connectV2(createMcpServerFactory(dispatcher, options)),
    await connectV2(plainV2),
  ] as const
  const [oursV1, plainV1Connection, oursV2, plainV2Connection] = connections
  // The same arguments on every side; only the tool's name differs between the two records.
  const call = { name: 'compozy__session_status', arguments: realisticSessionInput }
  const callNoFormats = { name: 'compozy__session_status_plain', arguments: realisticSessionInput }
  const candidates: Record<string, () => Promise<unknown>> = {
    'v1 createMcpServer (no formats)': async () => check(await oursV1.client.callTool(callNoFormats)),
    'v1 plain SDK McpServer': async () => check(await plainV1Connection.client.callTool(call)),
    'v1 createMcpServer (formats)': async () => check(await oursV1.client.callTool(call)),
    'v2 createMcpServerFactory (no formats)': async () => check(await oursV2.client.callTool(callNoFormats)),
    'v2 plain SDK McpServer': async () => check(await plainV2Connection.client.callTool(call)),
    'v2 createMcpServerFactory (formats)': async () => check(await oursV2.client.callTool(call)),
    'dispatcher.invoke alone (no formats)': async () => {
      const outcome = await dispatcher.invoke({ tool_id: 'compozy__session_status_plain', input: realisticSessionInput, scope: SCOPE })
      if (outcome.status !== 'ok') throw new Error(`bench invoke failed: ${JSON.stringify(outcome)}`)
    },
    'plain tool body alone (zod + pick + JSON text)': async () => {
      const input = plainInput.parse(realisticSessionInput)
      if (input.session_id.length === 0) throw new Error('unreachable')
      plainBody()
    },
  }
  const names = Object.keys(candidates)
  const calls = quick ? 50 : 500
  const warmupRounds = quick ? 1 : 6
  const rounds = quick ? 2 : 31
  const samples = new Map<string, number[]>(names.map((name) => [name, []]))
  try {
    for (let round = 0; round < warmupRounds + rounds; round++) {
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + round) % names.length]!
        const perCall = await cpuPerCall(candidates[name]!, calls)
        if (round >= warmupRounds) samples.get(name)!.push(perCall)
      }
    }
  } finally {
    for (const connection of connections) await connection.close()
  }
  const middle = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  const median = (name: string): number => middle(samples.get(name)!)
  // A ratio is the median over rounds of the two candidates' ratio in one round: the two blocks of a
  // round run a few milliseconds apart, so a busy moment of this shared machine hits both alike.
  const ratioOf = (name: string, plain: string): number => middle(samples.get(name)!.map((ours, round) => ours / samples.get(plain)![round]!))
  const v1Plain = median('v1 plain SDK McpServer')
  const v2Plain = median('v2 plain SDK McpServer')
  const invoke = median('dispatcher.invoke alone (no formats)')
  const body = median('plain tool body alone (zod + pick + JSON text)')
  const ratio = (name: string): string =>
    name.startsWith('v1 c') ? `${ratioOf(name, 'v1 plain SDK McpServer').toFixed(2)}×` : name.startsWith('v2 c') ? `${ratioOf(name, 'v2 plain SDK McpServer').toFixed(2)}×` : ''
  console.log(
    '\n' +
      formatTable(
        `MCP tools/call over the in-memory transports, in CPU time (median of ${rounds} interleaved rounds of ${calls} calls; ours with a scope; ratios: median of the per-round ratios)`,
        ['candidate', 'CPU µs / call', 'vs the plain SDK tool'],
        names.map((name) => [name, median(name).toFixed(2), ratio(name)]),
      ),
  )
  const v1 = median('v1 createMcpServer (no formats)')
  const v2 = median('v2 createMcpServerFactory (no formats)')
  return {
    mcp_no_formats_vs_plain_sdk: ratioOf('v1 createMcpServer (no formats)', 'v1 plain SDK McpServer'),
    mcp_vs_plain_sdk: ratioOf('v1 createMcpServer (formats)', 'v1 plain SDK McpServer'),
    mcp_v2_no_formats_vs_plain_sdk: ratioOf('v2 createMcpServerFactory (no formats)', 'v2 plain SDK McpServer'),
    mcp_v2_vs_plain_sdk: ratioOf('v2 createMcpServerFactory (formats)', 'v2 plain SDK McpServer'),
    mcp_call_us: v1,
    mcp_plain_call_us: v1Plain,
    mcp_v2_call_us: v2,
    mcp_v2_plain_call_us: v2Plain,
    mcp_invoke_us: invoke,
    mcp_plain_body_us: body,
    // What the serving layer adds besides the dispatcher: (ours − plain) − (invoke − the plain body).
    mcp_serving_us: v1 - v1Plain - (invoke - body),
    mcp_v2_serving_us: v2 - v2Plain - (invoke - body),
  }
}
