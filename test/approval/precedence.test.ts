// The precedence table of docs/approvals.md "Precedence", checked through the real call path, the
// re-check of an approved pending approval and the scoped diagnostics.
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, inputDigest, type ApprovalGrant, type ApprovalStores, type ApprovalTokenRecord, type GrantScope, type PolicyDecision } from 'result-views'
import { SCOPE, approvalIdOf, deployTool, errorOf, manualClock } from './fixtures.js'

type Remembered = 'none' | 'allow' | 'reject'
type Token = 'absent' | 'valid' | 'mismatched' | 'unknown'
const SCOPES: readonly GrantScope[] = ['exact', 'agent', 'tool']
const INPUT = { target: 'prod' }

/** docs/approvals.md "Precedence", row by row: what happens to the call. */
function expected(policy: PolicyDecision['decision'], token: Token, grants: Record<GrantScope, Remembered>): string {
  if (policy === 'deny') return 'tool_denied/policy_denied'
  if (token === 'mismatched') return 'approval_invalid/token_mismatch'
  if (token === 'unknown') return 'approval_invalid/token_unknown'
  if (token === 'valid') return 'runs'
  if (Object.values(grants).includes('reject')) return 'tool_denied/approval_rejected'
  if (policy === 'allow') return 'runs'
  if (Object.values(grants).includes('allow')) return 'runs'
  return 'pending'
}

function grantOf(scope: GrantScope, decision: 'allow' | 'reject'): ApprovalGrant {
  const key =
    scope === 'exact'
      ? { scope, agent_name: SCOPE.agent_name, input_digest: inputDigest(INPUT) }
      : scope === 'agent'
        ? { scope, agent_name: SCOPE.agent_name }
        : { scope }
  return { grant_id: `${scope}-${decision}`, workspace_id: SCOPE.workspace_id, tool_id: 'ops__deploy', decision, origin: scope === 'exact' ? 'prompt' : 'management', created_at: '2026-11-10T14:00:00.000Z', ...key }
}

// One tool for every run: its input validator is compiled once.
const calls: unknown[] = []
const deploy = deployTool(calls)

async function setup(policy: PolicyDecision['decision'], grants: Record<GrantScope, Remembered>, mintFirst?: readonly unknown[]) {
  calls.length = 0
  const stores = createMemoryApprovalStores()
  const decision: PolicyDecision = policy === 'deny' ? { decision: 'deny', reason: 'no' } : policy === 'allow' ? { decision: 'allow' } : { decision: 'approval_required', reason: 'asks' }
  const state = { decision }
  const dispatcher = createDispatcher({ tools: [deploy], policy: { decide: () => state.decision }, approvals: stores, clock: manualClock().now })
  // Tokens are minted before the grants are set: a token is never minted over a matching reject.
  const tokens: string[] = []
  for (const input of mintFirst ?? []) tokens.push((await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input })).token)
  for (const scope of SCOPES) {
    const remembered = grants[scope]
    if (remembered !== 'none') stores.grants.put(grantOf(scope, remembered))
  }
  return { dispatcher, stores, calls, state, tokens }
}

const decisions = fc.constantFrom<PolicyDecision['decision']>('allow', 'deny', 'approval_required')
const remembered = fc.constantFrom<Remembered>('none', 'allow', 'reject')
const grantSets = fc.record({ exact: remembered, agent: remembered, tool: remembered })

