// Every route of result-views/http over real HTTP (loopback TCP, port 0) with fetch, on the example
// catalog under a policy that asks for approval on every tool that is not read-only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryApprovalStores, createPatternPolicy } from 'result-views'
import { createHttpHandler } from 'result-views/http'
import { EXAMPLE_SCOPE, exampleHttpDispatcher } from '../../examples/http-server.js'
import { exampleDispatcher } from '../../examples/mcp-server.js'
import { fetchJson, serve, type Served } from './support.js'

const dispatcher = exampleHttpDispatcher()
let served: Served
const get = (path: string) => fetchJson(served.origin, 'GET', path)
const post = (path: string, body?: unknown) => fetchJson(served.origin, 'POST', path, body)

beforeAll(async () => {
  served = await serve(createHttpHandler(dispatcher))
})
afterAll(() => served.close())

const CATALOG = ['compozy__session_status', 'compozy__session_create', 'compozy__session_archive', 'compozy__session_spawn', 'compozy__skill_view', 'compozy__skill_list', 'compozy__skill_search', 'compozy__tool_info']

describe('GET /api/tools', () => {
  it('lists every descriptor in catalog order, exactly as dispatcher.list() gives them', async () => {
    const answer = await get('/api/tools')
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(answer.headers.get('cache-control')).toBe('no-store')
    expect(answer.body.tools.map((tool: { tool_id: string }) => tool.tool_id)).toEqual(CATALOG)
    expect(answer.body).toEqual(JSON.parse(JSON.stringify({ tools: dispatcher.list() })))
  })

  it('adds scoped diagnostics to each descriptor when the query names a scope', async () => {
    const answer = await get('/api/tools?workspace_id=ws_example&session_id=sess-example&agent_name=general')
    expect(answer.status).toBe(200)
    const byId = new Map(answer.body.tools.map((tool: { tool_id: string }) => [tool.tool_id, tool]))
    expect(byId.get('compozy__session_status')).toMatchObject({
      output_views: { compact: {}, full: {} },
      diagnostics: { scope: { workspace_id: 'ws_example', session_id: 'sess-example', agent_name: 'general' }, callable: true, status: 'callable' },
    })
    expect(byId.get('compozy__session_create')).toMatchObject({ diagnostics: { callable: false, status: 'approval_required' } })
  })

  it('refuses an unknown, repeated or empty query parameter (a misspelt scope never lists unscoped)', async () => {
    for (const query of ['workspace=ws_example', 'workspace_id=a&workspace_id=b', 'workspace_id=']) {
      const answer = await get(`/api/tools?${query}`)
      expect(answer.status, query).toBe(400)
      expect(answer.body).toEqual({ error: { code: 'http_request_invalid', reason: 'query_invalid', message: 'invalid tool request' } })
    }
  })
})

describe('GET /api/tools/search', () => {
  it('finds tools by ID and by description, case-insensitively', async () => {
    const byId = await get('/api/tools/search?q=SKILL_view')
    expect(byId.status).toBe(200)
    expect(byId.body.tools.map((tool: { tool_id: string }) => tool.tool_id)).toEqual(['compozy__skill_view'])
    const byDescription = await get(`/api/tools/search?q=${encodeURIComponent('child session')}`)
    expect(byDescription.body.tools.map((tool: { tool_id: string }) => tool.tool_id)).toEqual(['compozy__session_spawn'])
    expect((await get('/api/tools/search?q=nothing-matches-this')).body).toEqual({ tools: [] })
  })

  it('gives scoped diagnostics like the list, and requires q', async () => {
    const scoped = await get('/api/tools/search?q=archive&workspace_id=ws_example&agent_name=general')
    expect(scoped.body.tools).toHaveLength(1)
    expect(scoped.body.tools[0].diagnostics.status).toBe('approval_required')
    const missing = await get('/api/tools/search')
    expect(missing.status).toBe(400)
    expect(missing.body.error.reason).toBe('query_invalid')
  })

  it('http-search-q-counts-code-points: takes 256 emoji (512 UTF-16 units) and refuses 257', async () => {
    expect((await get(`/api/tools/search?q=${encodeURIComponent('😀'.repeat(256))}`)).body).toEqual({ tools: [] })
    const long = await get(`/api/tools/search?q=${encodeURIComponent('😀'.repeat(257))}`)
    expect(long.status).toBe(400)
    expect(long.body.error.reason).toBe('query_invalid')
    expect((await get(`/api/tools/search?q=${'a'.repeat(257)}`)).status).toBe(400)
  })
})

