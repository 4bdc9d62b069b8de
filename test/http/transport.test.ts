// The same routes over a Unix socket, and the loopback rule of approval decisions: a peer whose
// address is not loopback is refused. No traffic goes anywhere but loopback and the socket: the
// non-loopback peers are request objects whose socket reports another address.
import type { IncomingMessage, RequestListener } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpHandler } from 'result-views/http'
import { EXAMPLE_SCOPE, exampleHttpDispatcher } from '../../examples/http-server.js'
import { fetchJson, serve, unixJson, type Served } from './support.js'

const CREATE = '/api/tools/compozy__session_create/invoke'

describe('over a Unix socket', () => {
  const dispatcher = exampleHttpDispatcher()
  let served: Served
  beforeAll(async () => {
    served = await serve(createHttpHandler(dispatcher))
  })
  afterAll(() => served.close())

  it('lists, describes and invokes', async () => {
    const list = await unixJson(served.socket, 'GET', '/api/tools')
    expect(list.status).toBe(200)
    expect(list.body.tools).toHaveLength(8)
    const info = await unixJson(served.socket, 'GET', '/api/tools/compozy__session_status?workspace_id=ws_example')
    expect(info.body.tool.diagnostics.status).toBe('callable')
    const invoked = await unixJson(served.socket, 'POST', '/api/tools/compozy__session_status/invoke', { input: { session_id: 'sess-example', result_view: 'full' } })
    expect(invoked.status).toBe(200)
    expect(invoked.body.result_view).toBe('full')
  })

  it('counts as local: a pending approval is resolved and grants are set and revoked over it', async () => {
    const pending = await unixJson(served.socket, 'POST', CREATE, { input: { agent_name: 'general', name: 'Over UDS' }, scope: EXAMPLE_SCOPE })
    expect(pending.status).toBe(202)
    const resolved = await unixJson(served.socket, 'POST', `/api/tools/approvals/${pending.body.approval_id}/resolve?profile=prof_default`, { decision: 'approved' })
    expect(resolved.status).toBe(200)
    expect(resolved.body.approval.execution_status).toBe('completed')
    const set = await unixJson(served.socket, 'PUT', '/api/tool-approval-grants', { workspace_id: 'ws_example', tool_id: 'compozy__session_create', decision: 'reject', scope: 'tool' })
    expect(set.status).toBe(200)
    const revoked = await unixJson(served.socket, 'DELETE', `/api/tool-approval-grants/${set.body.grant.grant_id}?workspace_id=ws_example`)
    expect(revoked.body).toEqual({ revoked: true, grant_id: set.body.grant.grant_id })
  })
})

/** The handler behind a listener whose requests' sockets report `address` as the peer. */
function reportingPeer(handler: RequestListener, address: string | undefined): RequestListener {
  return (request: IncomingMessage, response) => {
    Object.defineProperty(request.socket, 'remoteAddress', { value: address, configurable: true })
    handler(request, response)
  }
}

describe('approval decisions need a loopback peer', () => {
  const dispatcher = exampleHttpDispatcher()
  const handler = createHttpHandler(dispatcher)
  const servers: Served[] = []
  afterAll(() => Promise.all(servers.map((server) => server.close())))
  async function peer(address: string | undefined): Promise<Served> {
    const served = await serve(reportingPeer(handler, address))
    servers.push(served)
    return served
  }
  async function openApproval(origin: string): Promise<string> {
    const answer = await fetchJson(origin, 'POST', CREATE, { input: { agent_name: 'general', name: 'Remote' }, scope: EXAMPLE_SCOPE })
    expect(answer.status).toBe(202)
    return answer.body.approval_id
  }

  it('refuses resolve, cancel and grant changes from a non-loopback peer with 403 tool_denied / loopback_required', async () => {
    for (const address of ['203.0.113.7', '::ffff:10.0.0.1', '2001:db8::1', '128.0.0.1', undefined]) {
      const remote = await peer(address)
      const id = await openApproval(remote.origin)
      const refused = { error: { code: 'tool_denied', reason: 'loopback_required', message: 'tool invocation denied' } }
      const attempts = [
        await fetchJson(remote.origin, 'POST', `/api/tools/approvals/${id}/resolve?profile=prof_default`, { decision: 'approved' }),
        await fetchJson(remote.origin, 'POST', `/api/tools/approvals/${id}/cancel?profile=prof_default`),
        await fetchJson(remote.origin, 'PUT', '/api/tool-approval-grants', { workspace_id: 'ws_example', tool_id: 'compozy__session_create', decision: 'allow', scope: 'tool' }),
        await fetchJson(remote.origin, 'DELETE', '/api/tool-approval-grants/g1?workspace_id=ws_example'),
      ]
      for (const attempt of attempts) {
        expect(attempt.status, String(address)).toBe(403)
        expect(attempt.body).toEqual(refused)
      }
      // Reads stay open, and nothing was decided.
      const shown = await fetchJson(remote.origin, 'GET', `/api/tools/approvals/${id}?profile=prof_default`)
      expect(shown.body.approval.status).toBe('pending')
      expect((await fetchJson(remote.origin, 'GET', '/api/tool-approval-grants?workspace_id=ws_example')).body).toEqual({ grants: [] })
    }
  })

  it('accepts decisions from every loopback spelling: 127.0.0.0/8, ::1, IPv4-mapped', async () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1']) {
      const local = await peer(address)
      const id = await openApproval(local.origin)
      const resolved = await fetchJson(local.origin, 'POST', `/api/tools/approvals/${id}/resolve?profile=prof_default`, { decision: 'denied' })
      expect(resolved.status, address).toBe(200)
      expect(resolved.body.approval.status).toBe('denied')
    }
  })
})
