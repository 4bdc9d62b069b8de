// Regression: with a seal key, changing a pending record's stored (redacted) `input` while leaving
// the seal made `show()` display one input while `resolve(approved)` ran the sealed other one.
import { randomBytes } from 'node:crypto'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, defineTool, type PendingApprovalRecord } from 'result-views'

const OWNER = { profile_id: 'p' }

function bank(ran: unknown[]) {
  return defineTool({
    id: 'bank__transfer',
    description: 'x',
    approval: 'required',
    input: Type.Object({ to: Type.String(), amount: Type.Number(), pin: Type.String() }),
    output: Type.Object({ ok: Type.Boolean() }),
    sensitiveInputFields: ['pin'],
    handler: (input) => (ran.push(input), { ok: true }),
  })
}

async function openTampered(sealKey: Uint8Array | undefined, edit: (record: PendingApprovalRecord) => PendingApprovalRecord) {
  const ran: unknown[] = []
  const stores = createMemoryApprovalStores()
  const d = createDispatcher({ tools: [bank(ran)], approvals: { ...stores, ...(sealKey === undefined ? {} : { sealKey }) } })
  const opened = await d.invoke({ tool_id: 'bank__transfer', input: { to: 'mallory', amount: 1e6, pin: '123456789' }, scope: OWNER })
  if (opened.status !== 'approval_pending') throw new Error(`expected a pending approval, got ${opened.status}`)
  const id = opened.approval_id
  const record = (await stores.pending.get(id))!
  expect(await stores.pending.update(id, 'pending', edit(record))).toBe(true)
  return { d, id, ran }
}

const toAlice = (record: PendingApprovalRecord): PendingApprovalRecord => ({ ...record, input: { ...(record.input as object), to: 'alice', amount: 1 } })

describe('08-sealed-approval-runs-input-other-than-the-one-shown', () => {
  it('a sealed record whose stored input was changed fails record_invalid and runs nothing', async () => {
    const { d, id, ran } = await openTampered(randomBytes(32), toAlice)
    expect((await d.approvals.show(id, OWNER)).input).toEqual({ to: 'alice', amount: 1, pin: '[REDACTED]' })
    const view = await d.approvals.resolve(id, { decision: 'approved', ...OWNER })
    expect(view.outcome?.status === 'error' && [view.outcome.error.code, view.outcome.error.reason]).toEqual(['approval_unavailable', 'record_invalid'])
    expect(ran).toEqual([])
  })

  it('a held (unsealed) record whose stored input was changed fails record_invalid and runs nothing', async () => {
    const { d, id, ran } = await openTampered(undefined, toAlice)
    const view = await d.approvals.resolve(id, { decision: 'approved', ...OWNER })
    expect(view.outcome?.status === 'error' && [view.outcome.error.code, view.outcome.error.reason]).toEqual(['approval_unavailable', 'record_invalid'])
    expect(ran).toEqual([])
  })

  it('a sealed record whose input_digest was changed too does not open: seal_invalid, still pending', async () => {
    const { d, id, ran } = await openTampered(randomBytes(32), (record) => ({ ...toAlice(record), input_digest: `sha256:${'0'.repeat(64)}` }))
    await expect(d.approvals.resolve(id, { decision: 'approved', ...OWNER })).rejects.toMatchObject({ code: 'approval_unavailable', reason: 'seal_invalid' })
    expect((await d.approvals.show(id, OWNER)).status).toBe('pending')
    expect(ran).toEqual([])
  })

  it('an untouched sealed record still runs on the real input', async () => {
    const { d, id, ran } = await openTampered(randomBytes(32), (record) => record)
    const view = await d.approvals.resolve(id, { decision: 'approved', ...OWNER })
    expect(view.outcome?.status).toBe('ok')
    expect(ran).toEqual([{ to: 'mallory', amount: 1e6, pin: '123456789' }])
  })
})