describe('GET /api/tools/{tool_id}', () => {
  it("answers { tool: { descriptor } } with both view contracts (jq '.tool.descriptor.output_views | keys')", async () => {
    const answer = await get('/api/tools/compozy__session_status')
    expect(answer.status).toBe(200)
    expect(Object.keys(answer.body.tool)).toEqual(['descriptor'])
    expect(Object.keys(answer.body.tool.descriptor.output_views).sort()).toEqual(['compact', 'full'])
    expect(answer.body.tool.descriptor).toEqual(JSON.parse(JSON.stringify(dispatcher.describe('compozy__session_status'))))
  })

  it('adds diagnostics for a scope, and a single-result tool has no output_views', async () => {
    const answer = await get('/api/tools/compozy__skill_view?workspace_id=ws-1&session_id=sess-1&agent_name=reviewer')
    expect(answer.status).toBe(200)
    expect(answer.body.tool.descriptor.output_views).toBeUndefined()
    expect(answer.body.tool.diagnostics).toEqual({ scope: { workspace_id: 'ws-1', session_id: 'sess-1', agent_name: 'reviewer' }, callable: true, status: 'callable' })
  })

  it('answers 404 tool_not_found for an unknown tool, with or without a scope', async () => {
    for (const path of ['/api/tools/compozy__nope', '/api/tools/compozy__nope?workspace_id=ws-1']) {
      const answer = await get(path)
      expect(answer.status).toBe(404)
      expect(answer.body).toEqual({ error: { code: 'tool_not_found', reason: 'unknown_tool', message: 'invalid tool request' } })
    }
  })

  it('percent-decodes the tool ID once', async () => {
    expect((await get('/api/tools/compozy%5F%5Fsession_status')).status).toBe(200)
  })
})

