import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, createPatternPolicy, inputDigest, type ApprovalPromptAnswer, type CallScope, type GrantScope } from 'result-views'
import { SCOPE, approvalIdOf, codeOf, deployTool, errorOf, rejectionOf, statusTool } from './fixtures.js'

function setup(answer?: ApprovalPromptAnswer) {
  const calls: unknown[] = []
  const stores = createMemoryApprovalStores()
  const prompt = vi.fn((): ApprovalPromptAnswer => answer ?? 'reject_once')
  const dispatcher = createDispatcher({ tools: [deployTool(calls)], approvals: { ...stores, ...(answer ? { prompt } : {}) } })
  const deploy = (input: unknown = { target: 'prod' }, scope: CallScope = SCOPE) => dispatcher.invoke({ tool_id: 'ops__deploy', input, scope })
  return { dispatcher, stores, calls, prompt, deploy }
}

describe('the grant management API (spec 001 "Remembered native-tool decisions")', () => {
  it('sets agent- and tool-scope grants and lists them per workspace', async () => {
    const { dispatcher } = setup()
    const agent = await dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'allow', scope: 'agent', agent_name: 'reviewer' })
    expect(agent).toEqual({ grant_id: expect.any(String), workspace_id: 'ws-1', tool_id: 'ops__deploy', scope: 'agent', agent_name: 'reviewer', decision: 'allow', origin: 'management', created_at: expect.any(String) })
    const tool = await dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'reject', scope: 'tool' })
    expect(tool).not.toHaveProperty('agent_name')
    await dispatcher.approvals.setGrant({ workspace_id: 'ws-2', tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' })
    expect((await dispatcher.approvals.listGrants({ workspace_id: 'ws-1' })).map((g) => g.grant_id).sort()).toEqual([agent.grant_id, tool.grant_id].sort())
    expect(await dispatcher.approvals.listGrants({ workspace_id: 'ws-1', tool_id: 'other__tool' })).toEqual([])
  })

  it('requires agent_name for agent scope and forbids it for tool scope', async () => {
    const { dispatcher } = setup()
    expect(await rejectionOf(dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'allow', scope: 'agent' }))).toEqual(['approval_request_invalid', 'agent_name_required'])
    expect(await rejectionOf(dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'allow', scope: 'agent', agent_name: '' }))).toEqual(['approval_request_invalid', 'agent_name_required'])
    expect(await rejectionOf(dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'allow', scope: 'tool', agent_name: 'reviewer' }))).toEqual(['approval_request_invalid', 'agent_name_forbidden'])
  })

  it('never accepts an input digest, so it cannot fabricate an exact prompt-origin grant', async () => {
    const { dispatcher, deploy, calls } = setup()
    const input_digest = inputDigest({ target: 'prod' })
    expect(await rejectionOf(dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'allow', scope: 'agent', agent_name: 'reviewer', input_digest } as never))).toEqual(['approval_request_invalid', 'input_digest_forbidden'])
    expect(await rejectionOf(dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'allow', scope: 'exact' as never, agent_name: 'reviewer' }))).toEqual(['approval_request_invalid', 'field_invalid'])
    expect((await deploy()).status).toBe('approval_pending')
    expect(calls).toEqual([])
  })

  it('counts a key whose value is undefined as absent, for input_digest as for agent_name', async () => {
    const { dispatcher } = setup()
    const base = { workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'allow' as const }
    const tool = await dispatcher.approvals.setGrant({ ...base, scope: 'tool', agent_name: undefined, input_digest: undefined } as never)
    expect(tool).toMatchObject({ scope: 'tool', origin: 'management' })
    expect(tool).not.toHaveProperty('input_digest')
    const agent = await dispatcher.approvals.setGrant({ ...base, scope: 'agent', agent_name: 'reviewer', input_digest: undefined } as never)
    expect(agent).toMatchObject({ scope: 'agent', agent_name: 'reviewer' })
    for (const input_digest of [null, '', inputDigest({})]) {
      expect(await rejectionOf(dispatcher.approvals.setGrant({ ...base, scope: 'tool', input_digest } as never))).toEqual(['approval_request_invalid', 'input_digest_forbidden'])
    }
    expect(await rejectionOf(dispatcher.approvals.setGrant({ ...base, scope: 'agent', agent_name: undefined }))).toEqual(['approval_request_invalid', 'agent_name_required'])
  })

  it('refuses malformed requests', async () => {
    const { dispatcher } = setup()
    const bad = [
      [dispatcher.approvals.setGrant, { workspace_id: '', tool_id: 'x', decision: 'allow', scope: 'tool' }],
      [dispatcher.approvals.setGrant, { workspace_id: 'ws-1', tool_id: 'x', decision: 'maybe', scope: 'tool' }],
      [dispatcher.approvals.setGrant, null],
      [dispatcher.approvals.listGrants, {}],
      [dispatcher.approvals.revokeGrant, { workspace_id: 'ws-1' }],
    ] as const
    for (const [method, request] of bad) expect(await rejectionOf((method as (r: unknown) => Promise<unknown>)(request))).toEqual(['approval_request_invalid', 'field_invalid'])
  })

  it('revokes a grant of its own workspace only', async () => {
    const { dispatcher, deploy } = setup()
    const grant = await dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' })
    expect((await deploy()).status).toBe('ok')
    expect(await dispatcher.approvals.revokeGrant({ workspace_id: 'ws-2', grant_id: grant.grant_id })).toBe(false)
    expect(await dispatcher.approvals.revokeGrant({ workspace_id: 'ws-1', grant_id: grant.grant_id })).toBe(true)
    expect(await dispatcher.approvals.revokeGrant({ workspace_id: 'ws-1', grant_id: grant.grant_id })).toBe(false)
    expect((await deploy()).status).toBe('approval_pending')
  })
})

