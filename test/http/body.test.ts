// Request bodies over real loopback TCP: every malformed, oversized, slow or abandoned body is a
// typed error, never a crash or a hung socket. Raw sockets send exactly the bytes each case needs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDispatcher } from 'result-views'
import { createHttpHandler } from 'result-views/http'
import { countingCatalog, eventually, fetchJson, parseRawResponse, rawExchange, recordingLogger, serve, type Served } from './support.js'

const LIMIT = 1024
const catalog = countingCatalog()
let served: Served

beforeAll(async () => {
  const handler = createHttpHandler(createDispatcher({ tools: catalog.tools }), { maxBodyBytes: LIMIT, bodyTimeoutMs: 200 })
  served = await serve(handler)
})
afterAll(() => served.close())

const INVOKE = '/api/tools/jobs__run/invoke'
const head = (headers: string) => `POST ${INVOKE} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`

describe('JSON bodies', () => {
  it('answers malformed JSON, invalid UTF-8, an empty body and a non-object with 400, and runs nothing', async () => {
    const before = catalog.runs()
    const cases: [string | Buffer, string][] = [
      ['{"input":', 'json_malformed'],
      ['{"input": {"job": "a"}} trailing', 'json_malformed'],
      [Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), 'json_malformed'],
      ['   ', 'json_malformed'],
      ['[{"input":{}}]', 'body_not_object'],
      ['null', 'body_not_object'],
      ['"text"', 'body_not_object'],
    ]
    for (const [body, reason] of cases) {
      const response = await fetch(served.origin + INVOKE, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      expect(response.status, String(body)).toBe(400)
      expect(await response.json()).toEqual({ error: { code: 'http_request_invalid', reason, message: 'invalid tool request' } })
    }
    const empty = await fetchJson(served.origin, 'POST', INVOKE)
    expect(empty.status).toBe(400)
    expect(empty.body.error.reason).toBe('json_malformed')
    expect(catalog.runs()).toBe(before)
  })

  it('answers 415 for a body that is not declared as UTF-8 JSON, and accepts charset utf-8 in any spelling', async () => {
    const body = JSON.stringify({ input: { job: 'a' } })
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/jsonx']) {
      const answer = await fetchJson(served.origin, 'POST', INVOKE, body, { 'content-type': type })
      expect(answer.status, type).toBe(415)
      expect(answer.body.error).toEqual({ code: 'http_request_invalid', reason: 'content_type_unsupported', message: 'invalid tool request' })
    }
    const missing = parseRawResponse((await rawExchange(served.port, [head(`Content-Length: ${body.length}\r\n`) + body])).text)
    expect(missing.status).toBe(415)
    for (const type of ['Application/JSON', 'application/json; charset="UTF-8"', 'application/json;charset=utf-8; x=1']) {
      expect((await fetchJson(served.origin, 'POST', INVOKE, body, { 'content-type': type })).status, type).toBe(200)
    }
  })

  it('answers hostile JSON with typed errors: 5,000-deep nesting, lone surrogates, __proto__ and constructor keys', async () => {
    const deep = '['.repeat(5_000) + ']'.repeat(5_000)
    const big = createHttpHandler(createDispatcher({ tools: catalog.tools }))
    const alone = await serve(big)
    try {
      const cases: [string, number, string | undefined][] = [
        [`{"input":{"job":"a","payload":${deep}}}`, 400, 'non_json_input'],
        ['{"input":{"job":"\\ud800"}}', 400, 'non_json_input'],
        ['{"input":{"job":"a","payload":{"__proto__":{"polluted":true}}}}', 200, undefined],
        ['{"input":{"job":"a"},"scope":{"__proto__":{"workspace_id":"x"}}}', 400, 'request_invalid'],
        ['{"__proto__":{"input":{"job":"a"}}}', 400, 'request_invalid'],
        ['{"input":{"job":"a"},"constructor":{}}', 400, 'request_invalid'],
      ]
      for (const [body, status, reason] of cases) {
        const answer = await fetchJson(alone.origin, 'POST', INVOKE, body)
        expect(answer.status, body.slice(0, 60)).toBe(status)
        expect(answer.body.error?.reason).toBe(reason)
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    } finally {
      await alone.close()
    }
  })

  it('accepts a body of exactly maxBodyBytes', async () => {
    const prefix = '{"input":{"job":"a","payload":"'
    const body = prefix + 'x'.repeat(LIMIT - prefix.length - 4) + '"}}'
    expect(Buffer.byteLength(body)).toBe(LIMIT - 1)
    expect((await fetchJson(served.origin, 'POST', INVOKE, body + ' ')).status).toBe(200)
  })
})

