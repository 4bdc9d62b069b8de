// The approvals console over plain HTTP: the opt-in, its files and security headers, the list
// route, and the cross-site check of decisions (header and origin). The browser tests are in
// console-browser.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDispatcher, createMemoryApprovalStores } from 'result-views'
import { createFetchHandler, createHttpHandler, isHttpOptionsError } from 'result-views/http'
import { CONSOLE_SCOPE, consoleDispatcher } from './console-fixtures.js'
import { fetchJson, serve, type Served } from './support.js'

const CSRF = { 'x-result-views-csrf': '1' }

describe('the approvals console (opt-in)', () => {
  let served: Served
  let plain: Served
  const fixture = consoleDispatcher()
  beforeAll(async () => {
    served = await serve(createHttpHandler(fixture.dispatcher, { console: true }))
    plain = await serve(createHttpHandler(consoleDispatcher().dispatcher))
  })
  afterAll(async () => {
    await served.close()
    await plain.close()
  })

  const open = async (target = 'prod', token?: string) => {
    const answer = await fetchJson(served.origin, 'POST', '/api/tools/ops__deploy/invoke', { input: { target, ...(token ? { token } : {}) }, scope: CONSOLE_SCOPE })
    expect(answer.status).toBe(202)
    return answer.body.approval_id as string
  }

  it('is not served without console: true, and console must be a boolean', async () => {
    expect((await fetch(plain.origin + '/api/console')).status).toBe(404)
    try {
      createHttpHandler(fixture.dispatcher, { console: 'yes' as never })
      expect.unreachable()
    } catch (error) {
      expect(isHttpOptionsError(error)).toBe(true)
      expect((error as { problems: { path: string }[] }).problems.map((p) => p.path)).toEqual(['/options/console'])
    }
    try {
      createHttpHandler(fixture.dispatcher, { consol: true } as never)
      expect.unreachable()
    } catch (error) {
      expect((error as { problems: { code: string; message: string }[] }).problems[0]).toMatchObject({ code: 'unknown_option' })
    }
  })

  it('serves one page, one module and one stylesheet with a strict CSP and no inline script or style', async () => {
    const page = await fetch(served.origin + '/api/console?profile=prof-owner')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const csp = page.headers.get('content-security-policy')!
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("style-src 'self'")
    expect(csp).not.toContain('unsafe')
    expect(page.headers.get('x-frame-options')).toBe('DENY')
    const html = await page.text()
    // Every <script> has a src; no style element or attribute; no inline event handler.
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script type="module" src="console/console.js">'])
    expect(html).not.toMatch(/<style|style=|\son[a-z]+=/i)
    const script = await fetch(served.origin + '/api/console/console.js')
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    const code = await script.text()
    // Rendered as text only: no HTML parsing sink anywhere in the module.
    expect(code).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/)
    expect((await fetch(served.origin + '/api/console/console.css')).headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect((await fetchJson(served.origin, 'GET', '/api/console/other.js')).body.error).toMatchObject({ code: 'http_request_invalid', reason: 'unknown_route' })
    expect((await fetchJson(served.origin, 'POST', '/api/console')).status).toBe(405)
  })

  it('GET /tools/approvals lists the profile\'s approvals, redacted, newest first, filtered', async () => {
    const first = await open('one', 'canary-secret-0042')
    const second = await open('two')
    const listed = await fetchJson(served.origin, 'GET', `/api/tools/approvals?profile=prof-owner&workspace_id=${CONSOLE_SCOPE.workspace_id}&status=pending`)
    expect(listed.status).toBe(200)
    const ids = listed.body.approvals.map((a: { approval_id: string }) => a.approval_id)
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first))
    expect(JSON.stringify(listed.body)).not.toContain('canary-secret-0042')
    expect(listed.body.approvals.find((a: { approval_id: string }) => a.approval_id === first).input).toEqual({ target: 'one', token: '[REDACTED]' })
    expect((await fetchJson(served.origin, 'GET', '/api/tools/approvals?profile=prof-other')).body).toEqual({ approvals: [] })
    expect((await fetchJson(served.origin, 'GET', '/api/tools/approvals')).body.error).toMatchObject({ code: 'http_request_invalid', reason: 'query_invalid' })
    expect((await fetchJson(served.origin, 'GET', '/api/tools/approvals?profile=p&limit=x')).body.error).toMatchObject({ reason: 'query_invalid' })
    expect((await fetchJson(served.origin, 'GET', '/api/tools/approvals?profile=p&status=nope')).body.error).toMatchObject({ code: 'approval_request_invalid', reason: 'field_invalid' })
  })

  it('refuses a decision without the header, or from another origin; nothing is decided or run', async () => {
    const id = await open('guarded')
    const resolve = (headers: Record<string, string>) => fetchJson(served.origin, 'POST', `/api/tools/approvals/${id}/resolve?profile=prof-owner`, { decision: 'approved' }, headers)
    const refusals: [Record<string, string>, string][] = [
      [{}, 'csrf_header_missing'],
      [{ 'x-result-views-csrf': 'yes' }, 'csrf_header_missing'],
      [{ ...CSRF, origin: 'http://evil.example' }, 'cross_origin_refused'],
      [{ ...CSRF, origin: 'null' }, 'cross_origin_refused'],
      [{ ...CSRF, origin: `http://127.0.0.1:${served.port + 1}` }, 'cross_origin_refused'],
      [{ ...CSRF, 'sec-fetch-site': 'cross-site' }, 'cross_origin_refused'],
      [{ ...CSRF, 'sec-fetch-site': 'same-site' }, 'cross_origin_refused'],
    ]
    for (const [headers, reason] of refusals) {
      const answer = await resolve(headers)
      expect(answer.status, JSON.stringify(headers)).toBe(403)
      expect(answer.body.error).toEqual({ code: 'tool_denied', reason, message: 'tool invocation denied' })
    }
    for (const [method, path, body] of [
      ['POST', `/api/tools/approvals/${id}/cancel?profile=prof-owner`, undefined],
      ['PUT', `/api/tool-approval-grants?workspace_id=ws-console`, { tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' }],
      ['DELETE', `/api/tool-approval-grants/g-1?workspace_id=ws-console`, undefined],
    ] as const) {
      expect((await fetchJson(served.origin, method, path, body)).body.error.reason).toBe('csrf_header_missing')
    }
    expect((await fetchJson(served.origin, 'GET', `/api/tools/approvals/${id}?profile=prof-owner`)).body.approval.status).toBe('pending')
    expect(fixture.runs.filter((run) => run.target === 'guarded')).toEqual([])
    // The page's own request shape (header, same origin) is accepted, once.
    const accepted = await resolve({ ...CSRF, origin: served.origin, 'sec-fetch-site': 'same-origin' })
    expect(accepted.status).toBe(200)
    expect(accepted.body.approval.outcome).toMatchObject({ status: 'ok', result: { preview: 'deployed guarded' } })
    expect(fixture.runs.filter((run) => run.target === 'guarded')).toHaveLength(1)
  })

  it('the fetch handler applies the same check, judging Origin by the request URL', async () => {
    const { dispatcher } = consoleDispatcher()
    const handle = createFetchHandler(dispatcher, { console: true })
    const put = (headers: Record<string, string>) =>
      handle(new Request('http://console.localhost/api/tool-approval-grants?workspace_id=ws-1', { method: 'PUT', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' }) }), { remoteAddress: '127.0.0.1' })
    expect((await put({ ...CSRF, origin: 'http://console.localhost' })).status).toBe(200)
    expect(((await (await put({ ...CSRF, origin: 'http://other.test' })).json()) as any).error.reason).toBe('cross_origin_refused')
    expect(((await (await put({})).json()) as any).error.reason).toBe('csrf_header_missing')
    // The loopback rule comes first: a remote peer with the header is still refused.
    const remote = await handle(new Request('http://console.localhost/api/tools/approvals/x/cancel?profile=p', { method: 'POST', headers: CSRF }), { remoteAddress: '198.51.100.7' })
    expect(((await remote.json()) as any).error.reason).toBe('loopback_required')
  })

  it('the list route takes the profile and workspace authenticate fixes, and refuses others', async () => {
    const { dispatcher } = consoleDispatcher()
    const handle = createFetchHandler(dispatcher, { console: true, authenticate: () => ({ profile_id: CONSOLE_SCOPE.profile_id, workspace_id: CONSOLE_SCOPE.workspace_id }) })
    const get = async (path: string) => {
      const response = await handle(new Request(`http://console.localhost${path}`), { remoteAddress: '127.0.0.1' })
      return { status: response.status, body: (await response.json()) as any }
    }
    const invoked = await handle(new Request('http://console.localhost/api/tools/ops__deploy/invoke', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: { target: 'x' }, scope: CONSOLE_SCOPE }) }), { remoteAddress: '127.0.0.1' })
    expect(invoked.status).toBe(202)
    expect((await get('/api/tools/approvals')).body.approvals).toHaveLength(1)
    expect((await get('/api/tools/approvals?profile=prof-other')).body.error).toMatchObject({ code: 'tool_denied', reason: 'scope_forbidden' })
    expect((await get('/api/tools/approvals?workspace_id=ws-other')).body.error).toMatchObject({ code: 'tool_denied', reason: 'scope_forbidden' })
  })

  it('a pending store without list answers 503 approval_unavailable / store_unsupported', async () => {
    const { list: _list, ...pending } = createMemoryApprovalStores().pending
    const bare = createDispatcher({ tools: [], approvals: { ...createMemoryApprovalStores(), pending } })
    const answer = await createFetchHandler(bare, { console: true })(new Request('http://console.localhost/api/tools/approvals?profile=p'))
    expect(answer.status).toBe(503)
    expect(((await answer.json()) as any).error).toMatchObject({ code: 'approval_unavailable', reason: 'store_unsupported' })
  })

  it('without the console, decisions need no header (nothing changes for existing clients)', async () => {
    const answer = await fetchJson(plain.origin, 'PUT', '/api/tool-approval-grants?workspace_id=ws-1', { tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' })
    expect(answer.status).toBe(200)
  })
})