describe('POST /api/tools/{tool_id}/invoke', () => {
  it('returns the compact view by default and the full record with result_view "full" in input', async () => {
    const compact = await post('/api/tools/compozy__session_status/invoke', { input: { session_id: 'sess-example' } })
    expect(compact.status).toBe(200)
    expect(Object.keys(compact.body)).toEqual(['result', 'result_view'])
    expect(compact.body.result_view).toBe('compact')
    expect(compact.body.result.preview).toBe('sess-example')
    expect(compact.body.result.structured.session.supervision).toBeUndefined()
    const full = await post('/api/tools/compozy__session_status/invoke', { input: { session_id: 'sess-example', result_view: 'full' } })
    expect(full.body.result_view).toBe('full')
    expect(full.body.result.structured.session.supervision).toBeDefined()
  })

  it('answers a single-result tool without result_view', async () => {
    const answer = await post('/api/tools/compozy__skill_view/invoke', { input: { skill_id: 'testing' } })
    expect(answer.status).toBe(200)
    expect(Object.keys(answer.body)).toEqual(['result'])
  })

  it('answers a handler failure with 500 tool_execution_failed, its message redacted', async () => {
    const answer = await post('/api/tools/compozy__skill_view/invoke', { input: { skill_id: 'no-such-skill' } })
    expect(answer.status).toBe(500)
    expect(answer.body).toEqual({ error: { code: 'tool_execution_failed', reason: 'handler_failed', message: 'tool invocation failed' } })
  })

  it('answers the spec\'s three input-error rows with 400, code and reason kept, message "invalid tool request"', async () => {
    const view = { pointer: '/result_view', keyword: 'enum', expected: 'one of "compact", "full"' }
    const rows = [
      ['compozy__session_status', { session_id: 'sess-example', result_view: 'huge' }, view],
      ['compozy__session_status', { session_id: 'sess-example', result_view: 1 }, view],
      ['compozy__skill_view', { skill_id: 'testing', result_view: 'full' }, { pointer: '/result_view', keyword: 'result_view', expected: 'no "result_view": the tool returns a single result' }],
    ] as const
    for (const [tool, input, issue] of rows) {
      const answer = await post(`/api/tools/${tool}/invoke`, { input })
      expect(answer.status).toBe(400)
      expect(answer.body).toEqual({ error: { code: 'tool_invalid_input', reason: 'schema_invalid', message: 'invalid tool request', details: { issues: [issue] } } })
    }
  })

  it('answers 404 for an unknown tool and 400 request_invalid for a body field invoke does not know', async () => {
    const unknown = await post('/api/tools/compozy__nope/invoke', { input: {} })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error).toEqual({ code: 'tool_not_found', reason: 'unknown_tool', message: 'invalid tool request' })
    for (const body of [{ input: {}, pinned_result_view: 'full' }, { input: {}, scope: 'ws' }, { input: {}, approval_token: 7 }]) {
      const answer = await post('/api/tools/compozy__session_status/invoke', body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(answer.body.error).toEqual({ code: 'tool_invalid_input', reason: 'request_invalid', message: 'invalid tool request' })
    }
  })

  it('answers 202 { approval_id } for a call that waits on an approval, and 403 without a profile to own one', async () => {
    const pending = await post('/api/tools/compozy__session_create/invoke', { input: { agent_name: 'general', name: 'Later' }, scope: EXAMPLE_SCOPE })
    expect(pending.status).toBe(202)
    expect(Object.keys(pending.body)).toEqual(['approval_id'])
    const ownerless = await post('/api/tools/compozy__session_create/invoke', { input: { agent_name: 'general', name: 'Later' }, scope: { workspace_id: 'ws_example' } })
    expect(ownerless.status).toBe(403)
    expect(ownerless.body.error).toEqual({
      code: 'tool_denied', reason: 'approval_required', message: 'tool invocation denied',
      details: { hint: 'supply an approval token (approval_token), or call with a scope.profile_id that can resolve a pending approval' },
    })
  })

  it('runs a call once with an approval token, and refuses its replay with 403 approval_invalid', async () => {
    const input = { session_id: 'sess-example' }
    const { token } = await dispatcher.approvals.mintApprovalToken({ tool_id: 'compozy__session_archive', scope: EXAMPLE_SCOPE, input })
    const body = { input: { ...input, result_view: 'full' }, scope: EXAMPLE_SCOPE, approval_token: token }
    const first = await post('/api/tools/compozy__session_archive/invoke', body)
    expect(first.status).toBe(200)
    expect(first.body.result.structured.session.archived_at).not.toBeNull()
    const replay = await post('/api/tools/compozy__session_archive/invoke', body)
    expect(replay.status).toBe(403)
    expect(replay.body).toEqual({ error: { code: 'approval_invalid', reason: 'token_replayed', message: 'tool invocation denied' } })
    expect(JSON.stringify(first.body) + JSON.stringify(replay.body)).not.toContain(token)
  })
})

