import { describe, expect, it } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, type ApprovalStores, type CallScope, type PendingApprovalRecord } from 'result-views'
import { SCOPE, approvalIdOf, deployTool, manualClock, rejectionOf } from './fixtures.js'

const OWNER = { profile_id: 'prof-owner' }

function setup(stores: ApprovalStores = createMemoryApprovalStores()) {
  const calls: unknown[] = []
  const clock = manualClock()
  const dispatcher = createDispatcher({ tools: [deployTool(calls)], approvals: { ...stores, now: clock.now, pendingTtlMs: 60_000 } })
  const deploy = (target: string, scope: CallScope = SCOPE) => dispatcher.invoke({ tool_id: 'ops__deploy', input: { target }, scope })
  return { api: dispatcher.approvals, deploy, calls, clock }
}

describe('dispatcher.approvals.listPending', () => {
  it("lists the owner's approvals newest first, in every status, with the approved call's outcome", async () => {
    const { api, deploy, clock, calls } = setup()
    const first = approvalIdOf(await deploy('one'))
    clock.advance(1000)
    const second = approvalIdOf(await deploy('two'))
    clock.advance(1000)
    const third = approvalIdOf(await deploy('three'))
    approvalIdOf(await deploy('elsewhere', { ...SCOPE, profile_id: 'prof-other' }))
    await api.resolve(first, { ...OWNER, decision: 'approved' })
    await api.resolve(second, { ...OWNER, decision: 'denied' })

    const views = await api.listPending(OWNER)
    expect(views.map((view) => [view.approval_id, view.status, view.execution_status])).toEqual([
      [third, 'pending', undefined],
      [second, 'denied', undefined],
      [first, 'approved', 'completed'],
    ])
    expect(views[2]!.outcome?.status).toBe('ok')
    expect(calls).toEqual([{ target: 'one' }])
  })

  it('filters by workspace and status, bounds by limit, and reads an approval past its expiry as expired without writing', async () => {
    const { api, deploy, clock } = setup()
    approvalIdOf(await deploy('a'))
    clock.advance(1)
    const other = approvalIdOf(await deploy('b', { ...SCOPE, workspace_id: 'ws-2' }))
    expect((await api.listPending({ ...OWNER, workspace_id: 'ws-2' })).map((view) => view.approval_id)).toEqual([other])
    expect(await api.listPending({ ...OWNER, limit: 1 })).toHaveLength(1)
    clock.advance(60_000)
    expect((await api.listPending({ ...OWNER, status: ['pending'] }))).toEqual([])
    expect((await api.listPending({ ...OWNER, status: ['expired'] }))).toHaveLength(2)
  })

  it('refuses bad arguments with approval_request_invalid / field_invalid', async () => {
    const { api } = setup()
    for (const bad of [{}, { profile_id: '' }, { ...OWNER, limit: 0 }, { ...OWNER, limit: 1001 }, { ...OWNER, limit: 1.5 }, { ...OWNER, status: ['nope'] }, { ...OWNER, status: 'pending' }, { ...OWNER, profile: 'x' }]) {
      expect(await rejectionOf(api.listPending(bad as never))).toEqual(['approval_request_invalid', 'field_invalid'])
    }
  })

  it('a pending store without list rejects with approval_unavailable / store_unsupported; show still works', async () => {
    const { list: _list, ...pending } = createMemoryApprovalStores().pending
    const stores = { ...createMemoryApprovalStores(), pending }
    const { api, deploy } = setup(stores)
    const id = approvalIdOf(await deploy('x'))
    expect(await rejectionOf(api.listPending(OWNER))).toEqual(['approval_unavailable', 'store_unsupported'])
    expect((await api.show(id, OWNER)).status).toBe('pending')
  })

  it("a store that answers another profile's records, or garbage, reveals nothing", async () => {
    const inner = createMemoryApprovalStores()
    const foreign = (record: PendingApprovalRecord) => ({ ...record, scope: { ...record.scope, profile_id: 'prof-other' } })
    const leaky = { ...inner, pending: { ...inner.pending, list: async () => (await inner.pending.list!('prof-owner')).map(foreign) } }
    const { api, deploy } = setup(leaky)
    approvalIdOf(await deploy('x'))
    expect(await api.listPending(OWNER)).toEqual([])
    const broken = { ...inner, pending: { ...inner.pending, list: () => [{ approval_id: 1 }] } }
    expect(await rejectionOf(setup(broken as never).api.listPending(OWNER))).toEqual(['approval_unavailable', 'store_failed'])
    const holey = { ...inner, pending: { ...inner.pending, list: () => new Array(2 ** 32 - 1) } }
    expect(await rejectionOf(setup(holey as never).api.listPending(OWNER))).toEqual(['approval_unavailable', 'store_failed'])
  })
})
