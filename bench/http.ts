/**
 * HTTP invoke over keep-alive against a plain `node:http` handler: `createHttpHandler` over a
 * dispatcher with the realistic session tool (no formats), and a hand-written `node:http` handler
 * doing the same work (read the body, `JSON.parse`, precompiled ajv on the input, the handler,
 * precompiled ajv on the full record, the direct pick, `JSON.stringify` of the same answer shape,
 * the same four headers), each on its own loopback server. One client `Agent` with `keepAlive`
 * reuses its connections; both servers run in this process, so a figure is a whole round trip on
 * one machine. Every request carries a scope, as hosts send one.
 *
 * The comparison is checked before anything is timed: both answers have the same status, the
 * same body bytes and the same header names. After the run, each server must have seen exactly
 * one connection (keep-alive really reused by both). Figures: wall-clock medians of interleaved
 * rounds (bench/harness.ts), and CPU time (`process.cpuUsage()` over blocks of requests,
 * candidates interleaved, the order alternated every round; the median over rounds), which
 * leaves out the time the process waits while others run on a loaded machine.
 */
import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Ajv } from 'ajv'
import { createDispatcher, defineTool } from 'result-views'
import { createHttpHandler } from 'result-views/http'
import { realisticSessionFull, realisticSessionInput } from './fixtures/realistic-session.js'
import { RealisticCompactResult, RealisticFullResult, RealisticSessionInput, withoutFormats } from './fixtures/realistic-session-schema.js'
import { formatMeasured, formatTable, measureInRounds, median, roundsFor } from './harness.js'
import { handwrittenRealisticProjection } from './handwritten.js'

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))
  })
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })
}

/** The plain limit: what any JSON tool endpoint on `node:http` does for this call. */
function plainHandler(full: unknown): (req: IncomingMessage, res: ServerResponse) => void {
  const ajv = new Ajv({ strict: true, strictNumbers: true, allowUnionTypes: true })
  const validateInput = ajv.compile(json(RealisticSessionInput))
  const validateFull = ajv.compile(json(withoutFormats(RealisticFullResult)))
  return (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: unknown }
      if (!validateInput(body.input)) {
        res.writeHead(400).end()
        return
      }
      const record = full
      if (!validateFull(record)) {
        res.writeHead(500).end()
        return
      }
      const text = JSON.stringify({ result: { structured: handwrittenRealisticProjection(record as never), preview: 'sess' }, result_view: 'compact' })
      // The headers every JSON answer of an API holding a caller's data sends (ours sends the same).
      res
        .writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
        .end(text)
    })
  }
}

/** What a request answered: its status, and with `keep` its body text and header names (without `date`). */
interface Answered {
  readonly status: number
  readonly text?: string
  readonly headerNames?: string
}

