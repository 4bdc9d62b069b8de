import { describe, expect, it, vi } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, createPatternPolicy, describeTool, intersectPolicies, type ApprovalGrant, type CallScope, type ToolPolicy } from 'result-views'
import { noteTool, skillTool } from '../support/tools.js'

const SCOPE = { workspace_id: 'ws-1', session_id: 'sess-1', agent_name: 'reviewer' }

describe('scoped diagnostics (spec 001 "Scoped diagnostics")', () => {
  it('says a tool is callable, with its descriptor', async () => {
    const tools = [noteTool(), skillTool()]
    const dispatcher = createDispatcher({ tools })
    expect(await dispatcher.describe('notes__read', SCOPE)).toEqual({
      tool_id: 'notes__read',
      descriptor: describeTool(tools[0]!),
      diagnostics: { scope: SCOPE, callable: true, status: 'callable' },
    })
  })

  it('names the policy owner that denies a tool, and a tool that needs approval', async () => {
    const agent = createPatternPolicy({ owner: 'agent:reviewer', tools: ['notes__*'], approval: 'always' })
    const session = createPatternPolicy({ owner: 'session:sess-1', tools: ['*'], deny_tools: ['skills__view'] })
    const dispatcher = createDispatcher({ tools: [noteTool(), skillTool()], policy: intersectPolicies([session, agent]) })
    const [notes, skills] = await dispatcher.list(SCOPE)
    expect(notes!.diagnostics).toMatchObject({ callable: false, status: 'approval_required', policy_owner: 'agent:reviewer' })
    expect(skills!.diagnostics).toMatchObject({ callable: false, status: 'denied', policy_owner: 'session:sess-1' })
    expect(skills!.diagnostics.reason).toEqual(expect.any(String))
  })

  it('answers unknown tools as data, and fails closed for a failing policy', async () => {
    const broken: ToolPolicy = { decide: () => { throw new Error('policy db down') } }
    const dispatcher = createDispatcher({ tools: [noteTool()], policy: broken })
    expect(await dispatcher.describe('nope', SCOPE)).toEqual({ tool_id: 'nope', diagnostics: { scope: SCOPE, callable: false, status: 'unknown_tool' } })
    expect((await dispatcher.describe('notes__read', SCOPE)).diagnostics).toMatchObject({ callable: false, status: 'policy_failed', reason: 'policy_failed' })
  })

  it('keeps the unscoped describe and list synchronous descriptors', () => {
    const dispatcher = createDispatcher({ tools: [noteTool()] })
    expect(dispatcher.describe('notes__read')!.tool_id).toBe('notes__read')
    expect(dispatcher.list().map((d) => d.tool_id)).toEqual(['notes__read'])
  })

  it('rejects a malformed scope with request_invalid', async () => {
    const dispatcher = createDispatcher({ tools: [noteTool()] })
    await expect(dispatcher.describe('notes__read', { workspace_id: 7 } as never)).rejects.toMatchObject({ code: 'tool_invalid_input', reason: 'request_invalid' })
  })
})

