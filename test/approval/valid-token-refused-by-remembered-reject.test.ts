// Spec 001: "CompozyOS checks a supplied single-use approval token first. Without one, it checks the
// remembered decision". A valid token was refused when a remembered reject matched its call. It
// runs now; the reject is honoured where the approval is given: minting a token, or approving a
// pending approval, for a call a reject matches is refused (`approval_forbidden` /
// `remembered_reject`), and the pending approval stays pending.
import { describe, expect, it } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, type GrantScope } from 'result-views'
import { SCOPE, approvalIdOf, deployTool, errorOf, rejectionOf } from './fixtures.js'

const INPUT = { target: 'prod' }
const askAlways = { decide: () => ({ decision: 'approval_required' as const, reason: 'asks' }) }

function setup() {
  const calls: unknown[] = []
  const stores = createMemoryApprovalStores()
  const dispatcher = createDispatcher({ tools: [deployTool(calls)], policy: askAlways, approvals: stores })
  const reject = (scope: 'agent' | 'tool') =>
    dispatcher.approvals.setGrant({ workspace_id: SCOPE.workspace_id, tool_id: 'ops__deploy', decision: 'reject', scope, ...(scope === 'agent' ? { agent_name: SCOPE.agent_name } : {}) })
  const invoke = (approval_token?: string) => dispatcher.invoke({ tool_id: 'ops__deploy', input: INPUT, scope: SCOPE, ...(approval_token === undefined ? {} : { approval_token }) })
  return { calls, stores, dispatcher, reject, invoke }
}

describe('a supplied valid token is checked before the remembered decision', () => {
  it.each<'agent' | 'tool'>(['agent', 'tool'])('a token minted before a %s-scope reject runs its call once (the token is checked first)', async (scope) => {
    const { calls, dispatcher, reject, invoke } = setup()
    const { token } = await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: INPUT })
    await reject(scope)
    expect((await invoke(token)).status).toBe('ok')
    expect(calls).toHaveLength(1)
    // Without a token the reject blocks, and the used token does not run again.
    expect(errorOf(await invoke())).toMatchObject({ code: 'tool_denied', reason: 'approval_rejected' })
    expect(errorOf(await invoke(token))).toMatchObject({ code: 'approval_invalid', reason: 'token_replayed' })
    expect(calls).toHaveLength(1)
  })

  it('reads no remembered decision for a supplied valid token', async () => {
    const { stores, dispatcher, invoke } = setup()
    const { token } = await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: INPUT })
    const get = stores.grants.get
    let asked = 0
    stores.grants.get = (key) => (asked++, get(key))
    expect((await invoke(token)).status).toBe('ok')
    expect(asked).toBe(0)
  })
})

describe('an approval is refused where it is given, while a remembered reject matches', () => {
  it.each<GrantScope>(['agent', 'tool', 'exact'])('mintApprovalToken over a matching %s-scope reject → approval_forbidden / remembered_reject, no token stored', async (scope) => {
    const { stores, dispatcher, reject } = setup()
    let grant_id: string
    if (scope === 'exact') {
      const prompting = createDispatcher({ tools: [deployTool()], policy: askAlways, approvals: { ...stores, prompt: () => 'reject_always' } })
      expect(errorOf(await prompting.invoke({ tool_id: 'ops__deploy', input: INPUT, scope: SCOPE }))).toMatchObject({ reason: 'approval_rejected' })
      grant_id = (await dispatcher.approvals.listGrants({ workspace_id: SCOPE.workspace_id }))[0]!.grant_id
    } else grant_id = (await reject(scope)).grant_id
    const insert = stores.tokens.insert
    let inserted = 0
    stores.tokens.insert = (record) => (inserted++, insert(record))
    const refused = dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: INPUT })
    await expect(refused).rejects.toMatchObject({ code: 'approval_forbidden', reason: 'remembered_reject', details: { grant_id, scope } })
    expect(inserted).toBe(0)
  })

  it('mints for a call the reject does not match (another agent, another workspace)', async () => {
    const { dispatcher, reject } = setup()
    await reject('agent')
    await expect(dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: { ...SCOPE, agent_name: 'other' }, input: INPUT })).resolves.toMatchObject({ token: expect.any(String) })
    await expect(dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: { ...SCOPE, workspace_id: 'ws-2' }, input: INPUT })).resolves.toMatchObject({ token: expect.any(String) })
  })

  it('resolve (approved) of a pending approval a reject matches → approval_forbidden / remembered_reject; it stays pending and can be denied', async () => {
    const { calls, dispatcher, reject, invoke } = setup()
    const id = approvalIdOf(await invoke())
    const grant = await reject('tool')
    expect(await rejectionOf(dispatcher.approvals.resolve(id, { decision: 'approved', profile_id: SCOPE.profile_id }))).toEqual(['approval_forbidden', 'remembered_reject'])
    expect(await dispatcher.approvals.show(id, { profile_id: SCOPE.profile_id })).toMatchObject({ status: 'pending' })
    expect(calls).toHaveLength(0)
    // Revoked, the approval can be approved; or it can be denied at any time.
    await dispatcher.approvals.revokeGrant({ workspace_id: SCOPE.workspace_id, grant_id: grant.grant_id })
    expect(await dispatcher.approvals.resolve(id, { decision: 'approved', profile_id: SCOPE.profile_id })).toMatchObject({ status: 'approved', execution_status: 'completed' })
    const other = approvalIdOf(await invoke())
    await reject('tool')
    expect(await dispatcher.approvals.resolve(other, { decision: 'denied', profile_id: SCOPE.profile_id })).toMatchObject({ status: 'denied' })
    expect(calls).toHaveLength(1)
  })
})
