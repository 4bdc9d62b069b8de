// createFetchHandler: the same core as the Node listener behind a WHATWG Request → Response
// adapter, called in process. Its answers equal the Node listener's for the same requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDispatcher } from 'result-views'
import { createFetchHandler, createHttpHandler } from 'result-views/http'
import { EXAMPLE_SCOPE, exampleHttpDispatcher } from '../../examples/http-server.js'
import { countingCatalog, fetchJson, serve, type Served } from './support.js'

const ORIGIN = 'http://handler.localhost'
const json = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  new Request(ORIGIN + path, body === undefined ? { method, headers } : { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

describe('createFetchHandler', () => {
  it('answers with the same status, headers and body as the Node listener', async () => {
    const node = await serve(createHttpHandler(exampleHttpDispatcher()))
    const handle = createFetchHandler(exampleHttpDispatcher())
    try {
      const requests: [string, string, unknown?][] = [
        ['GET', '/api/tools'],
        ['GET', '/api/tools/search?q=session&agent_name=general'],
        ['GET', '/api/tools/compozy__session_status?workspace_id=ws-1'],
        ['GET', '/api/tools/compozy__nope'],
        ['POST', '/api/tools/compozy__session_status/invoke', { input: { session_id: 'sess-example', result_view: 'full' } }],
        ['POST', '/api/tools/compozy__skill_view/invoke', { input: { skill_id: 'testing', result_view: 'full' } }],
        ['POST', '/api/tools/compozy__session_create/invoke', { input: { agent_name: 'general', name: 'x' }, scope: { workspace_id: 'ws_example' } }],
        ['DELETE', '/api/tools'],
        ['GET', '/api/nowhere'],
        ['GET', '/api/tool-approval-grants?workspace_id=ws_example'],
        ['GET', '/api/tools/approvals/nope?profile=p'],
      ]
      for (const [method, path, body] of requests) {
        const viaNode = await fetchJson(node.origin, method, path, body)
        const response = await handle(json(method, path, body), { remoteAddress: '127.0.0.1' })
        expect(response.status, `${method} ${path}`).toBe(viaNode.status)
        expect(await response.json()).toEqual(viaNode.body)
        for (const header of ['content-type', 'cache-control', 'allow', 'x-content-type-options']) expect(response.headers.get(header)).toBe(viaNode.headers.get(header))
      }
    } finally {
      await node.close()
    }
  })

  it('counts a request as local only for a loopback remoteAddress or local: true; without info it is not', async () => {
    const dispatcher = exampleHttpDispatcher()
    const handle = createFetchHandler(dispatcher)
    const open = async () => (await (await handle(json('POST', '/api/tools/compozy__session_create/invoke', { input: { agent_name: 'general', name: 'f' }, scope: EXAMPLE_SCOPE }))).json() as { approval_id: string }).approval_id
    const resolve = async (info: unknown) =>
      (await handle(json('POST', `/api/tools/approvals/${await open()}/resolve?profile=prof_default`, { decision: 'denied' }), info as never)).status
    expect(await resolve(undefined)).toBe(403)
    expect(await resolve({})).toBe(403)
    expect(await resolve({ remoteAddress: '198.51.100.4' })).toBe(403)
    expect(await resolve({ remoteAddress: 'localhost' })).toBe(403)
    expect(await resolve({ local: 'yes' })).toBe(403)
    expect(await resolve({ get remoteAddress() { throw new Error('hostile') } })).toBe(403)
    expect(await resolve({ remoteAddress: '::1' })).toBe(200)
    expect(await resolve({ local: true })).toBe(200)
  })

  describe('bodies', () => {
    const catalog = countingCatalog()
    const handle = createFetchHandler(createDispatcher({ tools: catalog.tools }), { maxBodyBytes: 64, bodyTimeoutMs: 100 })
    const streamed = (stream: ReadableStream<Uint8Array>) =>
      new Request(`${ORIGIN}/api/tools/jobs__run/invoke`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit)
    const reason = async (response: Response) => [response.status, ((await response.json()) as { error?: { reason: string } }).error?.reason]

    it('answers 413 for a stream that grows past the limit, 408 for one that stalls, 400 for one that errors', async () => {
      const big = new ReadableStream<Uint8Array>({ pull: (controller) => controller.enqueue(new TextEncoder().encode('x'.repeat(40))) })
      expect(await reason(await handle(streamed(big)))).toEqual([413, 'body_too_large'])
      const stalled = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new TextEncoder().encode('{"input":')) })
      expect(await reason(await handle(streamed(stalled)))).toEqual([408, 'body_timeout'])
      const broken = new ReadableStream<Uint8Array>({ pull: (controller) => controller.error(new Error('client gone')) })
      expect(await reason(await handle(streamed(broken)))).toEqual([400, 'body_incomplete'])
      expect(catalog.runs()).toBe(0)
    })

    it('answers 413 from the declared Content-Length before reading, and 500 body_already_read for a consumed body', async () => {
      const declared = new Request(`${ORIGIN}/api/tools/jobs__run/invoke`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '65' }, body: '{}' })
      expect(await reason(await handle(declared))).toEqual([413, 'body_too_large'])
      const used = json('POST', '/api/tools/jobs__run/invoke', { input: { job: 'a' } })
      await used.text()
      expect(await reason(await handle(used))).toEqual([500, 'body_already_read'])
      expect(await reason(await handle(json('POST', '/api/tools/jobs__run/invoke', { input: { job: 'a' } })))).toEqual([200, undefined])
      const emptyCancel = new Request(`${ORIGIN}/api/tools/approvals/a1/cancel?profile=p`, { method: 'POST', headers: { 'content-length': '0' }, body: '' })
      expect(await reason(await handle(emptyCancel, { local: true }))).toEqual([404, 'unknown_approval'])
      expect(catalog.runs()).toBe(1)
    })

    it('answers 500 for an argument that is not a Request, and never rejects', async () => {
      for (const bad of [undefined, {}, { method: 'GET' }, new Proxy({}, { get: () => { throw new Error('trap') } })]) {
        const response = await handle(bad as never)
        expect(await reason(response)).toEqual([500, 'unexpected_error'])
      }
    })
  })
})

describe('an unexpected exception in the dispatcher', () => {
  let served: Served
  const calls: string[] = []
  beforeAll(async () => {
    const real = exampleHttpDispatcher()
    const broken = {
      ...real,
      invoke: () => Promise.reject(Object.assign(new Error('boom with a secret'), { name: 'Boom' })),
      list: () => {
        calls.push('list')
        throw new Proxy({}, { get: () => { throw new Error('trap') } })
      },
    }
    served = await serve(createHttpHandler(broken))
  })
  afterAll(() => served.close())

  it('is a 500 http_handler_failed / unexpected_error, even when the thrown value is a hostile Proxy', async () => {
    for (const [method, path, body] of [['POST', '/api/tools/x/invoke', { input: {} }], ['GET', '/api/tools']] as const) {
      const answer = await fetchJson(served.origin, method, path, body)
      expect(answer.status).toBe(500)
      expect(answer.body).toEqual({ error: { code: 'http_handler_failed', reason: 'unexpected_error', message: 'tool invocation failed' } })
    }
    expect(calls).toEqual(['list'])
  })
})