/** POSTs `body` to `port` over the shared keep-alive agent; resolves once the answer is read. */
function post(agent: Agent, port: number, path: string, body: string, keep = false): Promise<Answered> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => {
          if (keep) chunks.push(chunk)
        })
        res.on('end', () => {
          const status = res.statusCode ?? 0
          if (!keep) return resolve({ status })
          const headerNames = Object.keys(res.headers).filter((name) => name !== 'date').sort().join(', ')
          resolve({ status, text: Buffer.concat(chunks).toString('utf8'), headerNames })
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** CPU microseconds per request of `run`, over `requests` requests. */
async function cpuPerRequest(run: () => Promise<unknown>, requests: number): Promise<number> {
  const start = process.cpuUsage()
  for (let i = 0; i < requests; i++) await run()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / requests
}

/** Counts the connections a server accepts. */
function connectionsOf(server: Server): () => number {
  let count = 0
  server.on('connection', () => count++)
  return () => count
}

/** Runs the HTTP pair, prints its tables, returns `http_vs_plain_node`, `cpu_http_vs_plain_node` and the per-request times. */
export async function httpBench(quick = false): Promise<Record<string, number>> {
  const full = structuredClone(realisticSessionFull)
  const tool = defineTool({
    id: 'compozy__session_status',
    description: 'Read one session.',
    input: RealisticSessionInput,
    output: { compact: withoutFormats(RealisticCompactResult), full: withoutFormats(RealisticFullResult) },
    preview: () => 'sess',
    handler: () => full,
  } as never)
  const ours = createServer({ keepAliveTimeout: 60_000 }, createHttpHandler(createDispatcher({ tools: [tool] })))
  const plain = createServer({ keepAliveTimeout: 60_000 }, plainHandler(full))
  const connections = { ours: connectionsOf(ours), plain: connectionsOf(plain) }
  const [oursPort, plainPort] = [await listen(ours), await listen(plain)]
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const scope = { workspace_id: 'ws_storage', session_id: 'sess-coordinator-01', agent_name: 'general', profile_id: 'prof_backend' }
  const body = JSON.stringify({ input: realisticSessionInput, scope })
  const path = '/api/tools/compozy__session_status/invoke'
  const ok = (answered: Answered): void => {
    if (answered.status !== 200) throw new Error(`bench HTTP invoke answered ${answered.status}`)
  }
  const candidates = {
    ours: async () => ok(await post(agent, oursPort, path, body)),
    plain: async () => ok(await post(agent, plainPort, path, body)),
  }
  try {
    // A fair pair: the same answer, byte for byte, with the same headers.
    const [oursAnswer, plainAnswer] = [await post(agent, oursPort, path, body, true), await post(agent, plainPort, path, body, true)]
    if (oursAnswer.status !== 200 || plainAnswer.status !== 200) throw new Error(`bench HTTP pair answered ${oursAnswer.status} and ${plainAnswer.status}`)
    if (oursAnswer.text !== plainAnswer.text) throw new Error('bench HTTP pair: the two answers differ in their bytes')
    if (oursAnswer.headerNames !== plainAnswer.headerNames) throw new Error(`bench HTTP pair: headers differ (${oursAnswer.headerNames} / ${plainAnswer.headerNames})`)
    const measured = await measureInRounds(
      [
        { name: 'createHttpHandler POST invoke (realistic, no formats)', run: candidates.ours, batch: 10, async: true },
        { name: 'plain node:http parse + ajv + pick (realistic, no formats)', run: candidates.plain, batch: 10, async: true },
      ],
      roundsFor(quick),
    )
    console.log(formatMeasured('\nHTTP invoke over loopback keep-alive (median per request)', measured))
    const oursNs = median(measured, 'createHttpHandler POST invoke (realistic, no formats)')
    const plainNs = median(measured, 'plain node:http parse + ajv + pick (realistic, no formats)')
    // CPU time, in interleaved blocks (warmed up above).
    const rounds = quick ? 2 : 15
    const requests = quick ? 50 : 1000
    const cpu = { ours: [] as number[], plain: [] as number[] }
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['ours', 'plain'] as const) : (['plain', 'ours'] as const)
      for (const name of order) cpu[name].push(await cpuPerRequest(candidates[name], requests))
    }
    const middle = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!
    const [oursCpu, plainCpu] = [middle(cpu.ours), middle(cpu.plain)]
    console.log(
      formatTable(`\nHTTP invoke over loopback keep-alive, CPU time (median of ${rounds} interleaved blocks of ${requests} requests)`, ['candidate', 'CPU µs / request'], [
        ['createHttpHandler POST invoke', oursCpu.toFixed(1)],
        ['plain node:http parse + ajv + pick', plainCpu.toFixed(1)],
      ]),
    )
    // Keep-alive really reused: one connection per server for the whole run.
    if (connections.ours() !== 1 || connections.plain() !== 1) throw new Error(`bench HTTP pair opened ${connections.ours()} and ${connections.plain()} connections, not one each`)
    return {
      http_vs_plain_node: oursNs / plainNs,
      http_invoke_us: oursNs / 1000,
      http_plain_us: plainNs / 1000,
      cpu_http_vs_plain_node: oursCpu / plainCpu,
      cpu_http_invoke_us: oursCpu,
      cpu_http_plain_us: plainCpu,
    }
  } finally {
    agent.destroy()
    await close(ours)
    await close(plain)
  }
}
