// The authenticate option: a host maps each request to the caller's scope and profile, or refuses
// it (401); the fields it fixes cannot be overridden by the request; a broken callback fails closed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HttpAuthRequest } from 'result-views/http'
import { createHttpHandler } from 'result-views/http'
import { EXAMPLE_SCOPE, exampleHttpDispatcher } from '../../examples/http-server.js'
import { fetchJson, recordingLogger, serve, type Served } from './support.js'

const TOKENS: Record<string, object> = {
  'Bearer owner': { profile_id: 'prof_default', workspace_id: 'ws_example' },
  'Bearer anyone': {},
}

describe('authenticate', () => {
  const seen: HttpAuthRequest[] = []
  const { logger, lines } = recordingLogger()
  let served: Served
  let answer: (request: HttpAuthRequest) => unknown = (request) => TOKENS[request.headers.get('authorization') ?? ''] ?? null
  beforeAll(async () => {
    const handler = createHttpHandler(exampleHttpDispatcher(), {
      authenticate: (request) => {
        seen.push(request)
        return answer(request) as never
      },
      authenticateTimeoutMs: 100,
      challenge: 'Bearer realm="tools"',
      logger,
    })
    served = await serve(handler)
  })
  afterAll(() => served.close())
  const as = (token: string | undefined, method: string, path: string, body?: unknown) =>
    fetchJson(served.origin, method, path, body, token === undefined ? {} : { authorization: token })

  it('refuses a request it does not accept with 401 and the challenge, before routing', async () => {
    for (const path of ['/api/tools', '/api/no-such-route']) {
      const refused = await as(undefined, 'GET', path)
      expect(refused.status).toBe(401)
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="tools"')
      expect(refused.body).toEqual({ error: { code: 'http_unauthenticated', reason: 'authentication_refused', message: 'tool invocation denied' } })
    }
    expect((await as('Bearer anyone', 'GET', '/api/tools')).status).toBe(200)
  })

  it('sees the method, target, headers and peer of the request', async () => {
    await as('Bearer anyone', 'GET', '/api/tools?workspace_id=ws-1')
    const last = seen.at(-1)!
    expect(last.method).toBe('GET')
    expect(last.url).toBe('/api/tools?workspace_id=ws-1')
    expect(last.headers.get('authorization')).toBe('Bearer anyone')
    expect(last.remoteAddress).toBe('127.0.0.1')
    expect(last.local).toBe(true)
  })

  it('fixes the scope it returns: a request naming the same values passes, another value is 403 scope_forbidden', async () => {
    const invoke = (scope: object) => as('Bearer owner', 'POST', '/api/tools/compozy__session_create/invoke', { input: { agent_name: 'general', name: 'Auth' }, scope })
    const pending = await invoke({ session_id: 'sess-example', agent_name: 'general' })
    expect(pending.status).toBe(202)
    expect((await invoke({ ...EXAMPLE_SCOPE })).status).toBe(202)
    const other = await invoke({ profile_id: 'prof_other' })
    expect(other.status).toBe(403)
    expect(other.body.error).toEqual({ code: 'tool_denied', reason: 'scope_forbidden', message: 'tool invocation denied' })

    // The approval's owner is the authenticated profile: no ?profile= needed, another one refused.
    const id = pending.body.approval_id
    expect((await as('Bearer owner', 'GET', `/api/tools/approvals/${id}`)).body.approval.scope.profile_id).toBe('prof_default')
    expect((await as('Bearer owner', 'GET', `/api/tools/approvals/${id}?profile=prof_other`)).body.error.reason).toBe('scope_forbidden')
    expect((await as('Bearer anyone', 'GET', `/api/tools/approvals/${id}?profile=prof_other`)).body.error.reason).toBe('profile_mismatch')

    // Grants take the authenticated workspace.
    const set = await as('Bearer owner', 'PUT', '/api/tool-approval-grants', { tool_id: 'compozy__session_create', decision: 'reject', scope: 'tool' })
    expect(set.body.grant.workspace_id).toBe('ws_example')
    expect((await as('Bearer owner', 'GET', '/api/tool-approval-grants?workspace_id=ws-other')).body.error.reason).toBe('scope_forbidden')
    expect((await as('Bearer owner', 'GET', '/api/tool-approval-grants')).body.grants).toHaveLength(1)
    expect((await as('Bearer owner', 'GET', '/api/tools/compozy__session_create?agent_name=general')).body.tool.diagnostics.scope).toEqual({
      agent_name: 'general',
      profile_id: 'prof_default',
      workspace_id: 'ws_example',
    })
  })

  it('fails closed with 500 http_handler_failed when authenticate throws, rejects, hangs or answers nonsense', async () => {
    const cases: [(request: HttpAuthRequest) => unknown, string][] = [
      [() => {
        throw new Error('db down: secret-in-message')
      }, 'authenticate_failed'],
      [() => Promise.reject(new Error('no')), 'authenticate_failed'],
      [() => new Promise(() => {}), 'authenticate_timeout'],
      [() => true, 'authenticate_failed'],
      [() => ({ profile_id: 7 }), 'authenticate_failed'],
      [() => ({ workspace: 'ws' }), 'authenticate_failed'],
      [() => new Proxy({}, { ownKeys: () => { throw new Error('trap') } }), 'authenticate_failed'],
      [() => ({ then: () => { throw new Error('thenable') } }), 'authenticate_failed'],
    ]
    try {
      for (const [callback, reason] of cases) {
        answer = callback
        const failed = await as('Bearer owner', 'GET', '/api/tools')
        expect(failed.status, reason).toBe(500)
        expect(failed.body).toEqual({ error: { code: 'http_handler_failed', reason, message: 'tool invocation failed' } })
      }
    } finally {
      answer = (request) => TOKENS[request.headers.get('authorization') ?? ''] ?? null
    }
    expect(lines.filter((line) => line.fields.event === 'http.authenticate_failed')).toHaveLength(cases.length)
    expect(JSON.stringify(lines)).not.toContain('secret-in-message')
  })
})
