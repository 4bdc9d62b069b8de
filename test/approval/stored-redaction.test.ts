import { describe, expect, it } from 'vitest'
import { REDACTED, createDispatcher, createMemoryApprovalStores, type ApprovalStores, type ToolError } from 'result-views'
import { SCOPE, deployTool } from './fixtures.js'

const CANARY = 'canary-stored-9d41e2'

/** Stores that keep a JSON copy of everything written to them, as a database would. */
function recordingStores(): { stores: ApprovalStores; written: unknown[] } {
  const stores = createMemoryApprovalStores()
  const written: unknown[] = []
  const copy = (value: unknown): unknown => JSON.parse(JSON.stringify(value))
  return {
    written,
    stores: {
      tokens: stores.tokens,
      grants: { ...stores.grants, put: (grant) => (written.push(copy(grant)), stores.grants.put(grant)), get: stores.grants.get, list: stores.grants.list, delete: stores.grants.delete },
      pending: {
        insert: (record) => (written.push(copy(record)), stores.pending.insert(record)),
        get: stores.pending.get,
        update: (id, from, next) => (written.push(copy(next)), stores.pending.update(id, from, next)),
      },
    },
  }
}

describe('stored approval records never hold a sensitive value (issue 4)', () => {
  it('redacts the pending record, then runs the approved call on the real value', async () => {
    const calls: unknown[] = []
    const { stores, written } = recordingStores()
    const dispatcher = createDispatcher({ tools: [deployTool(calls)], approvals: stores })
    const outcome = await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod', note: CANARY }, scope: SCOPE, sensitive_input_fields: ['note'] })
    expect(outcome.status).toBe('approval_pending')
    const approvalId = (outcome as { approval_id: string }).approval_id
    const shown = await dispatcher.approvals.show(approvalId, { profile_id: SCOPE.profile_id })
    expect(JSON.stringify(shown)).not.toContain(CANARY)
    expect(JSON.stringify(shown)).toContain(REDACTED)

    const resolved = await dispatcher.approvals.resolve(approvalId, { decision: 'approved', profile_id: SCOPE.profile_id })
    expect(resolved).toMatchObject({ execution_status: 'completed' })
    expect(calls).toEqual([{ target: 'prod', note: CANARY }])
    expect(written.length).toBeGreaterThan(0)
    expect(JSON.stringify(written)).not.toContain(CANARY)
    expect(JSON.stringify(resolved)).not.toContain(CANARY)
  })

  it('fails closed in another process (which never held the real input): the tool never runs on "[REDACTED]"', async () => {
    const calls: unknown[] = []
    const shared = createMemoryApprovalStores()
    const first = createDispatcher({ tools: [deployTool()], approvals: shared })
    const second = createDispatcher({ tools: [deployTool(calls)], approvals: shared })
    const outcome = await first.invoke({ tool_id: 'ops__deploy', input: { target: 'prod', note: CANARY }, scope: SCOPE, sensitive_input_fields: ['note'] })
    const approvalId = (outcome as { approval_id: string }).approval_id
    const refused = await second.approvals.resolve(approvalId, { decision: 'approved', profile_id: SCOPE.profile_id }).catch((error: unknown) => error as ToolError)
    expect(refused).toMatchObject({ code: 'approval_unavailable', reason: 'input_held_elsewhere', message: expect.stringContaining('held only in the memory of the process that opened it') })
    expect((await second.approvals.show(approvalId, { profile_id: SCOPE.profile_id })).status).toBe('pending')
    expect(calls).toEqual([])
  })

  it('keeps approvals without sensitive fields resolvable from any process sharing the stores', async () => {
    const calls: unknown[] = []
    const shared = createMemoryApprovalStores()
    const first = createDispatcher({ tools: [deployTool()], approvals: shared })
    const second = createDispatcher({ tools: [deployTool(calls)], approvals: shared })
    const outcome = await first.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE })
    const approvalId = (outcome as { approval_id: string }).approval_id
    expect(await second.approvals.resolve(approvalId, { decision: 'approved', profile_id: SCOPE.profile_id })).toMatchObject({ execution_status: 'completed' })
    expect(calls).toEqual([{ target: 'prod' }])
  })

  it('shows the prompt the redacted input as sent, selector included', async () => {
    const seen: unknown[] = []
    const dispatcher = createDispatcher({
      tools: [deployTool()],
      approvals: { prompt: (request) => (seen.push(request.input), 'allow_once') },
    })
    const outcome = await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod', note: CANARY, result_view: 'full' }, scope: SCOPE, sensitive_input_fields: ['note'] })
    expect(outcome.status).toBe('ok')
    expect(seen).toEqual([{ target: 'prod', note: REDACTED, result_view: 'full' }])
  })
})

describe('the outcome an approval record keeps', () => {
  it('scrubs a sensitive value the tool echoed into its record (stored and shown)', async () => {
    const Type = (await import('typebox')).default
    const { defineTool } = await import('result-views')
    const echo = defineTool({
      id: 'ops__echo',
      description: 'Echoes its note.',
      approval: 'required',
      input: Type.Object({ note: Type.String() }, { additionalProperties: false }),
      output: Type.Object({ echo: Type.String() }, { additionalProperties: false }),
      sensitiveInputFields: ['note'],
      handler: (input) => ({ echo: `got ${input.note}` }),
    })
    const { stores, written } = recordingStores()
    const dispatcher = createDispatcher({ tools: [echo], approvals: stores })
    const outcome = await dispatcher.invoke({ tool_id: 'ops__echo', input: { note: CANARY }, scope: SCOPE })
    const approvalId = (outcome as { approval_id: string }).approval_id
    const resolved = await dispatcher.approvals.resolve(approvalId, { decision: 'approved', profile_id: SCOPE.profile_id })
    expect(resolved).toMatchObject({ execution_status: 'completed', outcome: { result: { structured: { echo: `got ${REDACTED}` } } } })
    expect(JSON.stringify(written)).not.toContain(CANARY)
    expect(JSON.stringify(await dispatcher.approvals.show(approvalId, { profile_id: SCOPE.profile_id }))).not.toContain(CANARY)
  })
})
