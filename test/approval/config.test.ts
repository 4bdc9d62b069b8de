import { describe, expect, it } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, defaultToolPolicy, isApprovalConfigError, isPolicyDefinitionError } from 'result-views'
import { SCOPE, approvalIdOf, deployTool, statusTool } from './fixtures.js'

function thrown(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  return undefined
}

describe('createDispatcher({ policy, approvals })', () => {
  it('defaults to defaultToolPolicy and in-memory stores: tools that declare approval wait on a pending approval, others run', async () => {
    const dispatcher = createDispatcher({ tools: [deployTool(), statusTool()] })
    expect((await dispatcher.invoke({ tool_id: 'ops__status', input: { target: 'x' }, scope: SCOPE })).status).toBe('ok')
    const id = approvalIdOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'x' }, scope: SCOPE }))
    expect((await dispatcher.approvals.show(id, { profile_id: SCOPE.profile_id })).status).toBe('pending')
  })

  it('defaultToolPolicy allows, and asks for approval only where the tool declares it', () => {
    const facts = { id: 't', origin: 'native', risk: undefined, toolsets: [], read_only: false } as const
    expect(defaultToolPolicy.decide({ tool: { ...facts, approval: 'none' }, scope: {}, input: {} })).toEqual({ decision: 'allow' })
    expect(defaultToolPolicy.decide({ tool: { ...facts, approval: 'required' }, scope: {}, input: {} })).toEqual({ decision: 'approval_required', reason: 'tool_requires_approval' })
  })

  it('keeps each dispatcher\'s default stores apart', async () => {
    const a = createDispatcher({ tools: [deployTool()] })
    const b = createDispatcher({ tools: [deployTool()] })
    await a.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' })
    expect(await b.approvals.listGrants({ workspace_id: 'ws-1' })).toEqual([])
  })

  it('refuses a policy without decide', () => {
    const error = thrown(() => createDispatcher({ tools: [], policy: {} as never }))
    expect(isPolicyDefinitionError(error)).toBe(true)
    expect((error as { problems: unknown[] }).problems).toEqual([{ path: '/policy', code: 'invalid_policy', message: expect.any(String) }])
  })

  it('refuses bad approvals options, listing every problem', () => {
    const error = thrown(() =>
      createDispatcher({
        tools: [],
        approvals: { tokens: { get() {} } as never, grants: 3 as never, prompt: 'yes' as never, timeoutMs: 0, pendingTtlMs: 1.5, promptTimeoutMs: -1, now: 5 as never },
      }),
    )
    expect(isApprovalConfigError(error)).toBe(true)
    expect((error as { code: string }).code).toBe('approval_config_invalid')
    expect((error as { problems: Array<{ path: string; code: string }> }).problems.map((p) => [p.path, p.code])).toEqual([
      ['/approvals/tokens', 'invalid_store'],
      ['/approvals/grants', 'invalid_store'],
      ['/approvals/prompt', 'invalid_callback'],
      ['/approvals/now', 'invalid_callback'],
      ['/approvals/timeoutMs', 'invalid_duration'],
      ['/approvals/promptTimeoutMs', 'invalid_duration'],
      ['/approvals/pendingTtlMs', 'invalid_duration'],
    ])
    expect(isApprovalConfigError(thrown(() => createDispatcher({ tools: [], approvals: 'x' as never })))).toBe(true)
  })

  it('refuses unknown approvals keys, listing each next to the other problems', () => {
    const error = thrown(() => createDispatcher({ tools: [], approvals: { bogus: 1, timeoutMs: 0, 'a/b': true } as never }))
    expect(isApprovalConfigError(error)).toBe(true)
    expect((error as { problems: Array<{ path: string; message: string }> }).problems).toEqual([
      { path: '/approvals/bogus', code: 'unknown_option', message: 'unknown option "bogus" (known: tokens, grants, pending, prompt, timeoutMs, promptTimeoutMs, pendingTtlMs, checkOwner, now, sealKey, previousSealKeys, database, close)' },
      { path: '/approvals/a~1b', code: 'unknown_option', message: expect.stringContaining('unknown option "a/b"') },
      { path: '/approvals/timeoutMs', code: 'invalid_duration', message: 'timeoutMs must be a positive integer of milliseconds, or Infinity' },
    ])
    expect(createDispatcher({ tools: [], approvals: { timeoutMs: 10, pendingTtlMs: 20, checkOwner: () => 'ok' } })).toBeDefined()
    // A createSqliteApprovalStores bundle carries database and close: passed as is, they are ignored.
    const bundle = { ...createMemoryApprovalStores(), database: {}, close: () => {} }
    expect(createDispatcher({ tools: [], approvals: bundle })).toBeDefined()
  })
})