describe('approval precedence (docs/approvals.md "Precedence")', () => {
  it('runs a call only when the table says so, for every policy decision × grants at every scope × token', async () => {
    await fc.assert(
      fc.asyncProperty(decisions, grantSets, fc.constantFrom<Token>('absent', 'valid', 'mismatched', 'unknown'), async (policy, grants, token) => {
        const minted = token === 'valid' ? [INPUT] : token === 'mismatched' ? [{ target: 'staging' }] : []
        const { dispatcher, stores, calls, tokens } = await setup(policy, grants, minted)
        let approval_token: string | undefined = tokens[0]
        if (token === 'unknown') approval_token = 'not-a-minted-token'
        const outcome = await dispatcher.invoke({ tool_id: 'ops__deploy', input: INPUT, scope: SCOPE, ...(approval_token === undefined ? {} : { approval_token }) })
        const want = expected(policy, token, grants)
        if (want === 'runs') expect(outcome.status).toBe('ok')
        else if (want === 'pending') approvalIdOf(outcome)
        else {
          const error = errorOf(outcome)
          expect(`${error.code}/${error.reason}`).toBe(want)
        }
        expect(calls).toHaveLength(want === 'runs' ? 1 : 0)
        // A token is consumed only by the call it ran.
        if (token === 'valid') {
          expect(tokenRecord(stores, approval_token!)?.consumed_at !== undefined).toBe(want === 'runs')
        }
      }),
      { numRuns: 300 },
    )
  })

  it('names the most specific reject, whatever allows also match', async () => {
    await fc.assert(
      fc.asyncProperty(decisions.filter((d) => d !== 'deny'), grantSets.filter((g) => Object.values(g).includes('reject')), async (policy, grants) => {
        const { dispatcher } = await setup(policy, grants)
        const error = errorOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: INPUT, scope: SCOPE }))
        const named = SCOPES.find((scope) => grants[scope] === 'reject')!
        expect(error.details).toEqual({ source: 'grant', grant_id: `${named}-reject`, scope: named })
      }),
    )
  })

  it('runs a valid token minted before a reject once, while calls without it stay rejected', async () => {
    const { dispatcher, calls, tokens } = await setup('approval_required', { exact: 'none', agent: 'none', tool: 'reject' }, [INPUT])
    const call = (approval_token?: string) => dispatcher.invoke({ tool_id: 'ops__deploy', input: INPUT, scope: SCOPE, ...(approval_token === undefined ? {} : { approval_token }) })
    expect(errorOf(await call())).toMatchObject({ code: 'tool_denied', reason: 'approval_rejected', details: { source: 'grant', grant_id: 'tool-reject', scope: 'tool' } })
    expect((await call(tokens[0])).status).toBe('ok')
    expect(errorOf(await call(tokens[0]))).toMatchObject({ code: 'approval_invalid', reason: 'token_replayed' })
    expect(calls).toHaveLength(1)
  })

  it('reports a refused token before a reject, and reads no grant for it', async () => {
    const { dispatcher, stores } = await setup('allow', { exact: 'none', agent: 'reject', tool: 'none' })
    const get = stores.grants.get
    let asked = 0
    stores.grants.get = (key) => (asked++, get(key))
    expect(errorOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: INPUT, scope: SCOPE, approval_token: 'forged' }))).toMatchObject({ code: 'approval_invalid', reason: 'token_unknown' })
    expect(asked).toBe(0)
  })

  it('refuses to approve a pending approval a reject set since matches, and stops an approved one at a reject set while it is dispatched', async () => {
    const { dispatcher, stores, calls, state } = await setup('approval_required', { exact: 'none', agent: 'none', tool: 'none' })
    const first = approvalIdOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: INPUT, scope: SCOPE }))
    const second = approvalIdOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: INPUT, scope: SCOPE }))
    const reject = await dispatcher.approvals.setGrant({ workspace_id: SCOPE.workspace_id, tool_id: 'ops__deploy', decision: 'reject', scope: 'agent', agent_name: SCOPE.agent_name })
    await expect(dispatcher.approvals.resolve(first, { decision: 'approved', profile_id: SCOPE.profile_id })).rejects.toMatchObject({ code: 'approval_forbidden', reason: 'remembered_reject', details: { grant_id: reject.grant_id, scope: 'agent' } })
    expect(stores.pending.get(first)).toMatchObject({ state: 'pending' })
    await dispatcher.approvals.revokeGrant({ workspace_id: SCOPE.workspace_id, grant_id: reject.grant_id })
    // A reject set once the approval was accepted (here: while the current policy is asked again) stops the call.
    const asks = { decision: 'approval_required', reason: 'asks' } as const
    let setDuringRecheck: Promise<unknown> | undefined
    state.decision = { get decision() { setDuringRecheck ??= dispatcher.approvals.setGrant({ workspace_id: SCOPE.workspace_id, tool_id: 'ops__deploy', decision: 'reject', scope: 'tool' }); return asks.decision }, reason: 'asks' } as unknown as PolicyDecision // prettier-ignore
    const view = await dispatcher.approvals.resolve(first, { decision: 'approved', profile_id: SCOPE.profile_id })
    expect(view).toMatchObject({ execution_status: 'failed', outcome: { status: 'error', error: { code: 'tool_denied', reason: 'approval_rejected', details: { source: 'grant', scope: 'tool' } } } })
    expect(stores.pending.get(first)).toMatchObject({ state: 'failed' })
    const [tool] = await dispatcher.approvals.listGrants({ workspace_id: SCOPE.workspace_id })
    await dispatcher.approvals.revokeGrant({ workspace_id: SCOPE.workspace_id, grant_id: tool!.grant_id })
    state.decision = { decision: 'allow' }
    expect(await dispatcher.approvals.resolve(second, { decision: 'approved', profile_id: SCOPE.profile_id })).toMatchObject({ execution_status: 'completed' })
    expect(calls).toHaveLength(1)
  })

  it('agrees with the scoped diagnostics: callable exactly when an input-free call with no token runs', async () => {
    const inputFree = fc.record({ exact: fc.constant<Remembered>('none'), agent: remembered, tool: remembered })
    await fc.assert(
      fc.asyncProperty(decisions, inputFree, async (policy, grants) => {
        const { dispatcher } = await setup(policy, grants)
        const { diagnostics } = await dispatcher.describe('ops__deploy', SCOPE)
        const outcome = await dispatcher.invoke({ tool_id: 'ops__deploy', input: INPUT, scope: SCOPE })
        const want = expected(policy, 'absent', grants)
        expect(diagnostics.callable).toBe(outcome.status === 'ok')
        const status = { runs: 'callable', pending: 'approval_required', 'tool_denied/policy_denied': 'denied', 'tool_denied/approval_rejected': 'rejected' }[want]
        expect(diagnostics.status).toBe(status)
        const named = want === 'runs' && policy === 'approval_required' ? SCOPES.find((scope) => grants[scope] === 'allow') : want === 'tool_denied/approval_rejected' ? SCOPES.find((scope) => grants[scope] === 'reject') : undefined
        expect(diagnostics.grant).toEqual(named === undefined ? undefined : { grant_id: `${named}-${grants[named]}`, scope: named, decision: grants[named] })
      }),
    )
  })
})

/** The stored record of a token (the memory store answers synchronously). */
function tokenRecord(stores: ApprovalStores, token: string): ApprovalTokenRecord | undefined {
  return stores.tokens.get(createHash('sha256').update(token, 'utf8').digest('hex')) as ApprovalTokenRecord | undefined
}
