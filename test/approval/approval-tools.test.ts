// defineApprovalTools: the spec's management tools of remembered decisions, through invoke, through
// MCP and through result-views/http.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  createDispatcher,
  createMemoryApprovalStores,
  defineApprovalTools,
  describeTool,
  type ApprovalGrant,
  type ApprovalToolsOptions,
  type CallScope,
  type Dispatcher,
} from 'result-views'
import { createFetchHandler } from 'result-views/http'
import { createMcpServer } from 'result-views/mcp'
import { SCOPE, approvalIdOf, codeOf, definitionError, deployTool, errorOf, writeTool } from './fixtures.js'

const SET = 'compozy__tool_approvals_set'
const LIST = 'compozy__tool_approvals_list'
const REVOKE = 'compozy__tool_approvals_revoke'

/** A dispatcher whose catalog holds the deploy tool and the three management tools, wired late as the docs show. */
function setup(options: Partial<ApprovalToolsOptions> = {}) {
  const calls: unknown[] = []
  const stores = createMemoryApprovalStores()
  let dispatcher: Dispatcher | undefined
  const tools = defineApprovalTools({ approvals: () => dispatcher!.approvals, ...options })
  dispatcher = createDispatcher({ tools: [deployTool(calls), writeTool(), ...tools], approvals: stores })
  const call = (tool_id: string, input: unknown, scope: CallScope = SCOPE) => dispatcher!.invoke({ tool_id, input, scope })
  return { dispatcher, tools, stores, calls, call }
}

/** The structured record of an ok outcome. */
function recordOf(outcome: Awaited<ReturnType<Dispatcher['invoke']>>): any {
  expect(outcome.status, JSON.stringify(outcome)).toBe('ok')
  return (outcome as { result: { structured: unknown } }).result.structured
}

