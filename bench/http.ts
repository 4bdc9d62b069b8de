/**
 * HTTP invoke over keep-alive against a plain `node:http` handler: `createHttpHandler` over a
 * dispatcher with the realistic session tool (no formats), and a hand-written `node:http` handler
 * doing the same work (read the body, `JSON.parse`, precompiled ajv on the input, the handler,
 * precompiled ajv on the full record, the direct pick, `JSON.stringify` of the same answer shape),
 * each on its own loopback server. One client `Agent` with `keepAlive` reuses its connections;
 * both servers run in this process, so a figure is a whole round trip on one machine.
 * Interleaved rounds (bench/harness.ts). Every request carries a scope, as hosts send one.
 */
import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Ajv } from 'ajv'
import { createDispatcher, defineTool } from 'result-views'
import { createHttpHandler } from 'result-views/http'
import { realisticSessionFull, realisticSessionInput } from './fixtures/realistic-session.js'
import { RealisticCompactResult, RealisticFullResult, RealisticSessionInput, withoutFormats } from './fixtures/realistic-session-schema.js'
import { formatMeasured, measureInRounds, median, roundsFor } from './harness.js'
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
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) }).end(text)
    })
  }
}

/** POSTs `body` to `port` over the shared keep-alive agent; resolves with the status once the answer is read. */
function post(agent: Agent, port: number, path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.on('data', () => undefined)
        res.on('end', () => resolve(res.statusCode ?? 0))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** Runs the HTTP pair, prints its table, returns `http_vs_plain_node` and the per-request times. */
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
  const [oursPort, plainPort] = [await listen(ours), await listen(plain)]
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const scope = { workspace_id: 'ws_storage', session_id: 'sess-coordinator-01', agent_name: 'general', profile_id: 'prof_backend' }
  const body = JSON.stringify({ input: realisticSessionInput, scope })
  const path = '/api/tools/compozy__session_status/invoke'
  const ok = (status: number): void => {
    if (status !== 200) throw new Error(`bench HTTP invoke answered ${status}`)
  }
  try {
    const measured = await measureInRounds(
      [
        { name: 'createHttpHandler POST invoke (realistic, no formats)', run: async () => ok(await post(agent, oursPort, path, body)), batch: 10, async: true },
        { name: 'plain node:http parse + ajv + pick (realistic, no formats)', run: async () => ok(await post(agent, plainPort, path, body)), batch: 10, async: true },
      ],
      roundsFor(quick),
    )
    console.log(formatMeasured('\nHTTP invoke over loopback keep-alive (median per request)', measured))
    const oursNs = median(measured, 'createHttpHandler POST invoke (realistic, no formats)')
    const plainNs = median(measured, 'plain node:http parse + ajv + pick (realistic, no formats)')
    return { http_vs_plain_node: oursNs / plainNs, http_invoke_us: oursNs / 1000, http_plain_us: plainNs / 1000 }
  } finally {
    agent.destroy()
    await close(ours)
    await close(plain)
  }
}