describe('scoped diagnostics account for remembered decisions (docs/policy.md "Scoped diagnostics")', () => {
  const asks = createPatternPolicy({ owner: 'agent:reviewer', approval: 'always' })

  it('names the agent-scope allow grant that makes a tool callable (regression: it said approval_required while the call would run)', async () => {
    const dispatcher = createDispatcher({ tools: [noteTool()], policy: asks })
    const grant = await dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'notes__read', decision: 'allow', scope: 'agent', agent_name: 'reviewer' })
    expect((await dispatcher.describe('notes__read', SCOPE)).diagnostics).toEqual({
      scope: SCOPE,
      callable: true,
      status: 'callable',
      reason: 'policy_requires_approval',
      policy_owner: 'agent:reviewer',
      grant: { grant_id: grant.grant_id, scope: 'agent', decision: 'allow' },
    })
    expect((await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' }, scope: SCOPE })).status).toBe('ok')
    // Another agent has no grant: it still needs an approval.
    expect((await dispatcher.describe('notes__read', { ...SCOPE, agent_name: 'builder' })).diagnostics).toMatchObject({ callable: false, status: 'approval_required' })
  })

  it('names the reject that blocks a tool, also one the policy allows outright, and over an allow', async () => {
    const dispatcher = createDispatcher({ tools: [noteTool(), skillTool()] })
    await dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'notes__read', decision: 'allow', scope: 'agent', agent_name: 'reviewer' })
    const reject = await dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'notes__read', decision: 'reject', scope: 'tool' })
    const [notes, skills] = await dispatcher.list(SCOPE)
    expect(notes!.diagnostics).toEqual({ scope: SCOPE, callable: false, status: 'rejected', grant: { grant_id: reject.grant_id, scope: 'tool', decision: 'reject' } })
    expect(skills!.diagnostics).toEqual({ scope: SCOPE, callable: true, status: 'callable' })
    const outcome = await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' }, scope: SCOPE })
    expect(outcome.status === 'error' && [outcome.error.code, outcome.error.reason]).toEqual(['tool_denied', 'approval_rejected'])
  })

  it('says what would satisfy a call that needs approval, given the dispatcher\'s configuration and the scope', async () => {
    const pending = createDispatcher({ tools: [noteTool()], policy: asks })
    const prompted = createDispatcher({ tools: [noteTool()], policy: asks, approvals: { prompt: () => 'allow_once' } })
    const optionsOf = async (dispatcher: typeof pending, scope: CallScope) => (await dispatcher.describe('notes__read', scope)).diagnostics.approval_options
    expect(await optionsOf(pending, {})).toEqual(['token'])
    expect(await optionsOf(pending, { agent_name: 'reviewer', profile_id: 'prof-1' })).toEqual(['token', 'pending_approval'])
    expect(await optionsOf(pending, SCOPE)).toEqual(['token', 'grant'])
    expect(await optionsOf(pending, { ...SCOPE, profile_id: 'prof-1' })).toEqual(['token', 'grant', 'pending_approval'])
    expect(await optionsOf(prompted, { ...SCOPE, profile_id: 'prof-1' })).toEqual(['token', 'grant', 'prompt'])
    expect(await optionsOf(prompted, {})).toEqual(['token', 'prompt'])
    // Only a call that needs an approval carries them.
    expect((await createDispatcher({ tools: [noteTool()] }).describe('notes__read', SCOPE)).diagnostics).not.toHaveProperty('approval_options')
  })

  it('offers only what the call path honours: without a profile or prompt, the call fails with approval_required', async () => {
    const dispatcher = createDispatcher({ tools: [noteTool()], policy: asks })
    expect((await dispatcher.describe('notes__read', {})).diagnostics.approval_options).toEqual(['token'])
    const outcome = await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })
    expect(outcome.status === 'error' && [outcome.error.code, outcome.error.reason]).toEqual(['tool_denied', 'approval_required'])
  })

  it('says a tool the policy allows is callable in a scope without workspace_id, where no grant can match (regression: it read approval_required)', async () => {
    const dispatcher = createDispatcher({ tools: [noteTool(), skillTool()], policy: createPatternPolicy({ owner: 'agent:a', tools: ['notes__*'] }) })
    const listed = await dispatcher.list({ agent_name: 'reviewer' })
    expect(listed.map((entry) => [entry.tool_id, entry.diagnostics.status, entry.diagnostics.callable])).toEqual([
      ['notes__read', 'callable', true],
      ['skills__view', 'denied', false],
    ])
    expect((await dispatcher.describe('notes__read', { agent_name: 'reviewer' })).diagnostics).toEqual({ scope: { agent_name: 'reviewer' }, callable: true, status: 'callable' })
  })

  it('reads the workspace\'s grants once for a whole list, and never for a scope without workspace or a denied tool', async () => {
    const grants = { put: vi.fn(), get: vi.fn(), list: vi.fn(() => []), delete: vi.fn() }
    const dispatcher = createDispatcher({ tools: [noteTool(), skillTool()], policy: asks, approvals: { grants } })
    await dispatcher.list(SCOPE)
    expect(grants.list.mock.calls).toEqual([['ws-1']])
    expect(grants.get).not.toHaveBeenCalled()
    await dispatcher.list({ agent_name: 'reviewer' })
    const denying = createDispatcher({ tools: [noteTool()], policy: createPatternPolicy({ owner: 'agent:a', tools: [] }), approvals: { grants } })
    expect((await denying.describe('notes__read', SCOPE)).diagnostics.status).toBe('denied')
    expect(grants.list).toHaveBeenCalledTimes(1)
  })

  it('fails closed when the grant store cannot list or lists something unreadable (sparse, throwing getters): approval_unavailable, as the call fails', async () => {
    const sparse = (): readonly ApprovalGrant[] => {
      const a: ApprovalGrant[] = []
      a.length = 2 ** 32 - 1
      return a
    }
    const throwing = new Proxy({}, { get() { throw new Error('unreadable') } }) as ApprovalGrant
    const lists: (() => readonly ApprovalGrant[])[] = [
      () => { throw new Error('grant db down') },
      () => 'not a list' as unknown as readonly ApprovalGrant[],
      // Host answers that cannot be read: a sparse array of length 2^32-1, an entry whose getters throw, an array Proxy whose traps throw.
      sparse,
      () => [throwing],
      () => new Proxy([], { get() { throw new Error('unreadable') }, has() { throw new Error('unreadable') } }),
    ]
    for (const list of lists) {
      const dispatcher = createDispatcher({ tools: [noteTool()], approvals: { grants: { put: vi.fn(), get: () => { throw new Error('grant db down') }, list, delete: vi.fn() } } })
      expect((await dispatcher.describe('notes__read', SCOPE)).diagnostics).toEqual({ scope: SCOPE, callable: false, status: 'approval_unavailable', reason: 'store_failed' })
      const outcome = await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' }, scope: SCOPE })
      expect(outcome.status === 'error' && [outcome.error.code, outcome.error.reason]).toEqual(['approval_unavailable', 'store_failed'])
    }
  })

  it('ignores an exact grant (it binds one input) and listed entries that are not grants of the key', async () => {
    const stores = createMemoryApprovalStores()
    const dispatcher = createDispatcher({ tools: [noteTool()], policy: asks, approvals: stores })
    const base = { workspace_id: 'ws-1', tool_id: 'notes__read', decision: 'allow' as const, origin: 'prompt' as const, created_at: '2026-11-10T14:00:00.000Z' }
    stores.grants.put({ ...base, grant_id: 'exact', scope: 'exact', agent_name: 'reviewer', input_digest: `sha256:${'0'.repeat(64)}` })
    stores.grants.put({ ...base, grant_id: 'other-agent', scope: 'agent', agent_name: 'builder' })
    stores.grants.put({ ...base, grant_id: 'other-tool', scope: 'tool', tool_id: 'skills__view' })
    expect((await dispatcher.describe('notes__read', SCOPE)).diagnostics).toMatchObject({ callable: false, status: 'approval_required' })
  })
})

