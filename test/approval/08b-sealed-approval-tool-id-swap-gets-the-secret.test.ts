// Regression: with a seal key, changing a pending record's `tool_id` in the store handed the
// sealed secret to another tool: the seal is now bound to the tool as well.
import { randomBytes } from 'node:crypto'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, defineTool } from 'result-views'

describe('08b-sealed-approval-tool-id-swap-gets-the-secret', () => {
  it('a sealed record moved to another tool does not open (seal_invalid), runs nothing and stays pending', async () => {
    const ran: unknown[] = []
    const make = (id: string) =>
      defineTool({
        id,
        description: 'x',
        approval: 'required',
        input: Type.Object({ to: Type.String(), pin: Type.String() }),
        output: Type.Object({ ok: Type.Boolean() }),
        sensitiveInputFields: ['pin'],
        handler: (input) => (ran.push([id, input]), { ok: true }),
      })
    const stores = createMemoryApprovalStores()
    const d = createDispatcher({ tools: [make('safe__ping'), make('danger__wipe')], approvals: { ...stores, sealKey: randomBytes(32) } })
    const opened = await d.invoke({ tool_id: 'safe__ping', input: { to: 'x', pin: '123456789' }, scope: { profile_id: 'p' } })
    if (opened.status !== 'approval_pending') throw new Error(`expected a pending approval, got ${opened.status}`)
    const record = (await stores.pending.get(opened.approval_id))!
    expect(await stores.pending.update(opened.approval_id, 'pending', { ...record, tool_id: 'danger__wipe' })).toBe(true)
    await expect(d.approvals.resolve(opened.approval_id, { decision: 'approved', profile_id: 'p' })).rejects.toMatchObject({ code: 'approval_unavailable', reason: 'seal_invalid' })
    expect(ran).toEqual([])
    expect((await d.approvals.show(opened.approval_id, { profile_id: 'p' })).status).toBe('pending')
  })
})