describe('defineApprovalTools', () => {
  it('returns the spec three tools, set, list and revoke, as single-result tools with their risk and approval facts', () => {
    const { tools } = setup()
    expect(tools.map((tool) => tool.id)).toEqual([SET, LIST, REVOKE])
    expect(tools.map((tool) => [tool.kind, tool.risk, tool.readOnly, tool.approval])).toEqual([
      ['single', 'destructive', false, 'required'],
      ['single', 'read', true, 'none'],
      ['single', 'destructive', false, 'required'],
    ])
    expect(Object.isFrozen(tools)).toBe(true)
    const [set, list, revoke] = tools.map((tool) => describeTool(tool).input_schema)
    expect(set).toMatchObject({ type: 'object', required: ['tool_id', 'decision', 'scope'], additionalProperties: false })
    expect(Object.keys(set!.properties as object)).toEqual(['tool_id', 'decision', 'scope', 'agent_name'])
    expect(Object.keys(list!.properties as object)).toEqual(['tool_id'])
    expect(Object.keys(revoke!.properties as object)).toEqual(['grant_id'])
    // Neither a workspace nor an input digest is an input: the workspace is the call's own.
    for (const schema of [set, list, revoke]) expect(JSON.stringify(schema)).not.toMatch(/workspace_id|input_digest/)
  })

  it('uses the given prefix, the empty one included, and toolsets', () => {
    const approvals = createDispatcher({ tools: [] }).approvals
    expect(defineApprovalTools({ approvals, prefix: 'acme.' }).map((tool) => tool.id)).toEqual(['acme.tool_approvals_set', 'acme.tool_approvals_list', 'acme.tool_approvals_revoke'])
    expect(defineApprovalTools({ approvals, prefix: '' }).map((tool) => tool.id)).toEqual(['tool_approvals_set', 'tool_approvals_list', 'tool_approvals_revoke'])
    expect(defineApprovalTools({ approvals, toolsets: ['admin'] }).map((tool) => tool.toolsets)).toEqual([['admin'], ['admin'], ['admin']])
  })

  it('sets a grant only after the set call itself is approved, by default', async () => {
    const { dispatcher, call } = setup()
    const approval_id = approvalIdOf(await call(SET, { tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' }))
    expect(await dispatcher.approvals.listGrants({ workspace_id: SCOPE.workspace_id })).toEqual([])
    const view = await dispatcher.approvals.resolve(approval_id, { decision: 'approved', profile_id: SCOPE.profile_id })
    expect(view.execution_status).toBe('completed')
    const grants = await dispatcher.approvals.listGrants({ workspace_id: SCOPE.workspace_id })
    expect(grants).toEqual([expect.objectContaining({ workspace_id: SCOPE.workspace_id, tool_id: 'ops__deploy', scope: 'tool', decision: 'allow', origin: 'management' })])
    expect(view.outcome).toMatchObject({ status: 'ok', result: { structured: { grant: grants[0] } } })
  })

  it('sets, lists and revokes grants in the call workspace, and the grant decides the next call', async () => {
    const { dispatcher, call, calls } = setup({ setApproval: 'none', revokeApproval: 'none' })
    expect((await call('ops__deploy', { target: 'prod' })).status).toBe('approval_pending')

    const { grant } = recordOf(await call(SET, { tool_id: 'ops__deploy', decision: 'allow', scope: 'agent', agent_name: SCOPE.agent_name }))
    expect(grant).toEqual({ grant_id: expect.any(String), workspace_id: SCOPE.workspace_id, tool_id: 'ops__deploy', scope: 'agent', agent_name: SCOPE.agent_name, decision: 'allow', origin: 'management', created_at: expect.any(String) })
    expect(recordOf(await call('ops__deploy', { target: 'prod' }))).toEqual({ target: 'prod' })
    expect(calls).toEqual([{ target: 'prod' }])

    const other = await dispatcher.approvals.setGrant({ workspace_id: 'ws-other', tool_id: 'ops__deploy', decision: 'reject', scope: 'tool' })
    const rejected = recordOf(await call(SET, { tool_id: 'notes__write', decision: 'reject', scope: 'tool' })).grant as ApprovalGrant
    const listed = recordOf(await call(LIST, {})).grants as ApprovalGrant[]
    expect(listed.map((g) => g.grant_id).sort()).toEqual([grant.grant_id, rejected.grant_id].sort())
    expect(recordOf(await call(LIST, { tool_id: 'notes__write' }))).toEqual({ grants: [rejected] })

    const outcome = await call(REVOKE, { grant_id: grant.grant_id })
    expect(recordOf(outcome)).toEqual({ revoked: true, grant_id: grant.grant_id })
    expect((outcome as { result: { preview: string } }).result.preview).toBe(`revoked ${grant.grant_id}`)
    expect((await call('ops__deploy', { target: 'prod' })).status).toBe('approval_pending')
    expect(await dispatcher.approvals.listGrants({ workspace_id: 'ws-other' })).toEqual([other])
  })

  it('never revokes a grant of another workspace: approval_not_found / unknown_grant, and the grant stays', async () => {
    const { dispatcher, call } = setup({ revokeApproval: 'none' })
    const other = await dispatcher.approvals.setGrant({ workspace_id: 'ws-other', tool_id: 'ops__deploy', decision: 'reject', scope: 'tool' })
    const error = errorOf(await call(REVOKE, { grant_id: other.grant_id }))
    expect([error.code, error.reason]).toEqual(['approval_not_found', 'unknown_grant'])
    expect(error.message).toBe(`the workspace holds no grant ${JSON.stringify(other.grant_id)}`)
    expect(await dispatcher.approvals.listGrants({ workspace_id: 'ws-other' })).toEqual([other])
    const long = errorOf(await call(REVOKE, { grant_id: 'g'.repeat(5000) }))
    expect(long.message.length).toBeLessThan(200)
  })

  it('follows setGrant rules: agent scope needs agent_name, tool scope forbids it', async () => {
    const { call, dispatcher } = setup({ setApproval: 'none', revokeApproval: 'none' })
    expect(codeOf(await call(SET, { tool_id: 'ops__deploy', decision: 'allow', scope: 'agent' }))).toEqual(['approval_request_invalid', 'agent_name_required'])
    expect(codeOf(await call(SET, { tool_id: 'ops__deploy', decision: 'allow', scope: 'tool', agent_name: 'reviewer' }))).toEqual(['approval_request_invalid', 'agent_name_forbidden'])
    expect(await dispatcher.approvals.listGrants({ workspace_id: SCOPE.workspace_id })).toEqual([])
  })

  it('refuses an input digest, an exact scope and a workspace in the input as input errors', async () => {
    const { call, dispatcher } = setup({ setApproval: 'none', revokeApproval: 'none' })
    const base = { tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' }
    for (const input of [
      { ...base, input_digest: `sha256:${'0'.repeat(64)}` },
      { ...base, scope: 'exact' },
      { ...base, workspace_id: 'ws-other' },
      { ...base, decision: 'allow_always' },
      { ...base, agent_name: '' },
    ]) {
      expect(codeOf(await call(SET, input)), JSON.stringify(input)).toEqual(['tool_invalid_input', 'schema_invalid'])
    }
    expect(codeOf(await call(LIST, { workspace_id: 'ws-other' }))).toEqual(['tool_invalid_input', 'schema_invalid'])
    expect(codeOf(await call(REVOKE, { grant_id: 'g', workspace_id: 'ws-other' }))).toEqual(['tool_invalid_input', 'schema_invalid'])
    expect(await dispatcher.approvals.listGrants({ workspace_id: SCOPE.workspace_id })).toEqual([])
    expect(await dispatcher.approvals.listGrants({ workspace_id: 'ws-other' })).toEqual([])
  })

  it('fails a call without a workspace with approval_request_invalid / workspace_required', async () => {
    const { call } = setup({ setApproval: 'none', revokeApproval: 'none' })
    const unscoped = { session_id: 'sess-1', agent_name: 'reviewer', profile_id: 'prof-owner' }
    for (const [tool, input] of [
      [SET, { tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' }],
      [LIST, {}],
      [REVOKE, { grant_id: 'g-1' }],
    ] as const) {
      const error = errorOf(await call(tool, input, unscoped))
      expect([error.code, error.reason]).toEqual(['approval_request_invalid', 'workspace_required'])
      expect(error.message).toContain('scope.workspace_id')
    }
  })

  it('fails closed with tool_execution_failed when the approvals function throws or returns no grants API', async () => {
    const boom = new Error('not wired yet')
    for (const approvals of [() => { throw boom }, () => undefined, () => ({ setGrant: () => 1 })]) {
      const tools = defineApprovalTools({ approvals: approvals as never, setApproval: 'none', revokeApproval: 'none' })
      const dispatcher = createDispatcher({ tools: [...tools] })
      for (const [tool, input] of [
        [SET, { tool_id: 'x', decision: 'reject', scope: 'tool' }],
        [LIST, {}],
        [REVOKE, { grant_id: 'g-1' }],
      ] as const) {
        const error = errorOf(await dispatcher.invoke({ tool_id: tool, input, scope: SCOPE }))
        expect([error.code, error.reason]).toEqual(['tool_execution_failed', 'handler_failed'])
        expect(error.message).toContain('approvals: () => dispatcher.approvals')
      }
    }
  })

  it('reports a failing store through the management API as approval_unavailable', async () => {
    const stores = createMemoryApprovalStores()
    const grants = { ...stores.grants, list: () => Promise.reject(new Error('disk gone')), put: () => Promise.reject(new Error('disk gone')) }
    let dispatcher: Dispatcher | undefined
    const tools = defineApprovalTools({ approvals: () => dispatcher!.approvals, setApproval: 'none', revokeApproval: 'none' })
    dispatcher = createDispatcher({ tools: [deployTool(), ...tools], approvals: { ...stores, grants } })
    expect(codeOf(await dispatcher.invoke({ tool_id: LIST, input: {}, scope: SCOPE }))).toEqual(['approval_unavailable', 'store_failed'])
    expect(codeOf(await dispatcher.invoke({ tool_id: SET, input: { tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' }, scope: SCOPE }))).toEqual(['approval_unavailable', 'store_failed'])
  })

  it('writes only to the call workspace, whatever the input (property)', async () => {
    const { dispatcher, call } = setup({ setApproval: 'none', revokeApproval: 'none' })
    const workspaces = fc.constantFrom('ws-1', 'ws-2', '__proto__', 'ws-\u{1f600}')
    // Mostly well-formed requests (so most calls store a grant), each field sometimes wrong or extra.
    const sometimes = <T,>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb })
    const input = fc
      .record({
        tool_id: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('ops__deploy', 'notes__write') }, fc.string({ minLength: 1 }), fc.constant('')),
        decision: fc.constantFrom('allow', 'reject', 'allow', 'reject', 'maybe'),
        scope: fc.constantFrom('agent', 'tool', 'agent', 'tool', 'exact'),
        agent_name: fc.option(fc.string({ minLength: 1 }), { freq: 2, nil: undefined }),
        workspace_id: sometimes(fc.string()),
        input_digest: sometimes(fc.constant(`sha256:${'a'.repeat(64)}`)),
      })
      .map((request) => Object.fromEntries(Object.entries(request).filter(([, value]) => value !== undefined)))
    let stored = 0
    await fc.assert(
      fc.asyncProperty(workspaces, input, async (workspace_id, request) => {
        const outcome = await call(SET, request, { ...SCOPE, workspace_id })
        if (outcome.status === 'ok') {
          stored++
          const { grant } = outcome.result.structured as { grant: ApprovalGrant }
          expect(grant.workspace_id).toBe(workspace_id)
          expect(grant).not.toHaveProperty('input_digest')
          expect(grant.scope === 'agent').toBe(grant.agent_name !== undefined)
          expect(await dispatcher.approvals.listGrants({ workspace_id })).toContainEqual(grant)
        } else {
          expect(outcome.status).toBe('error')
          // tool_not_found: setGrant refuses a tool the catalog does not hold.
          expect(['tool_invalid_input', 'approval_request_invalid', 'tool_not_found']).toContain(errorOf(outcome).code)
        }
      }),
      { numRuns: 200 },
    )
    // About 15% of the draws store a grant (27–35 of 200 in six runs): 10 stays clear of chance.
    expect(stored).toBeGreaterThan(10)
    for (const workspace_id of ['ws-1', 'ws-2', '__proto__', 'ws-\u{1f600}']) {
      for (const grant of await dispatcher.approvals.listGrants({ workspace_id })) expect(grant.workspace_id).toBe(workspace_id)
    }
  })

  it('throws a ToolDefinitionError listing every bad option', () => {
    expect(definitionError(undefined).problems).toEqual([{ path: '', code: 'invalid_option', message: expect.any(String) }])
    const error = definitionError({ approvals: {}, prefix: '-x', setApproval: 'always', revokeApproval: true })
    expect(error.code).toBe('tool_definition_invalid')
    expect(error.problems.map((p) => [p.path, p.code])).toEqual([
      ['/approvals', 'invalid_approvals'],
      ['/prefix', 'invalid_prefix'],
      ['/setApproval', 'invalid_approval'],
      ['/revokeApproval', 'invalid_approval'],
    ])
    const approvals = createDispatcher({ tools: [] }).approvals
    for (const prefix of ['a'.repeat(108), 'a b', 'é', 7]) expect(definitionError({ approvals, prefix }).problems.map((p) => p.path)).toEqual(['/prefix'])
    expect(definitionError({ approvals, toolsets: 'admin' }).problems.map((p) => p.path)).toContain('/toolsets')
  })

  it('throws a ToolDefinitionError for options a getter or Proxy cannot read', () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('trap') } })
    // Each option is read once by the options reader: every one the trap refuses is named.
    expect(definitionError(hostile).problems).toEqual(
      ['approvals', 'prefix', 'setApproval', 'revokeApproval', 'toolsets'].map((key) => ({ path: `/${key}`, code: 'unreadable_option', message: `${key} could not be read (a getter or a Proxy threw)` })).concat([
        { path: '/approvals', code: 'invalid_approvals', message: expect.any(String) },
      ]),
    )
    const api = new Proxy({}, { get: () => { throw new Error('api trap') } })
    expect(definitionError({ approvals: api }).problems).toEqual([{ path: '', code: 'unreadable_definition', message: expect.stringContaining('api trap') }])
  })
})

describe('defineApprovalTools over MCP', () => {
  it('lists the three tools and sets, lists and revokes in the scope the server binds', async () => {
    const { dispatcher } = setup({ setApproval: 'none', revokeApproval: 'none' })
    const server = createMcpServer(dispatcher, { name: 'approvals', version: '1.0.0', scope: SCOPE })
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
    await server.connect(serverTransport)
    const client = new Client({ name: 'test-client', version: '1.0.0' })
    await client.connect(clientTransport)
    try {
      const { tools } = await client.listTools()
      expect(tools.map((tool) => tool.name)).toEqual(['ops__deploy', 'notes__write', SET, LIST, REVOKE])
      const set = await client.callTool({ name: SET, arguments: { tool_id: 'ops__deploy', decision: 'reject', scope: 'tool' } })
      expect(set.isError).not.toBe(true)
      const grant = (set.structuredContent as { grant: ApprovalGrant }).grant
      expect(grant).toMatchObject({ workspace_id: SCOPE.workspace_id, tool_id: 'ops__deploy', decision: 'reject', scope: 'tool' })
      expect((await client.callTool({ name: LIST, arguments: {} })).structuredContent).toEqual({ grants: [grant] })
      expect((await client.callTool({ name: REVOKE, arguments: { grant_id: grant.grant_id } })).structuredContent).toEqual({ revoked: true, grant_id: grant.grant_id })
      const again = await client.callTool({ name: REVOKE, arguments: { grant_id: grant.grant_id } })
      expect(again.isError).toBe(true)
      expect(JSON.stringify(again.content)).toContain('approval_not_found')
      expect(await dispatcher.approvals.listGrants({ workspace_id: SCOPE.workspace_id })).toEqual([])
    } finally {
      await client.close()
      await server.close()
    }
  })
})

describe('defineApprovalTools over result-views/http', () => {
  const post = (path: string, body: unknown) => new Request(`http://127.0.0.1/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const local = { remoteAddress: '127.0.0.1' }

  it('invokes the tools with the workspace of the request scope; the set call waits on an approval a local peer resolves', async () => {
    const { dispatcher } = setup({ revokeApproval: 'none' })
    const handle = createFetchHandler(dispatcher)
    const pending = await handle(post(`/tools/${SET}/invoke`, { input: { tool_id: 'ops__deploy', decision: 'allow', scope: 'agent', agent_name: 'reviewer' }, scope: SCOPE }), { remoteAddress: '203.0.113.7' })
    expect(pending.status).toBe(202)
    const { approval_id } = (await pending.json()) as { approval_id: string }
    const resolved = await handle(post(`/tools/approvals/${approval_id}/resolve?profile=${SCOPE.profile_id}`, { decision: 'approved' }), local)
    expect(resolved.status).toBe(200)

    const listed = await handle(post(`/tools/${LIST}/invoke`, { input: {}, scope: SCOPE }), local)
    expect(listed.status).toBe(200)
    const { grants } = ((await listed.json()) as { result: { structured: { grants: ApprovalGrant[] } } }).result.structured
    expect(grants).toEqual([expect.objectContaining({ workspace_id: SCOPE.workspace_id, scope: 'agent', agent_name: 'reviewer', decision: 'allow' })])
    const viaRoute = await handle(new Request(`http://127.0.0.1/api/tool-approval-grants?workspace_id=${SCOPE.workspace_id}`), local)
    expect(((await viaRoute.json()) as { grants: unknown }).grants).toEqual(grants)

    const revoked = await handle(post(`/tools/${REVOKE}/invoke`, { input: { grant_id: grants[0]!.grant_id }, scope: SCOPE }), local)
    expect(((await revoked.json()) as { result: { structured: unknown } }).result.structured).toEqual({ revoked: true, grant_id: grants[0]!.grant_id })
    const missing = await handle(post(`/tools/${REVOKE}/invoke`, { input: { grant_id: grants[0]!.grant_id }, scope: SCOPE }), local)
    expect(missing.status).toBe(404)
    expect(((await missing.json()) as { error: { code: string; reason: string } }).error).toMatchObject({ code: 'approval_not_found', reason: 'unknown_grant' })
  })

  it('answers 400 approval_request_invalid for a call without a workspace and for a missing agent_name', async () => {
    const { dispatcher } = setup({ setApproval: 'none', revokeApproval: 'none' })
    const handle = createFetchHandler(dispatcher)
    const unscoped = await handle(post(`/tools/${LIST}/invoke`, { input: {}, scope: { profile_id: 'p' } }), local)
    expect(unscoped.status).toBe(400)
    expect(((await unscoped.json()) as { error: { code: string; reason: string } }).error).toMatchObject({ code: 'approval_request_invalid', reason: 'workspace_required' })
    const agentless = await handle(post(`/tools/${SET}/invoke`, { input: { tool_id: 'x', decision: 'allow', scope: 'agent' }, scope: SCOPE }), local)
    expect(agentless.status).toBe(400)
    expect(((await agentless.json()) as { error: { code: string; reason: string } }).error).toMatchObject({ code: 'approval_request_invalid', reason: 'agent_name_required' })
  })
})