describe('remembered decisions on a call that needs approval', () => {
  it('a remembered allow skips the prompt; a remembered reject blocks', async () => {
    const { dispatcher, deploy, calls, prompt } = setup('allow_once')
    await dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'allow', scope: 'agent', agent_name: 'reviewer' })
    expect((await deploy()).status).toBe('ok')
    const reject = await dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'reject', scope: 'agent', agent_name: 'reviewer' })
    const error = errorOf(await deploy())
    expect([error.code, error.reason, error.details]).toEqual(['tool_denied', 'approval_rejected', { source: 'grant', grant_id: reject.grant_id, scope: 'agent' }])
    expect(prompt).not.toHaveBeenCalled()
    expect(calls).toHaveLength(1)
  })

  it('a reject at any scope blocks the call; otherwise an allow at any scope skips the prompt', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ exact: fc.option(fc.boolean(), { nil: undefined }), agent: fc.option(fc.boolean(), { nil: undefined }), tool: fc.option(fc.boolean(), { nil: undefined }) }),
        async (grants) => {
          const { dispatcher, stores, deploy, calls } = setup()
          const put = (scope: GrantScope, allow: boolean, extra: object) =>
            stores.grants.put({ grant_id: scope, workspace_id: 'ws-1', tool_id: 'ops__deploy', scope, decision: allow ? 'allow' : 'reject', origin: scope === 'exact' ? 'prompt' : 'management', created_at: '2026-11-10T14:00:00.000Z', ...extra })
          if (grants.exact !== undefined) put('exact', grants.exact, { agent_name: 'reviewer', input_digest: inputDigest({ target: 'prod' }) })
          if (grants.agent !== undefined) put('agent', grants.agent, { agent_name: 'reviewer' })
          if (grants.tool !== undefined) put('tool', grants.tool, {})
          const given = Object.values(grants).filter((g) => g !== undefined)
          const outcome = await deploy({ target: 'prod', result_view: 'full' })
          if (given.includes(false)) {
            // The most specific reject is the one named.
            const named = (['exact', 'agent', 'tool'] as const).find((scope) => grants[scope] === false)
            expect(errorOf(outcome)).toMatchObject({ code: 'tool_denied', reason: 'approval_rejected', details: { source: 'grant', grant_id: named, scope: named } })
          } else if (given.includes(true)) expect(outcome.status).toBe('ok')
          else approvalIdOf(outcome)
          expect(calls).toHaveLength(outcome.status === 'ok' ? 1 : 0)
          expect(await dispatcher.approvals.listGrants({ workspace_id: 'ws-1' })).toHaveLength(given.length)
        },
      ),
    )
  })

  it('blocks with a later tool-scope reject what an earlier exact allow from a prompt allowed (regression: the exact allow won)', async () => {
    const { dispatcher, deploy, calls, prompt } = setup('allow_always')
    expect((await deploy()).status).toBe('ok')
    expect(prompt).toHaveBeenCalledTimes(1)
    expect((await deploy()).status).toBe('ok')
    expect(prompt).toHaveBeenCalledTimes(1)
    const reject = await dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'reject', scope: 'tool' })
    const error = errorOf(await deploy())
    expect([error.code, error.reason, error.message, error.details]).toEqual([
      'tool_denied',
      'approval_rejected',
      'tool "ops__deploy" invocation rejected by a remembered tool-scope decision',
      { source: 'grant', grant_id: reject.grant_id, scope: 'tool' },
    ])
    expect(prompt).toHaveBeenCalledTimes(1)
    expect(calls).toHaveLength(2)
  })

  it('blocks with an operator\'s tool-scope reject a tool the policy allows outright (regression: the reject was never read)', async () => {
    const calls: unknown[] = []
    const dispatcher = createDispatcher({ tools: [statusTool(calls)] })
    const status = () => dispatcher.invoke({ tool_id: 'ops__status', input: { target: 'db' }, scope: SCOPE })
    expect((await status()).status).toBe('ok')
    const reject = await dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__status', decision: 'reject', scope: 'tool' })
    expect(errorOf(await status())).toMatchObject({ code: 'tool_denied', reason: 'approval_rejected', message: 'tool "ops__status" invocation rejected by a remembered tool-scope decision', details: { source: 'grant', grant_id: reject.grant_id, scope: 'tool' } })
    // Another workspace, and a call without one, are not touched by it.
    expect((await dispatcher.invoke({ tool_id: 'ops__status', input: { target: 'db' }, scope: { ...SCOPE, workspace_id: 'ws-2' } })).status).toBe('ok')
    expect((await dispatcher.invoke({ tool_id: 'ops__status', input: { target: 'db' } })).status).toBe('ok')
    expect(await dispatcher.approvals.revokeGrant({ workspace_id: 'ws-1', grant_id: reject.grant_id })).toBe(true)
    expect((await status()).status).toBe('ok')
    expect(calls).toHaveLength(4)
  })

  it('a remembered allow never turns a policy deny into an allow', async () => {
    const calls: unknown[] = []
    const dispatcher = createDispatcher({ tools: [deployTool(calls)], policy: createPatternPolicy({ owner: 'agent:reviewer', deny_tools: ['ops__*'] }) })
    await dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' })
    await dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'allow', scope: 'agent', agent_name: 'reviewer' })
    expect(codeOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE }))).toEqual(['tool_denied', 'policy_denied'])
    expect(calls).toEqual([])
  })

  it('is workspace-scoped: nothing in one workspace matches another, and a call without workspace matches nothing', async () => {
    const { dispatcher, deploy } = setup()
    await dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' })
    expect((await deploy({ target: 'prod' }, { ...SCOPE, workspace_id: 'ws-2' })).status).toBe('approval_pending')
    const { workspace_id: _w, ...noWorkspace } = SCOPE
    expect((await deploy({ target: 'prod' }, noWorkspace)).status).toBe('approval_pending')
    expect((await deploy()).status).toBe('ok')
  })

  it('an agent grant matches that agent across inputs only; a tool grant matches every agent', async () => {
    const { dispatcher, deploy } = setup()
    await dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'allow', scope: 'agent', agent_name: 'reviewer' })
    expect((await deploy({ target: 'a' })).status).toBe('ok')
    expect((await deploy({ target: 'b', note: 'n' })).status).toBe('ok')
    expect((await deploy({ target: 'a' }, { ...SCOPE, agent_name: 'builder' })).status).toBe('approval_pending')
    await dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' })
    expect((await deploy({ target: 'a' }, { ...SCOPE, agent_name: 'builder' })).status).toBe('ok')
  })

  it('asks the grant store for a call the policy allows in a workspace (a reject may block it), never for a call without one or a denied call', async () => {
    const calls: unknown[] = []
    const grants = { put: vi.fn(), get: vi.fn(), list: vi.fn(), delete: vi.fn() }
    const allow = createDispatcher({ tools: [deployTool(calls)], policy: { decide: () => ({ decision: 'allow' }) }, approvals: { grants } })
    expect((await allow.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE })).status).toBe('ok')
    expect(grants.get.mock.calls.map(([key]) => key.scope)).toEqual(['exact', 'agent', 'tool'])
    grants.get.mockClear()
    const { workspace_id: _w, ...noWorkspace } = SCOPE
    expect((await allow.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: noWorkspace })).status).toBe('ok')
    const deny = createDispatcher({ tools: [deployTool(calls)], policy: { decide: () => ({ decision: 'deny', reason: 'no' }) }, approvals: { grants } })
    expect(codeOf(await deny.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE }))).toEqual(['tool_denied', 'policy_denied'])
    expect(grants.get).not.toHaveBeenCalled()
  })

  it('fails a call the policy allows closed when the grant store fails in its workspace', async () => {
    const calls: unknown[] = []
    const grants = { put: vi.fn(), get: vi.fn(() => { throw new Error('grant db down') }), list: vi.fn(), delete: vi.fn() }
    const dispatcher = createDispatcher({ tools: [statusTool(calls)], approvals: { grants } })
    const error = errorOf(await dispatcher.invoke({ tool_id: 'ops__status', input: { target: 'db' }, scope: SCOPE }))
    expect([error.code, error.reason, error.message, error.details]).toEqual(['approval_unavailable', 'store_failed', 'approval grants store failed during get; nothing that needs approval runs', { store: 'grants', operation: 'get' }])
    expect(calls).toEqual([])
  })
})

