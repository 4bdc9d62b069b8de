// Regression: a grant store whose `get` (or `list`) answers garbage must fail the call closed
// (`approval_unavailable` / `store_failed`), never read it as "no grant" and run the call.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, defineTool, type ApprovalStores } from 'result-views'

const scope = { workspace_id: 'w', agent_name: 'ag' }
const GOOD = { workspace_id: 'w', tool_id: 't', scope: 'tool', grant_id: 'g1', decision: 'reject', origin: 'management', created_at: '2026-12-01T00:00:00.000Z' }

function dispatcherWith(edit: (stores: ApprovalStores) => void, ran: unknown[]) {
  const tool = defineTool({ id: 't', description: 'd', input: Type.Object({}), output: Type.Any(), handler: () => (ran.push(1), { ran: true }) })
  const stores = createMemoryApprovalStores()
  edit(stores)
  return createDispatcher({ tools: [tool], approvals: stores })
}

const GARBAGE: Record<string, unknown> = {
  "'yes'": 'yes',
  '42': 42,
  'true': true,
  '{ decision: reject } alone': { decision: 'reject' },
  "decision 'REJECT'": { ...GOOD, decision: 'REJECT' },
  'a numeric grant_id': { ...GOOD, grant_id: 5 },
  'a numeric created_at': { ...GOOD, created_at: 7 },
  'an unknown origin': { ...GOOD, origin: 'agent' },
  'a tool-scope grant with an agent_name': { ...GOOD, agent_name: 'ag' },
  "another tool's grant": { ...GOOD, tool_id: 'other' },
  "another workspace's grant": { ...GOOD, workspace_id: 'w2' },
  'an array': [GOOD],
}

describe('grants-get-garbage-read-as-no-grant', () => {
  for (const [name, answer] of Object.entries(GARBAGE)) {
    it(`grants.get answering ${name} fails the call closed`, async () => {
      const ran: unknown[] = []
      const d = dispatcherWith((st) => {
        st.grants.get = ((key) => (key.scope === 'tool' ? answer : undefined)) as ApprovalStores['grants']['get']
      }, ran)
      const r = await d.invoke({ tool_id: 't', input: {}, scope })
      expect(r.status).toBe('error')
      expect(r.status === 'error' && [r.error.code, r.error.reason, r.error.details]).toEqual(['approval_unavailable', 'store_failed', { store: 'grants', operation: 'get' }])
      expect(ran).toEqual([])
    })
  }

  it('null and undefined still mean no grant: the call runs', async () => {
    for (const none of [null, undefined]) {
      const ran: unknown[] = []
      const d = dispatcherWith((st) => {
        st.grants.get = (() => none) as never
      }, ran)
      const r = await d.invoke({ tool_id: 't', input: {}, scope })
      expect(r.status).toBe('ok')
      expect(ran).toHaveLength(1)
    }
  })

  it('a well-formed reject with the asked key still refuses the call', async () => {
    const ran: unknown[] = []
    const d = dispatcherWith((st) => {
      st.grants.get = ((key) => (key.scope === 'tool' ? { ...GOOD } : undefined)) as ApprovalStores['grants']['get']
    }, ran)
    const r = await d.invoke({ tool_id: 't', input: {}, scope })
    expect(r.status === 'error' && r.error.code).toBe('tool_denied')
    expect(ran).toEqual([])
  })

  for (const [name, entry] of Object.entries({ '{ decision: allow } alone': { decision: 'allow' }, "decision 'REJECT'": { ...GOOD, decision: 'REJECT' }, 'a scalar': 'yes' })) {
    it(`a grants.list entry of ${name}: listGrants rejects and describe reports approval_unavailable`, async () => {
      const d = dispatcherWith((st) => {
        st.grants.list = (() => [entry]) as never
      }, [])
      await expect(d.approvals.listGrants({ workspace_id: 'w' })).rejects.toMatchObject({ code: 'approval_unavailable', reason: 'store_failed' })
      const described = await d.describe('t', scope)
      expect(described.diagnostics.status).toBe('approval_unavailable')
    })
  }

  it('a well-formed listed reject makes describe report the tool blocked, not callable', async () => {
    const d = dispatcherWith((st) => {
      st.grants.list = (() => [{ ...GOOD }]) as never
    }, [])
    const described = await d.describe('t', scope)
    expect(described.diagnostics.status).not.toBe('callable')
    expect(described.diagnostics.status).not.toBe('approval_unavailable')
  })
})
