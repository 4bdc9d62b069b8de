// Huge sparse arrays in every array position of the approval step: the management calls'
// arguments, and the answers of the host's prompt, policy and stores. Each is refused at once with
// the typed error of its position (never a walk over 2 ** 32 - 1 indices), and nothing needing
// approval runs.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, defineTool, isToolError, type ApprovalStores } from 'result-views'
import { HUGE_ARRAYS, HUGE_ARRAY_TIMEOUT_MS } from '../support/huge-arrays.js'
import { rejection } from '../support/outcomes.js'
import { errorOf } from './fixtures.js'

const SCOPE = { workspace_id: 'ws-1', agent_name: 'agent', profile_id: 'prof-1' }

function gatedTool(calls: unknown[]) {
  return defineTool({
    id: 'ops__gated',
    description: 'Needs approval.',
    approval: 'required',
    input: Type.Object({ x: Type.Optional(Type.Unknown()) }),
    output: Type.Object({}),
    handler: (input) => (calls.push(input), {}),
  })
}

describe.each(HUGE_ARRAYS)('$name', ({ make }) => {
  it('in a management call\'s arguments: approval_request_invalid / field_invalid naming the field', { timeout: HUGE_ARRAY_TIMEOUT_MS }, async () => {
    const { approvals } = createDispatcher({ tools: [gatedTool([])] })
    const cases: Array<[Promise<unknown>, string]> = [
      [approvals.mintApprovalToken({ tool_id: 'ops__gated', scope: SCOPE, input: { x: make() }, ttlMs: 1000 }), 'input is not plain JSON at "/x/0"'],
      [approvals.mintApprovalToken({ tool_id: 'ops__gated', scope: make() as never, input: {}, ttlMs: 1000 }), 'scope must be an object'],
      [approvals.mintApprovalToken({ tool_id: make() as never, scope: SCOPE, input: {}, ttlMs: 1000 }), 'tool_id must be a string'],
      [approvals.mintApprovalToken(make() as never), 'mintApprovalToken request must be an object'],
      [approvals.setGrant({ tool_id: 'ops__gated', workspace_id: make(), decision: 'allow', scope: 'tool' } as never), 'workspace_id must be a non-empty string'],
      [approvals.setGrant(make() as never), 'setGrant request must be an object'],
      [approvals.listGrants({ workspace_id: make() } as never), 'workspace_id must be a non-empty string'],
      [approvals.revokeGrant({ workspace_id: 'ws-1', grant_id: make() } as never), 'grant_id must be a non-empty string'],
      [approvals.show(make() as never, { profile_id: 'prof-1' }), 'approval_id must be a non-empty string'],
      [approvals.show('a-1', { profile_id: make() } as never), 'profile_id must be a non-empty string'],
      [approvals.resolve('a-1', { profile_id: 'prof-1', decision: make() } as never), 'decision must be one of "approved", "denied"'],
      [approvals.cancel('a-1', { profile_id: make() } as never), 'profile_id must be a non-empty string'],
    ]
    for (const [promise, problem] of cases) {
      expect(await rejection(promise)).toMatchObject({ code: 'approval_request_invalid', reason: 'field_invalid', message: `invalid approvals request: ${problem}` })
    }
  })

  it('as the scope of describe or list: request_invalid', { timeout: HUGE_ARRAY_TIMEOUT_MS }, async () => {
    const dispatcher = createDispatcher({ tools: [gatedTool([])] })
    for (const promise of [dispatcher.describe('ops__gated', make() as never), dispatcher.list(make() as never)]) {
      expect(await rejection(promise)).toMatchObject({ code: 'tool_invalid_input', reason: 'request_invalid', message: 'invalid invoke request: scope must be a plain object of string fields' })
    }
  })

  it('as the prompt\'s answer or the policy\'s decision: the call fails closed and the tool never runs', { timeout: HUGE_ARRAY_TIMEOUT_MS }, async () => {
    const calls: unknown[] = []
    const prompted = createDispatcher({ tools: [gatedTool(calls)], approvals: { prompt: () => make() as never } })
    expect(errorOf(await prompted.invoke({ tool_id: 'ops__gated', input: {}, scope: SCOPE }))).toMatchObject({
      code: 'approval_unavailable',
      reason: 'prompt_failed',
      message: 'approval prompt for tool "ops__gated" gave no valid answer; the call does not run',
      details: { problem: 'invalid_answer' },
    })
    for (const decide of [() => make(), () => ({ decision: 'deny', reason: make() })]) {
      const policed = createDispatcher({ tools: [gatedTool(calls)], policy: { decide: decide as never } })
      expect(errorOf(await policed.invoke({ tool_id: 'ops__gated', input: {}, scope: SCOPE }))).toMatchObject({
        code: 'tool_denied',
        reason: 'policy_failed',
        message: 'tool "ops__gated" invocation denied: the tool policy returned something that is not a decision',
        details: { problem: 'invalid_decision' },
      })
    }
    expect(calls).toEqual([])
  })

  it('in a store\'s answer: store_failed, and the tool never runs', { timeout: HUGE_ARRAY_TIMEOUT_MS }, async () => {
    const calls: unknown[] = []
    const failed = (store: string, operation: string) => ({
      code: 'approval_unavailable',
      reason: 'store_failed',
      message: `approval ${store} store failed during ${operation}; nothing that needs approval runs`,
      details: { store, operation },
    })
    const memory = createMemoryApprovalStores()
    const withStores = (stores: Partial<ApprovalStores>) => createDispatcher({ tools: [gatedTool(calls)], approvals: { ...memory, ...stores } })

    const listing = withStores({ grants: { put: memory.grants.put, get: memory.grants.get, delete: memory.grants.delete, list: async () => make() as never } })
    expect(await rejection(listing.approvals.listGrants({ workspace_id: 'ws-1' }))).toMatchObject(failed('grants', 'list'))

    const grant = { grant_id: 'g-1', workspace_id: 'ws-1', tool_id: 'ops__gated', scope: 'tool', decision: 'allow', origin: 'management', created_at: make() }
    for (const answer of [make(), grant]) {
      const getting = withStores({ grants: { put: memory.grants.put, list: memory.grants.list, delete: memory.grants.delete, get: async () => answer as never } })
      expect(errorOf(await getting.invoke({ tool_id: 'ops__gated', input: {}, scope: SCOPE }))).toMatchObject(failed('grants', 'get'))
    }

    const pendingStores = createMemoryApprovalStores()
    const reading = createDispatcher({
      tools: [gatedTool(calls)],
      approvals: { ...pendingStores, pending: { insert: pendingStores.pending.insert, update: pendingStores.pending.update, get: async (id) => ({ ...(await pendingStores.pending.get(id))!, sensitive_input_fields: make() as string[] }) } },
    })
    const pending = await reading.invoke({ tool_id: 'ops__gated', input: {}, scope: SCOPE })
    expect(pending.status).toBe('approval_pending')
    const approvalId = (pending as { approval_id: string }).approval_id
    expect(await rejection(reading.approvals.show(approvalId, { profile_id: 'prof-1' }))).toMatchObject(failed('pending', 'get'))
    const resolved = await rejection(reading.approvals.resolve(approvalId, { profile_id: 'prof-1', decision: 'approved' }))
    expect(isToolError(resolved) && resolved.code).toBe('approval_unavailable')

    const tokenStores = createMemoryApprovalStores()
    const tokened = createDispatcher({ tools: [gatedTool(calls)], approvals: { ...tokenStores, tokens: { insert: tokenStores.tokens.insert, consume: tokenStores.tokens.consume, get: async () => make() as never } } })
    const { token } = await tokened.approvals.mintApprovalToken({ tool_id: 'ops__gated', scope: SCOPE, input: {}, ttlMs: 60_000 })
    expect(errorOf(await tokened.invoke({ tool_id: 'ops__gated', input: {}, scope: SCOPE, approval_token: token }))).toMatchObject(failed('tokens', 'get'))
    expect(calls).toEqual([])
  })
})