describe('grant store answers that throw when read', () => {
  it('fails closed with approval_unavailable / store_failed for a get answer whose getters throw, never a rejection', async () => {
    for (const answer of [new Proxy({}, { get() { throw new Error('unreadable') } }), { get workspace_id(): string { throw new Error('unreadable') } }]) {
      const calls: unknown[] = []
      const grants = { put: vi.fn(), get: vi.fn(() => answer as never), list: vi.fn(), delete: vi.fn() }
      const dispatcher = createDispatcher({ tools: [statusTool(calls)], approvals: { grants } })
      const error = errorOf(await dispatcher.invoke({ tool_id: 'ops__status', input: { target: 'db' }, scope: SCOPE }))
      expect([error.code, error.reason, error.details]).toEqual(['approval_unavailable', 'store_failed', { store: 'grants', operation: 'get' }])
      expect(calls).toEqual([])
    }
  })
})

describe('setGrant refuses a tool the catalog does not have', () => {
  it('rejects with tool_not_found / unknown_tool, as mintApprovalToken does, and stores nothing (regression: a grant that could never match)', async () => {
    const { dispatcher, stores } = setup()
    for (const request of [
      { workspace_id: 'ws-1', tool_id: 'ops__deplyo', decision: 'allow', scope: 'tool' },
      { workspace_id: 'ws-1', tool_id: 'ops__deplyo', decision: 'reject', scope: 'agent', agent_name: 'reviewer' },
    ] as const) {
      let thrown: unknown
      try {
        await dispatcher.approvals.setGrant(request)
      } catch (error) {
        thrown = error
      }
      expect(thrown).toMatchObject({ code: 'tool_not_found', reason: 'unknown_tool', message: 'tool "ops__deplyo" is not registered' })
    }
    expect(stores.grants.list('ws-1')).toEqual([])
    expect(await rejectionOf(dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'x'.repeat(300), decision: 'allow', scope: 'tool' }))).toEqual(['tool_not_found', 'unknown_tool'])
  })

  it('checks the arguments first: a malformed request for an unknown tool is approval_request_invalid', async () => {
    const { dispatcher } = setup()
    expect(await rejectionOf(dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'nope', decision: 'allow', scope: 'agent' }))).toEqual(['approval_request_invalid', 'agent_name_required'])
  })
})