describe('pending approvals: /api/tools/approvals/{id}', () => {
  async function openApproval(name: string): Promise<string> {
    const answer = await post('/api/tools/compozy__session_create/invoke', { input: { agent_name: 'general', name }, scope: EXAMPLE_SCOPE })
    expect(answer.status).toBe(202)
    return answer.body.approval_id
  }

  it('shows an approval to its owner only, and resolves it into the call it held', async () => {
    const id = await openApproval('Resolve me')
    const shown = await get(`/api/tools/approvals/${id}?profile=prof_default`)
    expect(shown.status).toBe(200)
    expect(shown.body.approval).toMatchObject({ approval_id: id, tool_id: 'compozy__session_create', status: 'pending', input: { agent_name: 'general', name: 'Resolve me' } })
    const stranger = await get(`/api/tools/approvals/${id}?profile=prof_other`)
    expect(stranger.status).toBe(403)
    expect(stranger.body.error).toEqual({ code: 'approval_forbidden', reason: 'profile_mismatch', message: 'tool invocation denied' })

    const resolved = await post(`/api/tools/approvals/${id}/resolve?profile=prof_default`, { decision: 'approved' })
    expect(resolved.status).toBe(200)
    expect(resolved.body.approval).toMatchObject({ status: 'approved', execution_status: 'completed', outcome: { status: 'ok', result_view: 'compact', result: { preview: expect.any(String) } } })
    const again = await post(`/api/tools/approvals/${id}/resolve?profile=prof_default`, { decision: 'denied' })
    expect(again.status).toBe(403)
    expect(again.body.error).toEqual({ code: 'approval_state', reason: 'approval_resolved', message: 'tool invocation denied' })
  })

  it('returns at dispatching with wait: false, and a later show reads the outcome', async () => {
    const id = await openApproval('No wait')
    const resolved = await post(`/api/tools/approvals/${id}/resolve?profile=prof_default`, { decision: 'approved', wait: false })
    expect(resolved.body.approval).toMatchObject({ status: 'approved', execution_status: 'dispatching' })
    await expect.poll(async () => (await get(`/api/tools/approvals/${id}?profile=prof_default`)).body.approval.execution_status).toBe('completed')
  })

  it('denies and cancels (with no body or {}), and a canceled approval cannot be resolved', async () => {
    const denied = await post(`/api/tools/approvals/${await openApproval('Deny me')}/resolve?profile=prof_default`, { decision: 'denied' })
    expect(denied.body.approval.status).toBe('denied')
    const id = await openApproval('Cancel me')
    const canceled = await fetchJson(served.origin, 'POST', `/api/tools/approvals/${id}/cancel?profile=prof_default`)
    expect(canceled.status).toBe(200)
    expect(canceled.body.approval.status).toBe('canceled')
    expect((await post(`/api/tools/approvals/${await openApproval('Cancel with {}')}/cancel?profile=prof_default`, {})).status).toBe(200)
    const late = await post(`/api/tools/approvals/${id}/resolve?profile=prof_default`, { decision: 'approved' })
    expect(late.body.error).toEqual({ code: 'approval_state', reason: 'approval_canceled', message: 'tool invocation denied' })
  })

  it('answers 404 for an unknown approval, 400 without a profile, for a bad decision or an unknown body field', async () => {
    const unknown = await get('/api/tools/approvals/nope?profile=prof_default')
    expect(unknown.status).toBe(404)
    expect(unknown.body.error).toEqual({ code: 'approval_not_found', reason: 'unknown_approval', message: 'invalid tool request' })
    const id = await openApproval('Bad requests')
    expect((await get(`/api/tools/approvals/${id}`)).body.error.reason).toBe('query_invalid')
    for (const body of [{ decision: 'maybe' }, {}, { decision: 'approved', profile_id: 'prof_default' }, { decision: 'approved', wait: 'no' }]) {
      const answer = await post(`/api/tools/approvals/${id}/resolve?profile=prof_default`, body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(answer.body.error).toEqual({ code: 'approval_request_invalid', reason: 'field_invalid', message: 'invalid tool request' })
    }
    expect((await post(`/api/tools/approvals/${id}/cancel?profile=prof_default`, { reason: 'x' })).status).toBe(400)
    expect((await get(`/api/tools/approvals/${id}?profile=prof_default`)).body.approval.status).toBe('pending')
  })
})

describe('remembered grants: /api/tool-approval-grants', () => {
  it('sets, lists and revokes an agent-scope allow that then skips the approval', async () => {
    const set = await fetchJson(served.origin, 'PUT', '/api/tool-approval-grants', {
      workspace_id: 'ws_example',
      tool_id: 'compozy__session_spawn',
      decision: 'allow',
      scope: 'agent',
      agent_name: 'general',
    })
    expect(set.status).toBe(200)
    expect(set.body.grant).toMatchObject({ workspace_id: 'ws_example', tool_id: 'compozy__session_spawn', scope: 'agent', agent_name: 'general', decision: 'allow', origin: 'management' })
    const spawn = await post('/api/tools/compozy__session_spawn/invoke', { input: { agent_name: 'general', ttl_seconds: 60 }, scope: EXAMPLE_SCOPE })
    expect(spawn.status).toBe(200)

    const listed = await get('/api/tool-approval-grants?workspace_id=ws_example&tool_id=compozy__session_spawn')
    expect(listed.body.grants.map((grant: { grant_id: string }) => grant.grant_id)).toEqual([set.body.grant.grant_id])
    const revoked = await fetchJson(served.origin, 'DELETE', `/api/tool-approval-grants/${set.body.grant.grant_id}?workspace_id=ws_example`)
    expect(revoked.status).toBe(200)
    expect(revoked.body).toEqual({ revoked: true, grant_id: set.body.grant.grant_id })
    const again = await fetchJson(served.origin, 'DELETE', `/api/tool-approval-grants/${set.body.grant.grant_id}?workspace_id=ws_example`)
    expect(again.status).toBe(404)
    expect(again.body.error).toEqual({ code: 'approval_not_found', reason: 'unknown_grant', message: 'invalid tool request' })
    expect((await get('/api/tool-approval-grants?workspace_id=ws_example&tool_id=compozy__session_spawn')).body).toEqual({ grants: [] })
  })

  it('requires agent_name for agent scope, forbids it for tool scope, and refuses an input digest or a missing workspace', async () => {
    const put = (body: unknown) => fetchJson(served.origin, 'PUT', '/api/tool-approval-grants', body)
    const base = { workspace_id: 'ws_example', tool_id: 'compozy__session_create', decision: 'reject' }
    expect((await put({ ...base, scope: 'agent' })).body.error).toEqual({ code: 'approval_request_invalid', reason: 'agent_name_required', message: 'invalid tool request' })
    expect((await put({ ...base, scope: 'tool', agent_name: 'general' })).body.error.reason).toBe('agent_name_forbidden')
    // http-grant-input-digest-reason: the same reason setGrant gives in process, not field_invalid.
    expect((await put({ ...base, scope: 'tool', input_digest: `sha256:${'0'.repeat(64)}` })).body.error).toEqual({ code: 'approval_request_invalid', reason: 'input_digest_forbidden', message: 'invalid tool request' })
    expect((await put({ tool_id: 'compozy__session_create', decision: 'reject', scope: 'tool' })).status).toBe(400)
    expect((await get('/api/tool-approval-grants')).body.error).toEqual({ code: 'approval_request_invalid', reason: 'field_invalid', message: 'invalid tool request' })
  })

  it('answers 404 tool_not_found for a tool the catalog does not have, and stores nothing (regression: a grant that could never match)', async () => {
    const put = await fetchJson(served.origin, 'PUT', '/api/tool-approval-grants', { workspace_id: 'ws_unknown_tool', tool_id: 'compozy__session_spwan', decision: 'reject', scope: 'tool' })
    expect(put.status).toBe(404)
    expect(put.body).toEqual({ error: { code: 'tool_not_found', reason: 'unknown_tool', message: 'invalid tool request' } })
    expect((await get('/api/tool-approval-grants?workspace_id=ws_unknown_tool')).body).toEqual({ grants: [] })
  })
})

describe('unknown routes and methods', () => {
  it('answers 404 unknown_route outside the routes, for an empty segment and a trailing slash', async () => {
    for (const path of ['/', '/api', '/api/sessions/sess-example', '/api//tools', '/api/tools/', '/other/tools']) {
      const answer = await get(path)
      expect(answer.status, path).toBe(404)
      expect(answer.body).toEqual({ error: { code: 'http_request_invalid', reason: 'unknown_route', message: 'invalid tool request' } })
    }
  })

  it('answers 405 with Allow for a method the path does not take', async () => {
    const cases = [
      ['DELETE', '/api/tools', 'GET'],
      ['GET', '/api/tools/compozy__session_status/invoke', 'POST'],
      ['PUT', '/api/tools/approvals/a1/resolve', 'POST'],
      ['POST', '/api/tool-approval-grants', 'GET, PUT'],
      ['OPTIONS', '/api/tools/search', 'GET'],
    ] as const
    for (const [method, path, allow] of cases) {
      const answer = await fetchJson(served.origin, method, path)
      expect(answer.status, `${method} ${path}`).toBe(405)
      expect(answer.headers.get('allow')).toBe(allow)
      expect(answer.body.error).toEqual({ code: 'http_request_invalid', reason: 'method_not_allowed', message: 'invalid tool request' })
    }
  })

  it('routes POST /api/tools/approvals/invoke to the tool "approvals" (method first, then literal segments)', async () => {
    const answer = await post('/api/tools/approvals/invoke', { input: {} })
    expect(answer.body.error).toEqual({ code: 'tool_not_found', reason: 'unknown_tool', message: 'invalid tool request' })
  })

  it('answers 400 path_invalid for a segment that is not valid percent-encoding', async () => {
    const answer = await get('/api/tools/%E0%A4%A')
    expect(answer.status).toBe(400)
    expect(answer.body.error.reason).toBe('path_invalid')
  })
})

describe('a failing approval store', () => {
  it('answers 503 approval_unavailable, for an invocation that needs it and for the grant routes', async () => {
    const stores = createMemoryApprovalStores()
    const failing = {
      ...stores,
      pending: { ...stores.pending, insert: () => Promise.reject(new Error('disk full')) },
      grants: { ...stores.grants, list: () => Promise.reject(new Error('disk full')) },
    }
    const broken = await serve(createHttpHandler(exampleDispatcher({ approvals: failing, policy: createPatternPolicy({ owner: 'agent:all', tools: ['*'], approval: 'non_read_only' }) })))
    try {
      const invoked = await fetchJson(broken.origin, 'POST', '/api/tools/compozy__session_create/invoke', { input: { agent_name: 'general', name: 'x' }, scope: EXAMPLE_SCOPE })
      expect(invoked.status).toBe(503)
      expect(invoked.body).toEqual({ error: { code: 'approval_unavailable', reason: 'store_failed', message: 'tool invocation failed' } })
      const listed = await fetchJson(broken.origin, 'GET', '/api/tool-approval-grants?workspace_id=ws_example')
      expect(listed.status).toBe(503)
      expect(listed.body.error.code).toBe('approval_unavailable')
    } finally {
      await broken.close()
    }
  })
})

describe('denials and failures from hooks and tools', () => {
  it('answers a hook denial with 403 and a failing hook with 500, each message redacted', async () => {
    const hooked = exampleDispatcher()
    hooked.hook('tool.pre_call', (payload) => {
      const input = payload.tool_input as { session_id?: string }
      if (input.session_id === 'deny-me') return { deny: true, deny_reason: 'secret reason' }
      if (input.session_id === 'break-me') throw new Error('hook broke on secret input')
      return undefined
    })
    const broken = await serve(createHttpHandler(hooked))
    try {
      const call = (session_id: string) => fetchJson(broken.origin, 'POST', '/api/tools/compozy__session_status/invoke', { input: { session_id } })
      const denied = await call('deny-me')
      expect(denied.status).toBe(403)
      expect(denied.body).toEqual({ error: { code: 'tool_denied', reason: 'hook_denied', message: 'tool invocation denied' } })
      const failed = await call('break-me')
      expect(failed.status).toBe(500)
      expect(failed.body).toEqual({ error: { code: 'tool_hook_failed', reason: 'hook_threw', message: 'tool invocation failed' } })
    } finally {
      await broken.close()
    }
  })
})
