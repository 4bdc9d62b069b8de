// Requests that share a keep-alive connection: the hang-up signal is the connection's, so a call
// late on a reused connection is still cancelled when its client hangs up; body deadlines share
// one queue per budget, so slow bodies on several connections each get their 408 at their own
// time, never before it, while other requests are answered.
import { Agent, request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDispatcher } from 'result-views'
import { createHttpHandler } from 'result-views/http'
import { waitingTool } from '../support/waiting-tool.js'
import { countingCatalog, parseRawResponse, rawExchange, serve, type Served } from './support.js'

interface Sent {
  readonly status: number
  readonly body: any
  readonly reusedSocket: boolean
}

/** A POST over `agent`, with whether the agent reused a connection for it. */
function post(agent: Agent, port: number, path: string, body: unknown, signal?: AbortSignal): Promise<Sent> {
  return new Promise((done, fail) => {
    const text = JSON.stringify(body)
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', agent, signal, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => done({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), reusedSocket: req.reusedSocket }))
      res.on('error', fail)
    })
    req.on('error', fail)
    req.end(text)
  })
}

describe('a keep-alive connection and a client that hangs up', () => {
  const { tool: slow, running, abortSeen } = waitingTool()
  const catalog = countingCatalog()
  let served: Served
  beforeAll(async () => {
    served = await serve(createHttpHandler(createDispatcher({ tools: [slow, ...catalog.tools] })))
  })
  afterAll(() => served.close())

  it('cancels a call on a connection that already carried finished calls (they aborted nothing)', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      const answers = []
      for (let index = 0; index < 3; index++) answers.push(await post(agent, served.port, '/api/tools/jobs__run/invoke', { input: { job: `j${index}` } }))
      expect(answers.map((answer) => [answer.status, answer.reusedSocket])).toEqual([
        [200, false],
        [200, true],
        [200, true],
      ])
      expect(catalog.runs()).toBe(3)
      const controller = new AbortController()
      const late = post(agent, served.port, '/api/tools/slow__wait/invoke', { input: {} }, controller.signal)
      await running
      controller.abort()
      await expect(late).rejects.toThrow()
      expect(await abortSeen).toMatchObject({ code: 'tool_execution_failed', reason: 'call_aborted', details: { handler_started: true } })
    } finally {
      agent.destroy()
    }
  })
})

describe('body deadlines share one queue per budget', () => {
  const TIMEOUT = 150
  const catalog = countingCatalog()
  let served: Served
  let other: Served
  beforeAll(async () => {
    served = await serve(createHttpHandler(createDispatcher({ tools: catalog.tools }), { bodyTimeoutMs: TIMEOUT }))
    other = await serve(createHttpHandler(createDispatcher({ tools: catalog.tools }), { bodyTimeoutMs: TIMEOUT * 4 }))
  })
  afterAll(async () => {
    await served.close()
    await other.close()
  })

  const stalled = `POST /api/tools/jobs__run/invoke HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"input":{"jo`

  /** A body that stops halfway: the answer, and how long after sending it came. */
  async function stall(port: number, delayMs = 0): Promise<{ status: number; reason: unknown; closed: boolean; afterMs: number }> {
    await new Promise((wait) => setTimeout(wait, delayMs))
    const sent = performance.now()
    const exchange = await rawExchange(port, [stalled], { waitMs: 5_000 })
    const afterMs = performance.now() - sent
    const response = parseRawResponse(exchange.text)
    return { status: response.status, reason: response.body?.error?.reason, closed: exchange.closedByServer, afterMs }
  }

  it('answers each stalled body 408 no earlier than its budget, staggered reads and two budgets alike, while a quick request is answered', async () => {
    const before = catalog.runs()
    const quick = new Promise<number>((done, fail) => {
      // Sent while the stalled bodies wait: its own read leaves the queue at once.
      setTimeout(() => {
        const text = JSON.stringify({ input: { job: 'quick' } })
        const req = httpRequest({ host: '127.0.0.1', port: served.port, path: '/api/tools/jobs__run/invoke', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } }, (res) => {
          res.resume()
          res.on('end', () => done(res.statusCode ?? 0))
        })
        req.on('error', fail)
        req.end(text)
      }, 20)
    })
    const stalls = await Promise.all([stall(served.port), stall(served.port, 40), stall(served.port, 90), stall(other.port)])
    expect(await quick).toBe(200)
    for (const [index, answer] of stalls.entries()) {
      expect([answer.status, answer.reason, answer.closed], `stall ${index}`).toEqual([408, 'body_timeout', true])
    }
    // Never before the budget: the queue's timer checks the clock before it times a read out.
    for (const answer of stalls.slice(0, 3)) expect(answer.afterMs).toBeGreaterThanOrEqual(TIMEOUT - 1)
    expect(stalls[3]!.afterMs).toBeGreaterThanOrEqual(TIMEOUT * 4 - 1)
    expect(catalog.runs()).toBe(before + 1)
  })

  it('keeps serving after a timed-out read: the next stalled body gets its own 408 and a whole body its 200', async () => {
    expect((await stall(served.port)).status).toBe(408)
    const socket = connect(served.port, '127.0.0.1')
    const text = JSON.stringify({ input: { job: 'after' } })
    const answer = await new Promise<string>((done) => {
      const chunks: Buffer[] = []
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk)
        if (Buffer.concat(chunks).toString('utf8').includes('}}')) done(Buffer.concat(chunks).toString('utf8'))
      })
      socket.write(`POST /api/tools/jobs__run/invoke HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`)
    })
    socket.destroy()
    expect(parseRawResponse(answer).status).toBe(200)
  })
})
