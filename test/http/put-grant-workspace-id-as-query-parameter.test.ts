// `PUT /api/tool-approval-grants` as spec 001 writes it: the body `{tool_id, decision, scope,
// agent_name?}` "with workspace_id", which GET and DELETE take as a query parameter. It was refused
// (no workspace_id in the body → 400 field_invalid; `?workspace_id=` → 400 query_invalid). The
// query parameter is accepted, the body's copy stays accepted, and two that differ are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpHandler } from 'result-views/http'
import { exampleHttpDispatcher } from '../../examples/http-server.js'
import { fetchJson, serve, type Served } from './support.js'

const dispatcher = exampleHttpDispatcher()
let served: Served
beforeAll(async () => {
  served = await serve(createHttpHandler(dispatcher))
})
afterAll(() => served.close())

const SPEC_BODY = { tool_id: 'compozy__session_create', decision: 'reject', scope: 'tool' }
const put = (query: string, body: unknown) => fetchJson(served.origin, 'PUT', `/api/tool-approval-grants${query}`, body)

describe('PUT /api/tool-approval-grants takes workspace_id as a query parameter', () => {
  it('sets the grant of the spec body with ?workspace_id=, in that workspace', async () => {
    const set = await put('?workspace_id=ws_query', SPEC_BODY)
    expect(set.status).toBe(200)
    expect(set.body.grant).toMatchObject({ workspace_id: 'ws_query', ...SPEC_BODY, origin: 'management' })
    const listed = await dispatcher.approvals.listGrants({ workspace_id: 'ws_query' })
    expect(listed.map((grant) => grant.grant_id)).toEqual([set.body.grant.grant_id])
  })

  it('still takes workspace_id in the body, and both when they agree', async () => {
    expect((await put('', { ...SPEC_BODY, workspace_id: 'ws_body' })).body.grant.workspace_id).toBe('ws_body')
    expect((await put('?workspace_id=ws_both', { ...SPEC_BODY, workspace_id: 'ws_both' })).body.grant.workspace_id).toBe('ws_both')
  })

  it('refuses a query workspace_id and a body workspace_id that differ (400), and stores nothing', async () => {
    const answer = await put('?workspace_id=ws_a', { ...SPEC_BODY, workspace_id: 'ws_b' })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({ error: { code: 'http_request_invalid', reason: 'query_invalid', message: 'invalid tool request' } })
    for (const workspace_id of ['ws_a', 'ws_b']) expect(await dispatcher.approvals.listGrants({ workspace_id })).toEqual([])
  })

  it('still refuses a PUT with no workspace anywhere (400 field_invalid)', async () => {
    const answer = await put('', SPEC_BODY)
    expect(answer.status).toBe(400)
    expect(answer.body.error).toMatchObject({ code: 'approval_request_invalid', reason: 'field_invalid' })
  })
})
