// Regression: `_revoke` needed no approval, so an agent could lift an operator's reject on a tool
// the policy allows and then run it with no decision by anyone.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, defineApprovalTools, defineTool, type ApprovalToolsOptions, type Dispatcher } from 'result-views'

const REVOKE = 'compozy__tool_approvals_revoke'
const scope = { workspace_id: 'w', agent_name: 'agent', profile_id: 'p' }

async function withOperatorReject(options: Partial<ApprovalToolsOptions>) {
  const ran: unknown[] = []
  const tool = defineTool({ id: 'x__delete_all', description: 'x', risk: 'destructive', input: Type.Object({}), output: Type.Object({}), handler: () => (ran.push(1), {}) })
  let d: Dispatcher | undefined
  d = createDispatcher({ tools: [tool, ...defineApprovalTools({ approvals: () => d!.approvals, ...options })], approvals: createMemoryApprovalStores() })
  const grant = await d.approvals.setGrant({ workspace_id: 'w', tool_id: 'x__delete_all', decision: 'reject', scope: 'tool' })
  return { d, grant, ran }
}

describe('04-revoke-reject-lets-allowed-tool-run-without-decision', () => {
  it('by default the agent revoking a reject waits on an approval; the reject stays and the tool does not run', async () => {
    const { d, grant, ran } = await withOperatorReject({})
    const revoke = await d.invoke({ tool_id: REVOKE, input: { grant_id: grant.grant_id }, scope })
    expect(revoke.status).toBe('approval_pending')
    expect(await d.approvals.listGrants({ workspace_id: 'w' })).toEqual([grant])
    const call = await d.invoke({ tool_id: 'x__delete_all', input: {}, scope })
    expect(call.status === 'error' && call.error.code).toBe('tool_denied')
    expect(ran).toEqual([])
  })

  it('the revoke runs once a person approves it', async () => {
    const { d, grant } = await withOperatorReject({})
    const revoke = await d.invoke({ tool_id: REVOKE, input: { grant_id: grant.grant_id }, scope })
    if (revoke.status !== 'approval_pending') throw new Error(`expected a pending approval, got ${revoke.status}`)
    const view = await d.approvals.resolve(revoke.approval_id, { decision: 'approved', profile_id: 'p' })
    expect(view.outcome).toMatchObject({ status: 'ok', result: { structured: { revoked: true, grant_id: grant.grant_id } } })
    expect(await d.approvals.listGrants({ workspace_id: 'w' })).toEqual([])
  })

  it("revokeApproval: 'none' opts out, for trusted callers", async () => {
    const { d, grant } = await withOperatorReject({ revokeApproval: 'none' })
    const revoke = await d.invoke({ tool_id: REVOKE, input: { grant_id: grant.grant_id }, scope })
    expect(revoke.status).toBe('ok')
  })
})