describe('bodies over the limit, cut short or too slow', () => {
  it('answers 413 at once for a declared Content-Length over the limit, and closes the connection', async () => {
    const before = catalog.runs()
    const exchange = await rawExchange(served.port, [head(`Content-Type: application/json\r\nContent-Length: ${LIMIT + 1}\r\n`) + '{"input":'])
    const response = parseRawResponse(exchange.text)
    expect(response.status).toBe(413)
    expect(response.body).toEqual({ error: { code: 'http_request_invalid', reason: 'body_too_large', message: 'invalid tool request' } })
    expect(response.headers).toContain('connection: close')
    expect(exchange.closedByServer).toBe(true)
    expect(catalog.runs()).toBe(before)
  })

  it('answers 413 for a chunked body without Content-Length that grows past the limit, and closes the connection', async () => {
    const chunk = '{"input":{"job":"a","payload":"' + 'x'.repeat(2 * LIMIT)
    const exchange = await rawExchange(served.port, [head('Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n') + `${chunk.length.toString(16)}\r\n${chunk}\r\n`])
    const response = parseRawResponse(exchange.text)
    expect(response.status).toBe(413)
    expect(response.body.error.reason).toBe('body_too_large')
    expect(exchange.closedByServer).toBe(true)
  })

  it('answers 408 to a slow client that stops sending its body, and closes the connection', async () => {
    const before = catalog.runs()
    const exchange = await rawExchange(served.port, [head('Content-Type: application/json\r\nContent-Length: 100\r\n') + '{"input":{"jo'], { waitMs: 3_000 })
    const response = parseRawResponse(exchange.text)
    expect(response.status).toBe(408)
    expect(response.body).toEqual({ error: { code: 'http_request_invalid', reason: 'body_timeout', message: 'invalid tool request' } })
    expect(exchange.closedByServer).toBe(true)
    expect(catalog.runs()).toBe(before)
  })

  it('survives a client that sends half a body and disconnects: nothing runs, nothing hangs, the next request is served', async () => {
    // A server of its own, so that its connection count is this client's alone.
    const own = countingCatalog()
    const recorded = recordingLogger()
    const alone = await serve(createHttpHandler(createDispatcher({ tools: own.tools }), { logger: recorded.logger }))
    try {
      await rawExchange(alone.port, [head('Content-Type: application/json\r\nContent-Length: 200\r\n') + '{"input":{"job":"half'], { hangUp: true })
      await eventually(() => recorded.lines.some((line) => line.fields.event === 'http.body_incomplete'))
      await expect.poll(() => new Promise<number>((done) => alone.tcp.getConnections((_, count) => done(count)))).toBe(0)
      expect(own.runs()).toBe(0)
      expect((await fetchJson(alone.origin, 'POST', INVOKE, { input: { job: 'after' } })).status).toBe(200)
      expect(own.runs()).toBe(1)
    } finally {
      await alone.close()
    }
  })

  it('closes the connection after answering a request whose body it never read (an unknown route)', async () => {
    const exchange = await rawExchange(served.port, [`POST /api/nope HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"a":`], { waitMs: 3_000 })
    const response = parseRawResponse(exchange.text)
    expect(response.status).toBe(404)
    expect(response.headers).toContain('connection: close')
    expect(exchange.closedByServer).toBe(true)
  })
})
