import { describe, expect, it, vi } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, inputDigest, type ApprovalPrompt, type ApprovalPromptAnswer, type CallScope } from 'result-views'
import { SCOPE, codeOf, deployTool, errorOf, recordingStores } from './fixtures.js'

function setup(prompt: ApprovalPrompt, options: { promptTimeoutMs?: number } = {}) {
  const calls: unknown[] = []
  const recorded = recordingStores()
  const spy = vi.fn(prompt)
  const dispatcher = createDispatcher({ tools: [deployTool(calls)], approvals: { ...recorded.stores, prompt: spy, ...options } })
  const deploy = (input: unknown = { target: 'prod' }, scope: CallScope = SCOPE) => dispatcher.invoke({ tool_id: 'ops__deploy', input, scope })
  return { dispatcher, calls, prompt: spy, deploy, recorded }
}

const answers = (...list: ApprovalPromptAnswer[]) => () => list.shift() ?? 'reject_once'

describe('the prompt callback (spec 001 "Remembered native-tool decisions")', () => {
  it('is shown the tool facts, the input as sent (with result_view), its digest without result_view, and the policy reason', async () => {
    const { deploy, prompt } = setup(answers('allow_once'))
    await deploy({ target: 'prod', result_view: 'full' })
    expect(prompt).toHaveBeenCalledWith({
      tool: { id: 'ops__deploy', origin: 'native', risk: 'write', toolsets: ['ops'], approval: 'required', read_only: false },
      tool_call_id: expect.any(String),
      scope: SCOPE,
      input: { target: 'prod', result_view: 'full' },
      input_digest: inputDigest({ target: 'prod' }),
      reason: 'tool_requires_approval',
    })
  })

  it('allow_once runs the call and remembers nothing', async () => {
    const { dispatcher, deploy, calls, prompt } = setup(answers('allow_once', 'allow_once'))
    expect((await deploy()).status).toBe('ok')
    expect((await deploy()).status).toBe('ok')
    expect(prompt).toHaveBeenCalledTimes(2)
    expect(calls).toHaveLength(2)
    expect(await dispatcher.approvals.listGrants({ workspace_id: 'ws-1' })).toEqual([])
  })

  it('allow_always runs and stores an exact grant keyed by workspace, agent, tool and input digest', async () => {
    const { dispatcher, deploy, calls, prompt } = setup(answers('allow_always', 'reject_once', 'reject_once'))
    expect((await deploy({ target: 'prod', result_view: 'full' })).status).toBe('ok')
    expect(await dispatcher.approvals.listGrants({ workspace_id: 'ws-1' })).toEqual([
      { grant_id: expect.any(String), workspace_id: 'ws-1', tool_id: 'ops__deploy', scope: 'exact', agent_name: 'reviewer', input_digest: inputDigest({ target: 'prod' }), decision: 'allow', origin: 'prompt', created_at: expect.any(String) },
    ])
    expect((await deploy({ target: 'prod' })).status).toBe('ok')
    expect((await deploy({ result_view: 'compact', target: 'prod' })).status).toBe('ok')
    expect(prompt).toHaveBeenCalledTimes(1)
    expect(codeOf(await deploy({ target: 'staging' }))).toEqual(['tool_denied', 'approval_rejected'])
    expect(codeOf(await deploy({ target: 'prod' }, { ...SCOPE, agent_name: 'builder' }))).toEqual(['tool_denied', 'approval_rejected'])
    expect(prompt).toHaveBeenCalledTimes(3)
    expect(calls).toHaveLength(3)
  })

  it('reject_once refuses once; reject_always refuses and is remembered', async () => {
    const { deploy, calls, prompt } = setup(answers('reject_once', 'reject_always', 'allow_once'))
    const once = errorOf(await deploy())
    expect([once.code, once.reason, once.details]).toEqual(['tool_denied', 'approval_rejected', { source: 'prompt', answer: 'reject_once' }])
    expect(codeOf(await deploy())).toEqual(['tool_denied', 'approval_rejected'])
    const remembered = errorOf(await deploy())
    expect([remembered.reason, (remembered.details as { source: string }).source]).toEqual(['approval_rejected', 'grant'])
    expect(prompt).toHaveBeenCalledTimes(2)
    expect(calls).toEqual([])
  })

  it('counts an _always answer once for a call without workspace (nowhere to remember it)', async () => {
    const { dispatcher, deploy, prompt } = setup(answers('allow_always', 'allow_always'))
    const { workspace_id: _w, ...noWorkspace } = SCOPE
    expect((await deploy({ target: 'prod' }, noWorkspace)).status).toBe('ok')
    expect((await deploy({ target: 'prod' }, noWorkspace)).status).toBe('ok')
    expect(prompt).toHaveBeenCalledTimes(2)
    expect(await dispatcher.approvals.listGrants({ workspace_id: 'ws-1' })).toEqual([])
  })

  it('stores an exact grant without agent for a call without agent, matching only calls without agent', async () => {
    const { deploy, prompt } = setup(answers('allow_always', 'reject_once'))
    const { agent_name: _a, ...noAgent } = SCOPE
    expect((await deploy({ target: 'prod' }, noAgent)).status).toBe('ok')
    expect((await deploy({ target: 'prod' }, noAgent)).status).toBe('ok')
    expect(codeOf(await deploy())).toEqual(['tool_denied', 'approval_rejected'])
    expect(prompt).toHaveBeenCalledTimes(2)
  })

  it('opens no pending approval when a prompt is given', async () => {
    const { deploy, recorded } = setup(answers('reject_once'))
    await deploy()
    expect(recorded.calls.filter((c) => c.startsWith('pending.'))).toEqual([])
  })

  it.each([
    ['throws', () => { throw new Error('ui gone') }, 'prompt_failed'],
    ['rejects', () => Promise.reject(new Error('ui gone')), 'prompt_failed'],
    ['answers something else', () => 'allow' as never, 'prompt_failed'],
    ['answers nothing', () => undefined as never, 'prompt_failed'],
  ] as const)('fails closed when the prompt %s', async (_name, prompt, reason) => {
    const { deploy, calls } = setup(prompt as ApprovalPrompt)
    expect(codeOf(await deploy())).toEqual(['approval_unavailable', reason])
    expect(calls).toEqual([])
  })

  it('fails closed when the prompt does not answer within promptTimeoutMs', async () => {
    const { deploy, calls } = setup(() => new Promise(() => {}), { promptTimeoutMs: 20 })
    expect(codeOf(await deploy())).toEqual(['approval_unavailable', 'prompt_timeout'])
    expect(calls).toEqual([])
  })

  it('fails closed when an _always answer cannot be stored', async () => {
    const calls: unknown[] = []
    const stores = createMemoryApprovalStores()
    const dispatcher = createDispatcher({
      tools: [deployTool(calls)],
      approvals: { ...stores, grants: { ...stores.grants, put: () => { throw new Error('disk full') } }, prompt: () => 'allow_always' },
    })
    expect(codeOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE }))).toEqual(['approval_unavailable', 'store_failed'])
    expect(calls).toEqual([])
  })
})
