// The DNS-rebinding (Host) rule and the Origin scheme check of approval decisions, with the console
// on and off (a rebinding page reaches the handler under the attacker's DNS name, in the Host
// header; browsers send Origin and Sec-Fetch-Site, the command and curl do not).
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFetchHandler, createHttpHandler, isHttpOptionsError } from 'result-views/http'
import { CONSOLE_SCOPE, consoleDispatcher } from './console-fixtures.js'
import { fetchJson, serve, type Served } from './support.js'

const CSRF = { 'x-result-views-csrf': '1' }

/** One request with any headers (fetch cannot set Host), answered as status and parsed JSON. */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body)
    const req = request({ host: '127.0.0.1', port, method, path, headers: { ...(text === undefined ? {} : { 'content-type': 'application/json' }), ...headers } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        let parsed: unknown = raw
        try {
          parsed = JSON.parse(raw)
        } catch {}
        resolve({ status: res.statusCode ?? 0, body: parsed })
      })
    })
    req.on('error', reject)
    req.end(text)
  })
}

describe('approval decisions and the console refuse a rebinding Host and a foreign Origin', () => {
  const on = consoleDispatcher()
  const off = consoleDispatcher()
  let withConsole: Served
  let withoutConsole: Served
  let listed: Served
  beforeAll(async () => {
    withConsole = await serve(createHttpHandler(on.dispatcher, { console: true }))
    withoutConsole = await serve(createHttpHandler(off.dispatcher))
    listed = await serve(createHttpHandler(consoleDispatcher().dispatcher, { console: true, allowedHosts: ['tools.internal'] }))
  })
  afterAll(async () => {
    await withConsole.close()
    await withoutConsole.close()
    await listed.close()
  })

  const open = async (served: Served, target: string) => {
    const answer = await fetchJson(served.origin, 'POST', '/api/tools/ops__deploy/invoke', { input: { target }, scope: CONSOLE_SCOPE })
    expect(answer.status).toBe(202)
    return answer.body.approval_id as string
  }

  it('a rebinding host name is refused host_not_allowed on the page, the list and every decision, console on; decisions also with it off; nothing runs', async () => {
    const id = await open(withConsole, 'rebound')
    const evil = { host: `rebind.attacker.example:${withConsole.port}`, origin: `http://rebind.attacker.example:${withConsole.port}`, 'sec-fetch-site': 'same-origin', ...CSRF }
    for (const [method, path, body] of [
      ['GET', '/api/console?profile=prof-owner', undefined],
      ['GET', '/api/console/console.js', undefined],
      ['GET', '/api/tools/approvals?profile=prof-owner', undefined],
      ['GET', `/api/tools/approvals/${id}?profile=prof-owner`, undefined],
      ['GET', '/api/tool-approval-grants?workspace_id=ws-console', undefined],
      ['POST', `/api/tools/approvals/${id}/resolve?profile=prof-owner`, { decision: 'approved' }],
      ['POST', `/api/tools/approvals/${id}/cancel?profile=prof-owner`, undefined],
      ['PUT', '/api/tool-approval-grants?workspace_id=ws-console', { tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' }],
      ['DELETE', '/api/tool-approval-grants/g-1?workspace_id=ws-console', undefined],
    ] as const) {
      const answer = await send(withConsole.port, method, path, evil, body)
      expect(answer.status, `${method} ${path}`).toBe(403)
      expect(answer.body.error, `${method} ${path}`).toEqual({ code: 'tool_denied', reason: 'host_not_allowed', message: 'tool invocation denied' })
    }
    expect(on.runs).toEqual([])
    // Without the console: decisions get the Host rule, reads do not (no page reads them).
    const offId = await open(withoutConsole, 'rebound-off')
    const offEvil = { host: `rebind.attacker.example:${withoutConsole.port}` }
    expect((await send(withoutConsole.port, 'POST', `/api/tools/approvals/${offId}/resolve?profile=prof-owner`, offEvil, { decision: 'approved' })).body.error.reason).toBe('host_not_allowed')
    expect((await send(withoutConsole.port, 'GET', `/api/tools/approvals/${offId}?profile=prof-owner`, offEvil)).status).toBe(200)
    expect(off.runs).toEqual([])
  })

  it('a rebinding page can neither list tools, invoke one nor open a pending approval once the console is on or allowedHosts is given (rebind-invoke)', async () => {
    for (const served of [withConsole, listed]) {
      const evil = { host: `rebind.attacker.example:${served.port}`, origin: `http://rebind.attacker.example:${served.port}`, 'sec-fetch-site': 'same-origin' }
      for (const [method, path, body] of [
        ['GET', '/api/tools', undefined],
        ['GET', '/api/tools/ops__deploy', undefined],
        ['POST', '/api/tools/ops__deploy/invoke', { input: { target: 'planted' }, scope: CONSOLE_SCOPE }],
        ['POST', '/api/results/continue', { continuation: 'rvc_x_1' }],
      ] as const) {
        const answer = await send(served.port, method, path, evil, body)
        expect(answer.status, `${method} ${path}`).toBe(403)
        expect(answer.body.error.reason, `${method} ${path}`).toBe('host_not_allowed')
      }
    }
    // Nothing was planted for a person to approve.
    const listedNow = await send(withConsole.port, 'GET', '/api/tools/approvals?profile=prof-owner&status=pending', {})
    expect(JSON.stringify(listedNow.body)).not.toContain('planted')
    // The same requests addressed to 127.0.0.1 still work.
    expect((await send(withConsole.port, 'GET', '/api/tools', {})).status).toBe(200)
  })

  it('IP literals, localhost and names under .localhost pass; allowedHosts adds names; the fetch handler judges the URL host', async () => {
    for (const host of ['127.0.0.1', `127.0.0.1:${listed.port}`, `[::1]:${listed.port}`, 'LOCALHOST', `localhost.:${listed.port}`, 'console.localhost', `tools.internal:${listed.port}`, 'Tools.Internal', '192.0.2.4']) {
      expect((await send(listed.port, 'GET', '/api/tools/approvals?profile=prof-owner', { host })).status, host).toBe(200)
    }
    for (const host of ['tools.internal.attacker.example', 'localhost.attacker.example', '127.0.0.1.nip.io', 'internal', 'tools.internal@evil']) {
      expect((await send(listed.port, 'GET', '/api/tools/approvals?profile=prof-owner', { host })).body.error?.reason, host).toBe('host_not_allowed')
    }
    const { dispatcher } = consoleDispatcher()
    const handle = createFetchHandler(dispatcher, { console: true })
    const list = (url: string) => handle(new Request(url), { remoteAddress: '127.0.0.1' })
    expect((await list('http://localhost:8080/api/tools/approvals?profile=p')).status).toBe(200)
    expect(((await (await list('http://rebind.attacker.example:8080/api/tools/approvals?profile=p')).json()) as any).error.reason).toBe('host_not_allowed')
  })

  it('an Origin with another scheme is refused (https://127.0.0.1:P on an http server), console on and off', async () => {
    for (const served of [withConsole, withoutConsole]) {
      const id = await open(served, 'scheme')
      const origin = `https://127.0.0.1:${served.port}`
      const answer = await fetchJson(served.origin, 'POST', `/api/tools/approvals/${id}/resolve?profile=prof-owner`, { decision: 'approved' }, { ...CSRF, origin })
      expect(answer.body.error?.reason).toBe('cross_origin_refused')
    }
    expect([...on.runs, ...off.runs].filter((run) => run.target === 'scheme')).toEqual([])
  })

  it('with the console off, a cross-site browser cancel (an empty form POST) is refused; a client without Origin (curl, the command) still decides', async () => {
    const id = await open(withoutConsole, 'form')
    const form = await fetchJson(withoutConsole.origin, 'POST', `/api/tools/approvals/${id}/cancel?profile=prof-owner`, undefined, { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' })
    expect(form.body.error).toMatchObject({ code: 'tool_denied', reason: 'cross_origin_refused' })
    expect((await fetchJson(withoutConsole.origin, 'GET', `/api/tools/approvals/${id}?profile=prof-owner`)).body.approval.status).toBe('pending')
    const plain = await fetchJson(withoutConsole.origin, 'POST', `/api/tools/approvals/${id}/cancel?profile=prof-owner`)
    expect(plain.status).toBe(200)
    expect(plain.body.approval.status).toBe('canceled')
  })

  it('allowedHosts must be an array of lower-case host names without port', () => {
    for (const [value, paths] of [
      ['tools.internal', ['/options/allowedHosts']],
      [['Tools.internal', 'a:80', '', 'ok.example', 'a/b', 7], ['/options/allowedHosts/0', '/options/allowedHosts/1', '/options/allowedHosts/2', '/options/allowedHosts/4', '/options/allowedHosts/5']],
    ] as const) {
      try {
        createHttpHandler(on.dispatcher, { allowedHosts: value as never })
        expect.unreachable()
      } catch (error) {
        expect(isHttpOptionsError(error)).toBe(true)
        expect((error as { problems: { path: string }[] }).problems.map((p) => p.path)).toEqual(paths)
      }
    }
  })

  it('the list route cuts inputs to ?preview characters (never half a surrogate pair), the one-approval route answers the whole input', async () => {
    const big = '\ud83d\ude80'.repeat(100) + 'y'.repeat(1000)
    const id = await open(withConsole, big)
    const small = await open(withConsole, 'small')
    const listed = await fetchJson(withConsole.origin, 'GET', '/api/tools/approvals?profile=prof-owner&status=pending&preview=64')
    const entry = listed.body.approvals.find((a: { approval_id: string }) => a.approval_id === id)
    expect(entry.input).toBeUndefined()
    expect(entry.input_length).toBe(JSON.stringify({ target: big }).length)
    expect(entry.input_preview.length).toBeLessThanOrEqual(64)
    expect(JSON.stringify({ target: big }).startsWith(entry.input_preview)).toBe(true)
    expect(/[\ud800-\udbff]$/.test(entry.input_preview as string)).toBe(false)
    expect(listed.body.approvals.find((a: { approval_id: string }) => a.approval_id === small).input).toEqual({ target: 'small' })
    expect((await fetchJson(withConsole.origin, 'GET', `/api/tools/approvals/${id}?profile=prof-owner`)).body.approval.input).toEqual({ target: big })
    for (const bad of ['63', '1048577', 'x', '']) {
      expect((await fetchJson(withConsole.origin, 'GET', `/api/tools/approvals?profile=prof-owner&preview=${bad}`)).body.error, bad).toMatchObject({ code: 'http_request_invalid', reason: 'query_invalid' })
    }
  })

  it('an unchanged list is answered 304 to its ETag, with no body; a change gives a new ETag (node and fetch handlers)', async () => {
    const path = '/api/tools/approvals?profile=prof-etag&status=pending&preview=4096'
    const first = await fetch(withConsole.origin + path)
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/)
    // If-None-Match compares weakly (RFC 9110): a weak form of the tag, and *, match too.
    expect((await fetch(withConsole.origin + path, { headers: { 'if-none-match': `W/${etag}` } })).status).toBe(304)
    expect((await fetch(withConsole.origin + path, { headers: { 'if-none-match': '"other", *' } })).status).toBe(304)
    const again = await fetch(withConsole.origin + path, { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    await fetchJson(withConsole.origin, 'POST', '/api/tools/ops__deploy/invoke', { input: { target: 'etag' }, scope: { ...CONSOLE_SCOPE, profile_id: 'prof-etag' } })
    const changed = await fetch(withConsole.origin + path, { headers: { 'if-none-match': etag } })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(etag)
    expect(((await changed.json()) as any).approvals).toHaveLength(1)
    const handle = createFetchHandler(consoleDispatcher().dispatcher, { console: true })
    const url = 'http://localhost/api/tools/approvals?profile=p'
    const tag = (await handle(new Request(url))).headers.get('etag')!
    const unchanged = await handle(new Request(url, { headers: { 'if-none-match': `"other", ${tag}` } }))
    expect(unchanged.status).toBe(304)
    expect(unchanged.body).toBeNull()
  })
})
