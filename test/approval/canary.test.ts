import { describe, expect, it } from 'vitest'
import { createDispatcher, type InvokeOutcome, type Logger } from 'result-views'
import { SCOPE, approvalIdOf, deployTool, manualClock, recordingStores, statusTool } from './fixtures.js'

/** Everything the library emitted, as text: outcomes, errors (message, details, surfaces, stack), events, log lines, store traffic, views. */
function emitted(values: unknown[]): string {
  const parts: string[] = []
  const visit = (value: unknown): void => {
    if (value instanceof Error) {
      parts.push(String(value), value.stack ?? '', JSON.stringify(value))
      const cause = (value as { cause?: unknown }).cause
      if (cause !== undefined) visit(cause)
      for (const surface of ['dispatch', 'cli', 'http'] as const) {
        const forSurface = (value as { forSurface?: (s: string) => unknown }).forSurface
        if (forSurface) parts.push(JSON.stringify(forSurface.call(value, surface)))
      }
      return
    }
    if (value !== null && typeof value === 'object' && 'error' in value) visit((value as { error: unknown }).error)
    parts.push(JSON.stringify(value) ?? String(value))
  }
  values.forEach(visit)
  return parts.join('\n')
}

describe('approval tokens never appear in events, logs, errors, stored records or outcomes', () => {
  it('a canary token used every way a caller can use it leaves no trace', async () => {
    const clock = manualClock()
    const out: unknown[] = []
    const log = (level: string) => (fields: Record<string, unknown>, message: string) => void out.push({ level, fields, message })
    const logger: Logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') }
    const recorded = recordingStores()
    const dispatcher = createDispatcher({
      tools: [deployTool(), statusTool()],
      logger,
      approvals: { ...recorded.stores, now: clock.now },
    })
    for (const event of ['tool.pre_call', 'tool.post_call', 'tool.post_error'] as const) dispatcher.hook(event, (payload: unknown) => void out.push(payload))

    const { token: canary, expires_at } = await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' }, ttlMs: 60_000 })
    const { token: expiring } = await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' }, ttlMs: 1 })
    out.push(expires_at)
    const invoke = async (request: Parameters<typeof dispatcher.invoke>[0]): Promise<InvokeOutcome> => {
      const outcome = await dispatcher.invoke(request)
      out.push(outcome)
      return outcome
    }
    await invoke({ tool_id: 'ops__deploy', input: { target: 'staging' }, scope: SCOPE, approval_token: canary })
    await invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: { ...SCOPE, agent_name: 'x' }, approval_token: canary })
    await invoke({ tool_id: 'ops__status', input: { target: 'prod' }, scope: SCOPE, approval_token: canary })
    await invoke({ tool_id: 'ops__deploy', input: { target: 'prod', bad: true }, scope: SCOPE, approval_token: canary })
    await invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE, approval_token: canary })
    await invoke({ tool_id: 'ops__deploy', input: { target: 'prod', result_view: 'full' }, scope: SCOPE, approval_token: canary })
    await invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE, approval_token: canary + 'x' })
    await invoke({ tool_id: 'nope__tool', input: {}, scope: SCOPE, approval_token: canary })
    clock.advance(10)
    await invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE, approval_token: expiring })
    const pending = approvalIdOf(await invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE }))
    out.push(await dispatcher.approvals.resolve(pending, { profile_id: SCOPE.profile_id, decision: 'approved' }))
    out.push(await dispatcher.approvals.show(pending, { profile_id: SCOPE.profile_id }))
    out.push(await dispatcher.approvals.listGrants({ workspace_id: 'ws-1' }))

    const text = emitted([...out, ...recorded.seen])
    expect(out.length).toBeGreaterThan(20)
    for (const secret of [canary, expiring, canary.slice(0, 24), canary.slice(-24)]) expect(text).not.toContain(secret)
  })
})
