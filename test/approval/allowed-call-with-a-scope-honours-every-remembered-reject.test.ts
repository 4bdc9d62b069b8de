// A call the policy allows, with a workspace in its scope, skips the approval step's store calls
// when the memory grant store holds no grant of the tool in that workspace. These tests hold that
// shortcut to the full step: after any sequence of grant changes, a call runs exactly when no
// remembered reject matches it, for the default policy and a pattern policy alike, and a store
// whose methods a host replaced is asked as any store is.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, createPatternPolicy, inputDigest, type ApprovalGrant, type ToolPolicy } from 'result-views'
import { errorOf, statusTool } from './fixtures.js'

const WORKSPACES = ['ws-1', 'ws-2'] as const
const AGENTS = ['reviewer', 'builder'] as const
const TARGETS = ['prod', 'staging'] as const

type Change =
  | { readonly kind: 'set'; readonly workspace: string; readonly decision: 'allow' | 'reject'; readonly scope: 'agent' | 'tool'; readonly agent: string }
  | { readonly kind: 'exact'; readonly workspace: string; readonly decision: 'allow' | 'reject'; readonly agent: string; readonly target: string }
  | { readonly kind: 'revoke'; readonly pick: number }
interface Call {
  readonly workspace: string | undefined
  readonly agent: string
  readonly target: string
}

const workspace = fc.constantFrom(...WORKSPACES)
const agent = fc.constantFrom(...AGENTS)
const decision = fc.constantFrom('allow' as const, 'reject' as const)
const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), workspace, decision, scope: fc.constantFrom('agent' as const, 'tool' as const), agent }),
  fc.record({ kind: fc.constant('exact' as const), workspace, decision, agent, target: fc.constantFrom(...TARGETS) }),
  fc.record({ kind: fc.constant('revoke' as const), pick: fc.nat() }),
)
const call: fc.Arbitrary<Call> = fc.record({ workspace: fc.option(workspace, { nil: undefined }), agent, target: fc.constantFrom(...TARGETS) })

/** Whether a remembered reject among `grants` matches the call (docs/approvals.md "Precedence"). */
function rejected(grants: readonly ApprovalGrant[], at: Call): boolean {
  if (at.workspace === undefined) return false
  const digest = inputDigest({ target: at.target })
  return grants.some(
    (grant) =>
      grant.decision === 'reject' &&
      grant.workspace_id === at.workspace &&
      grant.tool_id === 'ops__status' &&
      (grant.scope === 'tool' || grant.agent_name === at.agent) &&
      (grant.scope !== 'exact' || grant.input_digest === digest),
  )
}

const policies: ReadonlyArray<readonly [string, ToolPolicy | undefined]> = [
  ['the default policy', undefined],
  ['a pattern policy', createPatternPolicy({ owner: 'agent:reviewer', tools: ['ops__*'] })],
]

describe('a policy-allowed call with a workspace scope', () => {
  for (const [label, policy] of policies) {
    it(`runs exactly when no remembered reject matches, after any grant changes (${label})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(change, call), { minLength: 1, maxLength: 12 }), async (steps) => {
          const calls: unknown[] = []
          const stores = createMemoryApprovalStores()
          const dispatcher = createDispatcher({ tools: [statusTool(calls)], ...(policy === undefined ? {} : { policy }), approvals: stores })
          const made: { workspace: string; grant_id: string }[] = []
          for (const [next, at] of steps) {
            if (next.kind === 'set') {
              const grant = await dispatcher.approvals.setGrant({
                workspace_id: next.workspace,
                tool_id: 'ops__status',
                decision: next.decision,
                scope: next.scope,
                ...(next.scope === 'agent' ? { agent_name: next.agent } : {}),
              })
              made.push({ workspace: next.workspace, grant_id: grant.grant_id })
            } else if (next.kind === 'exact') {
              // An `_always` prompt answer's grant, as the dispatcher stores it.
              const grant_id = `exact-${made.length}`
              stores.grants.put({
                grant_id,
                workspace_id: next.workspace,
                tool_id: 'ops__status',
                scope: 'exact',
                agent_name: next.agent,
                input_digest: inputDigest({ target: next.target }),
                decision: next.decision,
                origin: 'prompt',
                created_at: '2026-11-10T14:00:00.000Z',
              })
              made.push({ workspace: next.workspace, grant_id })
            } else if (made.length > 0) {
              const { workspace: ws, grant_id } = made[next.pick % made.length]!
              await dispatcher.approvals.revokeGrant({ workspace_id: ws, grant_id })
            }
            const listed = [...(await dispatcher.approvals.listGrants({ workspace_id: 'ws-1' })), ...(await dispatcher.approvals.listGrants({ workspace_id: 'ws-2' }))]
            const before = calls.length
            const scope = { ...(at.workspace === undefined ? {} : { workspace_id: at.workspace }), agent_name: at.agent }
            const outcome = await dispatcher.invoke({ tool_id: 'ops__status', input: { target: at.target }, scope })
            if (rejected(listed, at)) {
              expect(errorOf(outcome)).toMatchObject({ code: 'tool_denied', reason: 'approval_rejected' })
              expect(calls.length).toBe(before)
            } else {
              expect(outcome.status).toBe('ok')
              expect(calls.length).toBe(before + 1)
            }
          }
        }),
        { numRuns: 200 },
      )
    })
  }

  it('asks a memory store whose get a host replaced, on every call with a workspace, even while it holds no grant', async () => {
    const stores = createMemoryApprovalStores()
    const get = stores.grants.get
    const asked: string[] = []
    stores.grants.get = (key) => (asked.push(key.scope), get(key))
    const dispatcher = createDispatcher({ tools: [statusTool()], approvals: stores })
    const outcome = await dispatcher.invoke({ tool_id: 'ops__status', input: { target: 'prod' }, scope: { workspace_id: 'ws-1', agent_name: 'reviewer' } })
    expect(outcome.status).toBe('ok')
    expect(asked.sort()).toEqual(['agent', 'exact', 'tool'])
  })

  it('asks through a replaced put too: a grant a wrapper stored elsewhere still blocks the call', async () => {
    const stores = createMemoryApprovalStores()
    const elsewhere = createMemoryApprovalStores().grants
    // A host wrapper that keeps grants in another store and reads them back from it.
    stores.grants.put = (grant) => elsewhere.put(grant)
    stores.grants.get = (key) => elsewhere.get(key)
    const dispatcher = createDispatcher({ tools: [statusTool()], approvals: stores })
    await dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__status', decision: 'reject', scope: 'tool' })
    const outcome = await dispatcher.invoke({ tool_id: 'ops__status', input: { target: 'prod' }, scope: { workspace_id: 'ws-1' } })
    expect(errorOf(outcome)).toMatchObject({ code: 'tool_denied', reason: 'approval_rejected' })
  })
})
