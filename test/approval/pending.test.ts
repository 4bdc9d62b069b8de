import Type from 'typebox'
import { describe, expect, it, vi } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, defineTool, inputDigest, type ApprovalOptions, type CallScope, type PolicyDecision } from 'result-views'
import { SCOPE, approvalIdOf, codeOf, deployTool, manualClock, rejectionOf } from './fixtures.js'

const OWNER = { profile_id: 'prof-owner' }

function setup(options: ApprovalOptions & { decide?: () => PolicyDecision } = {}) {
  const calls: unknown[] = []
  const { decide, ...approvals } = options
  const dispatcher = createDispatcher({
    tools: [deployTool(calls)],
    ...(decide ? { policy: { decide } } : {}),
    approvals: { ...createMemoryApprovalStores(), ...approvals },
  })
  const deploy = (input: unknown = { target: 'prod' }, scope: CallScope = SCOPE) => dispatcher.invoke({ tool_id: 'ops__deploy', input, scope, tool_call_id: 'call-7' })
  return { dispatcher, calls, deploy, api: dispatcher.approvals }
}

describe('pending approvals (spec 001 "Pending command-palette approvals")', () => {
  it('invoke returns approval_pending with an approval_id; the tool does not run', async () => {
    const { deploy, calls } = setup()
    const outcome = await deploy()
    expect(outcome).toEqual({ status: 'approval_pending', tool_call_id: 'call-7', approval_id: expect.any(String) })
    expect(calls).toEqual([])
  })

  it('show returns the record to its owner: the input as sent, its digest, status pending', async () => {
    const clock = manualClock()
    const { deploy, api } = setup({ now: clock.now, pendingTtlMs: 60_000 })
    const id = approvalIdOf(await deploy({ target: 'prod', result_view: 'full' }))
    expect(await api.show(id, OWNER)).toEqual({
      approval_id: id,
      tool_id: 'ops__deploy',
      tool_call_id: 'call-7',
      scope: SCOPE,
      input: { target: 'prod', result_view: 'full' },
      input_digest: inputDigest({ target: 'prod' }),
      reason: 'tool_requires_approval',
      status: 'pending',
      created_at: '2026-11-10T14:00:00.000Z',
      expires_at: '2026-11-10T14:01:00.000Z',
    })
  })

  it('another profile gets approval_forbidden for show, resolve and cancel; nothing transfers', async () => {
    const { deploy, api, calls } = setup()
    const id = approvalIdOf(await deploy())
    const other = { profile_id: 'prof-other' }
    expect(await rejectionOf(api.show(id, other))).toEqual(['approval_forbidden', 'profile_mismatch'])
    expect(await rejectionOf(api.resolve(id, { ...other, decision: 'approved' }))).toEqual(['approval_forbidden', 'profile_mismatch'])
    expect(await rejectionOf(api.cancel(id, other))).toEqual(['approval_forbidden', 'profile_mismatch'])
    expect((await api.show(id, OWNER)).status).toBe('pending')
    expect(calls).toEqual([])
  })

  it('an unknown approval ID gives approval_not_found; bad arguments approval_request_invalid', async () => {
    const { api } = setup()
    expect(await rejectionOf(api.show('nope', OWNER))).toEqual(['approval_not_found', 'unknown_approval'])
    expect(await rejectionOf(api.resolve('nope', { ...OWNER, decision: 'approved' }))).toEqual(['approval_not_found', 'unknown_approval'])
    expect(await rejectionOf(api.show('nope', {} as never))).toEqual(['approval_request_invalid', 'field_invalid'])
    expect(await rejectionOf(api.resolve('nope', { ...OWNER, decision: 'yes' as never }))).toEqual(['approval_request_invalid', 'field_invalid'])
    expect(await rejectionOf(api.resolve('nope', { ...OWNER, decision: 'approved', wait: 'no' as never }))).toEqual(['approval_request_invalid', 'field_invalid'])
    expect(await rejectionOf(api.cancel(3 as never, OWNER))).toEqual(['approval_request_invalid', 'field_invalid'])
  })

  it('approved: runs the call on the approved input and records the result; the handler never sees result_view', async () => {
    const { deploy, api, calls } = setup()
    const id = approvalIdOf(await deploy({ target: 'prod', result_view: 'full' }))
    const done = await api.resolve(id, { ...OWNER, decision: 'approved' })
    expect(done).toMatchObject({
      status: 'approved',
      execution_status: 'completed',
      outcome: { status: 'ok', tool_call_id: 'call-7', result: { structured: { target: 'prod', log: 'deployed prod' } }, result_view: 'full' },
    })
    expect(calls).toEqual([{ target: 'prod' }])
    expect(await api.show(id, OWNER)).toEqual(done)
  })

  it('a resolved, denied or canceled approval never runs again', async () => {
    const { deploy, api, calls } = setup()
    const approved = approvalIdOf(await deploy())
    await api.resolve(approved, { ...OWNER, decision: 'approved' })
    expect(await rejectionOf(api.resolve(approved, { ...OWNER, decision: 'approved' }))).toEqual(['approval_state', 'approval_resolved'])
    expect(await rejectionOf(api.cancel(approved, OWNER))).toEqual(['approval_state', 'approval_resolved'])

    const denied = approvalIdOf(await deploy())
    expect(await api.resolve(denied, { ...OWNER, decision: 'denied' })).toMatchObject({ status: 'denied', decided_at: expect.any(String) })
    expect(await rejectionOf(api.resolve(denied, { ...OWNER, decision: 'approved' }))).toEqual(['approval_state', 'approval_resolved'])

    const canceled = approvalIdOf(await deploy())
    expect((await api.cancel(canceled, OWNER)).status).toBe('canceled')
    expect(await rejectionOf(api.resolve(canceled, { ...OWNER, decision: 'approved' }))).toEqual(['approval_state', 'approval_canceled'])
    expect(await rejectionOf(api.cancel(canceled, OWNER))).toEqual(['approval_state', 'approval_canceled'])
    expect(calls).toHaveLength(1)
  })

  it('an expired approval reads expired and never runs', async () => {
    const clock = manualClock()
    const { deploy, api, calls } = setup({ now: clock.now, pendingTtlMs: 1_000 })
    const id = approvalIdOf(await deploy())
    clock.advance(1_000)
    expect((await api.show(id, OWNER)).status).toBe('expired')
    const error = await rejectionOf(api.resolve(id, { ...OWNER, decision: 'approved' }))
    expect(error).toEqual(['approval_state', 'approval_expired'])
    const late = approvalIdOf(await deploy())
    clock.advance(1_000)
    expect(await rejectionOf(api.resolve(late, { ...OWNER, decision: 'approved' }))).toEqual(['approval_state', 'approval_expired'])
    expect(await rejectionOf(api.cancel(late, OWNER))).toEqual(['approval_state', 'approval_expired'])
    expect(calls).toEqual([])
  })

  it('of concurrent decisions exactly one wins', async () => {
    const { deploy, api, calls } = setup()
    const id = approvalIdOf(await deploy())
    const settled = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => api.resolve(id, { ...OWNER, decision: i % 3 === 0 ? 'denied' : 'approved' })))
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(1)
    for (const s of settled) if (s.status === 'rejected') expect([s.reason.code, s.reason.reason]).toEqual(['approval_state', 'approval_resolved'])
    const winner = settled.find((s) => s.status === 'fulfilled')!.value
    expect(calls).toHaveLength(winner.status === 'approved' ? 1 : 0)
  })

  it('reads dispatching until the result is readable (wait: false)', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const slow = defineTool({
      id: 'ops__slow',
      description: 'Waits for the test.',
      approval: 'required',
      input: Type.Object({}, { additionalProperties: false }),
      output: Type.Object({ done: Type.Boolean() }, { additionalProperties: false }),
      handler: async () => (await gate, { done: true }),
    })
    const dispatcher = createDispatcher({ tools: [slow] })
    const id = approvalIdOf(await dispatcher.invoke({ tool_id: 'ops__slow', input: {}, scope: SCOPE }))
    const decided = await dispatcher.approvals.resolve(id, { ...OWNER, decision: 'approved', wait: false })
    expect([decided.status, decided.execution_status, decided.outcome]).toEqual(['approved', 'dispatching', undefined])
    expect((await dispatcher.approvals.show(id, OWNER)).execution_status).toBe('dispatching')
    release()
    await vi.waitFor(async () => expect((await dispatcher.approvals.show(id, OWNER)).execution_status).toBe('completed'))
    expect((await dispatcher.approvals.show(id, OWNER)).outcome).toMatchObject({ status: 'ok', result: { structured: { done: true } } })
  })

  it.each(['throws', 'hangs', 'answers false'] as const)(
    'says outcome_recorded: false when the final update %s; show reads dispatching and the call never runs again',
    async (failure) => {
      const stores = createMemoryApprovalStores()
      const pending = {
        insert: stores.pending.insert.bind(stores.pending),
        get: stores.pending.get.bind(stores.pending),
        update: (id: string, from: Parameters<typeof stores.pending.update>[1], next: Parameters<typeof stores.pending.update>[2]) => {
          if (from !== 'dispatching') return stores.pending.update(id, from, next)
          if (failure === 'throws') throw new Error('disk full')
          if (failure === 'hangs') return new Promise<boolean>(() => {})
          return false
        },
      }
      const { deploy, api, calls } = setup({ pending, timeoutMs: 50 })
      const id = approvalIdOf(await deploy())
      const resolved = await api.resolve(id, { ...OWNER, decision: 'approved' })
      expect(resolved).toMatchObject({ status: 'approved', execution_status: 'completed', outcome_recorded: false, outcome: { status: 'ok' } })
      expect(calls).toHaveLength(1)
      const shown = await api.show(id, OWNER)
      expect(shown).toMatchObject({ status: 'approved', execution_status: 'dispatching' })
      expect(shown).not.toHaveProperty('outcome')
      expect(shown).not.toHaveProperty('outcome_recorded')
      expect(await rejectionOf(api.resolve(id, { ...OWNER, decision: 'approved' }))).toEqual(['approval_state', 'approval_resolved'])
      expect(calls).toHaveLength(1)
    },
  )

  it('has no outcome_recorded field when the outcome is recorded', async () => {
    const { deploy, api } = setup()
    const id = approvalIdOf(await deploy())
    const resolved = await api.resolve(id, { ...OWNER, decision: 'approved' })
    expect(resolved.execution_status).toBe('completed')
    expect(resolved).not.toHaveProperty('outcome_recorded')
  })

  it('records a failure of the approved call as execution_status failed', async () => {
    const failing = defineTool({
      id: 'ops__fail',
      description: 'Always fails.',
      approval: 'required',
      input: Type.Object({}, { additionalProperties: false }),
      output: Type.Object({}, { additionalProperties: false }),
      handler: () => {
        throw new Error('boom')
      },
    })
    const dispatcher = createDispatcher({ tools: [failing] })
    const id = approvalIdOf(await dispatcher.invoke({ tool_id: 'ops__fail', input: {}, scope: SCOPE }))
    const done = await dispatcher.approvals.resolve(id, { ...OWNER, decision: 'approved' })
    expect([done.execution_status, done.outcome?.status]).toEqual(['failed', 'error'])
    const shown = await dispatcher.approvals.show(id, OWNER)
    expect(shown.outcome?.status === 'error' && [shown.outcome.error.code, shown.outcome.error.reason, shown.outcome.error.forSurface('cli').message]).toEqual(['tool_execution_failed', 'handler_failed', 'tool invocation failed'])
  })

  it('re-checks the CURRENT policy before dispatching: a deny now fails the approved call', async () => {
    let decision: PolicyDecision = { decision: 'approval_required' }
    const { deploy, api, calls } = setup({ decide: () => decision })
    const id = approvalIdOf(await deploy())
    decision = { decision: 'deny', reason: 'frozen', owner: 'agent:ops' }
    const done = await api.resolve(id, { ...OWNER, decision: 'approved' })
    expect(done.execution_status).toBe('failed')
    expect(done.outcome?.status === 'error' && [done.outcome.error.code, done.outcome.error.reason]).toEqual(['tool_denied', 'policy_denied'])
    expect(calls).toEqual([])
  })

  it('the re-check runs under the recorded owner scope', async () => {
    const seen: unknown[] = []
    const dispatcher = createDispatcher({
      tools: [deployTool()],
      policy: { decide: (request) => (seen.push(request.scope), { decision: 'approval_required' }) },
    })
    const id = approvalIdOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE }))
    await dispatcher.approvals.resolve(id, { ...OWNER, decision: 'approved' })
    expect(seen).toEqual([SCOPE, SCOPE])
  })

  it.each(['profile_unavailable', 'session_unbound'] as const)('refuses a decision when the owner check says %s; the approval stays pending', async (answer) => {
    const checkOwner = vi.fn(() => answer)
    const { deploy, api, calls } = setup({ checkOwner })
    const id = approvalIdOf(await deploy())
    expect(await rejectionOf(api.resolve(id, { ...OWNER, decision: 'approved' }))).toEqual(['approval_forbidden', answer])
    expect(checkOwner).toHaveBeenCalledWith({ approval_id: id, profile_id: 'prof-owner', scope: SCOPE })
    expect((await api.show(id, OWNER)).status).toBe('pending')
    expect(calls).toEqual([])
  })

  it('fails closed when the owner check throws, hangs or answers nonsense', async () => {
    for (const checkOwner of [() => { throw new Error('db') }, () => new Promise<never>(() => {}), () => 'maybe' as never]) {
      const { deploy, api, calls } = setup({ checkOwner, timeoutMs: 20 })
      const id = approvalIdOf(await deploy())
      expect(await rejectionOf(api.resolve(id, { ...OWNER, decision: 'approved' }))).toEqual(['approval_unavailable', 'owner_check_failed'])
      expect(calls).toEqual([])
    }
  })

  it('accepts only the exact answers of the documented checkOwner contract', async () => {
    const cases: Array<[unknown, string[] | 'ok']> = [
      ['ok', 'ok'],
      [Promise.resolve('ok'), 'ok'],
      ['profile_unavailable', ['approval_forbidden', 'profile_unavailable']],
      [Promise.resolve('session_unbound'), ['approval_forbidden', 'session_unbound']],
      [true, ['approval_unavailable', 'owner_check_failed']],
      [undefined, ['approval_unavailable', 'owner_check_failed']],
      [null, ['approval_unavailable', 'owner_check_failed']],
      ['OK', ['approval_unavailable', 'owner_check_failed']],
      [{ ok: true }, ['approval_unavailable', 'owner_check_failed']],
      [Promise.resolve(true), ['approval_unavailable', 'owner_check_failed']],
    ]
    for (const [answer, expected] of cases) {
      const { deploy, api, calls } = setup({ checkOwner: () => answer as never })
      const id = approvalIdOf(await deploy())
      if (expected === 'ok') {
        expect((await api.resolve(id, { ...OWNER, decision: 'approved' })).execution_status).toBe('completed')
        expect(calls).toHaveLength(1)
      } else {
        expect(await rejectionOf(api.resolve(id, { ...OWNER, decision: 'approved' }))).toEqual(expected)
        expect(calls).toEqual([])
        expect((await api.show(id, OWNER)).status).toBe('pending')
      }
    }
  })

  it('a call without profile_id cannot own a pending approval: tool_denied / approval_required', async () => {
    const { deploy, calls } = setup()
    const { profile_id: _p, ...noProfile } = SCOPE
    expect(codeOf(await deploy({ target: 'prod' }, noProfile))).toEqual(['tool_denied', 'approval_required'])
    expect(calls).toEqual([])
  })

  it('keeps the call\'s sensitive_input_fields and pinned_result_view for the deferred run', async () => {
    const stores = createMemoryApprovalStores()
    const dispatcher = createDispatcher({ tools: [deployTool()], approvals: stores })
    const pinned = approvalIdOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod', note: 'n' }, scope: SCOPE, pinned_result_view: 'compact', sensitive_input_fields: ['note'] }))
    const record = await stores.pending.get(pinned)
    expect([record?.pinned_result_view, record?.sensitive_input_fields]).toEqual(['compact', ['note']])
    expect(await dispatcher.approvals.resolve(pinned, { ...OWNER, decision: 'approved' })).toMatchObject({ execution_status: 'completed', outcome: { result_view: 'compact' } })
  })

  it('refuses to run a record whose stored input no longer has the approved digest', async () => {
    const stores = createMemoryApprovalStores()
    const calls: unknown[] = []
    const dispatcher = createDispatcher({ tools: [deployTool(calls)], approvals: stores })
    const id = approvalIdOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE }))
    const record = (await stores.pending.get(id))!
    stores.pending.update(id, 'pending', { ...record, input: { target: 'everything' } })
    const done = await dispatcher.approvals.resolve(id, { ...OWNER, decision: 'approved' })
    expect(done.outcome?.status === 'error' && [done.outcome.error.code, done.outcome.error.reason]).toEqual(['approval_unavailable', 'record_invalid'])
    expect(calls).toEqual([])
  })
})
