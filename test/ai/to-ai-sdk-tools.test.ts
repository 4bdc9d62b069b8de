import { generateText, type ModelMessage, type ToolSet } from 'ai'
import { describe, expect, it } from 'vitest'
import { findSecretLeak } from 'result-views/testing'
import { createDispatcher, isUsageError, ToolError, type Dispatcher } from 'result-views'
import { AiSdkToolError, isAiSdkOptionsError, isAiSdkToolError, toAiSdkTools } from 'result-views/ai'
import {
  adapterCatalog,
  CANARY,
  NOTE_COMPACT,
  NOTE_FULL,
  pendingText,
  SCOPE,
  SINGLE_RESULT_VIEW_TEXT,
  UNKNOWN_VIEW_TEXT,
} from '../support/adapter-catalog.js'
import { perCallContext } from '../support/ai-sdk-major.js'
import { scriptedModel, toolResultsShown, type ModelTurn } from '../support/ai-sdk-model.js'
import { noteTool } from '../support/tools.js'
import { waitingTool } from '../support/waiting-tool.js'

/** Runs the turns through generateText until the script's final text (or an approval request). */
async function run(tools: ToolSet, turns: readonly ModelTurn[], messages?: ModelMessage[]) {
  const model = scriptedModel(turns)
  const result = await generateText({
    model,
    tools,
    ...(messages === undefined ? { prompt: 'go' } : { messages }),
    stopWhen: ({ steps }) => steps.at(-1)?.content.some((part) => part.type === 'text') ?? false,
  })
  return { model, result }
}

const call = (toolCallId: string, toolName: string, input: unknown) => ({ calls: [{ toolCallId, toolName, input }] })

describe('toAiSdkTools: the tool set', () => {
  it('has one tool per descriptor, keyed by tool ID, with the descriptor description and its 2020-12 input schema', () => {
    const { dispatcher } = adapterCatalog()
    const tools = toAiSdkTools(dispatcher)
    expect(Object.keys(tools)).toEqual(dispatcher.list().map((d) => d.tool_id))
    const notes = tools['notes__read']!
    expect(notes.description).toBe('Read one note.')
    const schema = (notes.inputSchema as { jsonSchema: Record<string, any> }).jsonSchema
    expect(schema.properties.result_view).toEqual({ type: 'string', enum: ['compact', 'full'], default: 'compact' })
    expect(schema.required).toEqual(['id'])
    const skills = (tools['skills__view']!.inputSchema as { jsonSchema: Record<string, any> }).jsonSchema
    expect(skills.properties).not.toHaveProperty('result_view')
    expect(tools['ops__deploy']!.needsApproval).toBeUndefined()
  })
})

describe('toAiSdkTools through generateText (mock model, offline)', () => {
  it('a model calls a viewed tool compact, then full: each output is the selected view record, and compact never shows full-only fields', async () => {
    const { dispatcher, calls } = adapterCatalog()
    const { model, result } = await run(toAiSdkTools(dispatcher), [
      call('c1', 'notes__read', { id: 'n1' }),
      call('c2', 'notes__read', { id: 'n1', result_view: 'full' }),
      { text: 'done' },
    ])
    expect(result.steps.map((step) => step.toolResults.map((r) => r.output))).toEqual([[NOTE_COMPACT], [NOTE_FULL], []])
    expect(toolResultsShown(model, 1)).toEqual([{ toolCallId: 'c1', output: { type: 'json', value: NOTE_COMPACT } }])
    expect(toolResultsShown(model, 2).at(-1)).toEqual({ toolCallId: 'c2', output: { type: 'json', value: NOTE_FULL } })
    expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).not.toContain('eggs, milk')
    expect(calls.notes).toEqual([{ id: 'n1' }, { id: 'n1' }])
  })

  it('passes the call toolCallId and the options scope to invoke', async () => {
    const { dispatcher } = adapterCatalog()
    const seen: unknown[] = []
    dispatcher.hook('tool.post_call', (payload) => void seen.push({ tool_call_id: payload.tool_call_id, scope: payload.scope }))
    await run(toAiSdkTools(dispatcher, { scope: SCOPE }), [call('call-77', 'notes__read', { id: 'n1' }), { text: 'done' }])
    expect(seen).toEqual([{ tool_call_id: 'call-77', scope: SCOPE }])
  })

  it('resolves the scope per call from the per-call context (ai 7 toolsContext, ai 6 experimental_context)', async () => {
    const { dispatcher } = adapterCatalog()
    const seen: unknown[] = []
    dispatcher.hook('tool.post_call', (payload) => void seen.push(payload.scope))
    const tools = toAiSdkTools(dispatcher, { scope: ({ context, tool_id }) => ({ workspace_id: (context as { ws: string }).ws, agent_name: tool_id }) })
    const model = scriptedModel([call('c1', 'notes__read', { id: 'n1' }), { text: 'done' }])
    await generateText({ model, tools, prompt: 'go', ...perCallContext(tools, { ws: 'ws-9' }), stopWhen: () => false })
    expect(seen).toEqual([{ workspace_id: 'ws-9', agent_name: 'notes__read' }])
  })

  it('spec 000 "Errors" rows 1-3: the model reads code, reason and the dispatch message as a tool error, and the tool does not run', async () => {
    const { dispatcher, calls } = adapterCatalog()
    const { model, result } = await run(toAiSdkTools(dispatcher), [
      {
        calls: [
          { toolCallId: 'c1', toolName: 'notes__read', input: { id: 'n1', result_view: 'huge' } },
          { toolCallId: 'c2', toolName: 'notes__read', input: { id: 'n1', result_view: 7 } },
          { toolCallId: 'c3', toolName: 'skills__view', input: { skill_id: 's', result_view: 'full' } },
        ],
      },
      { text: 'done' },
    ])
    expect(toolResultsShown(model, 1)).toEqual([
      { toolCallId: 'c1', output: { type: 'error-text', value: UNKNOWN_VIEW_TEXT } },
      { toolCallId: 'c2', output: { type: 'error-text', value: UNKNOWN_VIEW_TEXT } },
      { toolCallId: 'c3', output: { type: 'error-text', value: SINGLE_RESULT_VIEW_TEXT } },
    ])
    const errors = result.steps[0]!.content.filter((part) => part.type === 'tool-error')
    expect(errors).toHaveLength(3)
    for (const part of errors) {
      expect(isAiSdkToolError(part.error)).toBe(true)
      const error = part.error as AiSdkToolError
      expect(error.outcome).toMatchObject({ status: 'error', code: 'tool_invalid_input', reason: 'schema_invalid', tool_call_id: part.toolCallId })
      expect(error.message).toBe(error.outcome.text)
    }
    expect(calls.notes).toEqual([])
    expect(calls.skills).toEqual([])
  })

  it('keeps the legacy invalid_request code of a tool that declares it', async () => {
    const dispatcher = createDispatcher({ tools: [noteTool([], { inputErrorCode: 'invalid_request' })] })
    const { model } = await run(toAiSdkTools(dispatcher), [call('c1', 'notes__read', { id: 'n1', result_view: 'huge' }), { text: 'done' }])
    expect(toolResultsShown(model, 1)).toEqual([
      { toolCallId: 'c1', output: { type: 'error-text', value: 'invalid_request (schema_invalid): tool "notes__read" input "result_view" must be one of "compact", "full"' } },
    ])
  })

  it('a sensitive field: the canary a hook injects reaches the handler and nothing the SDK records (steps, messages, tool results, model prompts)', async () => {
    const { dispatcher, calls } = adapterCatalog()
    const { model, result } = await run(toAiSdkTools(dispatcher, { scope: SCOPE }), [
      { calls: [{ toolCallId: 'c1', toolName: 'vault__fetch', input: { item: 'db' } }, { toolCallId: 'c2', toolName: 'vault__fetch', input: { item: 'missing' } }] },
      { text: 'done' },
    ])
    expect(calls.vault).toEqual([{ item: 'db', api_key: CANARY }, { item: 'missing', api_key: CANARY }])
    expect(toolResultsShown(model, 1)).toEqual([
      { toolCallId: 'c1', output: { type: 'json', value: { item: 'db', found: true } } },
      { toolCallId: 'c2', output: { type: 'error-text', value: 'tool_execution_failed (handler_failed): tool "vault__fetch" failed: vault refused key [REDACTED] for item "missing"' } },
    ])
    const errors = result.steps.flatMap((step) => step.content.flatMap((part) => (part.type === 'tool-error' ? [part.error] : [])))
    const recorded = [
      JSON.stringify(result.steps),
      JSON.stringify(result.response.messages),
      JSON.stringify(result.toolResults),
      JSON.stringify(model.doGenerateCalls.map((options) => options.prompt)),
      ...errors.map((error) => `${String((error as Error).message)} ${String((error as Error).stack)} ${JSON.stringify(error)}`),
    ]
    expect(errors).toHaveLength(1)
    // Any 8 characters of the key, raw or in any encoding (a cut or escaped leak counts too).
    for (const text of recorded) expect(findSecretLeak(text, CANARY)).toBeUndefined()
  })

  it('an approval-gated tool (approvals: "pending"): the model reads that it waits and must not retry, the host gets the approval_id, and resolving it runs the call once', async () => {
    const { dispatcher, calls } = adapterCatalog()
    const notices: unknown[] = []
    const { model, result } = await run(toAiSdkTools(dispatcher, { scope: SCOPE, onApprovalPending: (notice) => void notices.push(notice) }), [
      call('c1', 'ops__deploy', { target: 'prod' }),
      { text: 'waiting' },
    ])
    expect(notices).toHaveLength(1)
    const { approval_id } = notices[0] as { approval_id: string }
    expect(notices[0]).toEqual({ approval_id, tool_id: 'ops__deploy', tool_call_id: 'c1' })
    expect(toolResultsShown(model, 1)).toEqual([{ toolCallId: 'c1', output: { type: 'error-text', value: pendingText(approval_id) } }])
    const part = result.steps[0]!.content.find((p) => p.type === 'tool-error')!
    expect((part as { error: AiSdkToolError }).error.outcome).toEqual({ status: 'approval_pending', tool_call_id: 'c1', approval_id, text: pendingText(approval_id) })
    expect(calls.deploy).toEqual([])

    await dispatcher.approvals.resolve(approval_id, { decision: 'approved', profile_id: SCOPE.profile_id })
    expect(calls.deploy).toEqual([{ target: 'prod' }])
    const shown = await dispatcher.approvals.show(approval_id, { profile_id: SCOPE.profile_id })
    expect(shown.outcome).toMatchObject({ status: 'ok', result: { structured: { target: 'prod' } } })
  })

  it('an approval-gated tool without a profile to own a pending approval reads the typed denial', async () => {
    const { dispatcher, calls } = adapterCatalog()
    const { model } = await run(toAiSdkTools(dispatcher), [call('c1', 'ops__deploy', { target: 'prod' }), { text: 'done' }])
    const [shown] = toolResultsShown(model, 1)
    expect(shown!.output).toMatchObject({ type: 'error-text', value: expect.stringMatching(/^tool_denied \(approval_required\): /) })
    expect(calls.deploy).toEqual([])
  })

  it('ignores an onApprovalPending that throws or rejects: the model still reads the pending text', async () => {
    for (const onApprovalPending of [() => { throw new Error('host bug') }, () => Promise.reject(new Error('host bug')) as unknown as void]) {
      const { dispatcher } = adapterCatalog()
      const { model } = await run(toAiSdkTools(dispatcher, { scope: SCOPE, onApprovalPending }), [call('c1', 'ops__deploy', { target: 'prod' }), { text: 'done' }])
      expect(toolResultsShown(model, 1)[0]!.output).toMatchObject({ type: 'error-text', value: expect.stringMatching(/^approval_pending: approval_id=/) })
    }
  })
})

describe('toAiSdkTools with approvals: "framework" (the AI SDK tool-approval flow)', () => {
  async function requestApproval(dispatcher: Dispatcher) {
    const tools = toAiSdkTools(dispatcher, { scope: SCOPE, approvals: 'framework' })
    const first = await run(tools, [call('c1', 'ops__deploy', { target: 'prod' })])
    const request = first.result.content.find((part) => part.type === 'tool-approval-request')
    expect(request).toMatchObject({ type: 'tool-approval-request', toolCall: { toolCallId: 'c1', toolName: 'ops__deploy' } })
    const history: ModelMessage[] = [{ role: 'user', content: 'go' }, ...first.result.response.messages]
    return { tools, approvalId: (request as { approvalId: string }).approvalId, history }
  }

  it('stops for the SDK approval, and once approved runs the call exactly once with a single-use token', async () => {
    const { dispatcher, calls } = adapterCatalog()
    const { tools, approvalId, history } = await requestApproval(dispatcher)
    expect(calls.deploy).toEqual([])
    const approved: ModelMessage = { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true }] }
    const second = await run(tools, [{ text: 'deployed' }], [...history, approved])
    expect(calls.deploy).toEqual([{ target: 'prod' }])
    expect(toolResultsShown(second.model, 0).at(-1)).toEqual({ toolCallId: 'c1', output: { type: 'json', value: { target: 'prod' } } })
  })

  it('runs nothing when the host denies it in the SDK; the model reads the SDK denial', async () => {
    const { dispatcher, calls } = adapterCatalog()
    const { tools, approvalId, history } = await requestApproval(dispatcher)
    const denied: ModelMessage = { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: false, reason: 'not today' }] }
    const second = await run(tools, [{ text: 'ok' }], [...history, denied])
    expect(calls.deploy).toEqual([])
    expect(toolResultsShown(second.model, 0).at(-1)).toEqual({ toolCallId: 'c1', output: { type: 'execution-denied', reason: 'not today' } })
  })

  it('asks nothing for a tool the policy lets run, and runs it at once', async () => {
    const { dispatcher, calls } = adapterCatalog()
    const { result } = await run(toAiSdkTools(dispatcher, { scope: SCOPE, approvals: 'framework' }), [call('c1', 'notes__read', { id: 'n1' }), { text: 'done' }])
    expect(result.content.some((part) => part.type === 'tool-approval-request')).toBe(false)
    expect(calls.notes).toEqual([{ id: 'n1' }])
  })

  it('falls back to the pending flow when the call was not approved in the SDK (e.g. needsApproval was skipped)', async () => {
    const { dispatcher, calls } = adapterCatalog()
    const tools = toAiSdkTools(dispatcher, { scope: SCOPE, approvals: 'framework' })
    const execute = tools['ops__deploy']!.execute!
    const error = await Promise.resolve(execute({ target: 'prod' }, { toolCallId: 'c9', messages: [] })).catch((e: unknown) => e)
    expect(isAiSdkToolError(error)).toBe(true)
    expect((error as AiSdkToolError).outcome.status).toBe('approval_pending')
    expect(calls.deploy).toEqual([])
  })

  it('maps a token the approval stores cannot mint to a typed error the model reads', async () => {
    const { dispatcher, calls } = adapterCatalog()
    const { approvalId, history } = await requestApproval(dispatcher)
    const broken = { ...dispatcher, approvals: { ...dispatcher.approvals, mintApprovalToken: () => Promise.reject(new ToolError({ code: 'approval_unavailable', reason: 'store_failed', message: 'approval store failed' })) } } as Dispatcher
    const approved: ModelMessage = { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true }] }
    const second = await run(toAiSdkTools(broken, { scope: SCOPE, approvals: 'framework' }), [{ text: 'ok' }], [...history, approved])
    expect(toolResultsShown(second.model, 0).at(-1)).toEqual({
      toolCallId: 'c1',
      output: { type: 'error-text', value: 'approval_unavailable (store_failed): approval store failed' },
    })
    expect(calls.deploy).toEqual([])
  })
})

describe('toAiSdkTools misuse', () => {
  it('throws AiSdkOptionsError listing every problem at JSON Pointers into { dispatcher, options }', () => {
    const error = (() => {
      try {
        toAiSdkTools({} as Dispatcher, { scope: 'ws', approvals: 'later', approvalTokenTtlMs: 0, onApprovalPending: 1, bogus: true } as never)
      } catch (e) {
        return e
      }
    })() as { code: string; problems: Array<{ path: string; code: string }> }
    expect(isAiSdkOptionsError(error)).toBe(true)
    expect(isUsageError(error)).toBe(true)
    expect(error.code).toBe('ai_sdk_options_invalid')
    expect(error.problems.map((p) => `${p.path} ${p.code}`)).toEqual([
      '/dispatcher/invoke not_a_dispatcher',
      '/dispatcher/list not_a_dispatcher',
      '/dispatcher/describe not_a_dispatcher',
      '/options/bogus unknown_option',
      '/options/scope invalid_option',
      '/options/approvals invalid_option',
      '/options/approvalTokenTtlMs invalid_option',
      '/options/onApprovalPending invalid_option',
    ])
  })

  it('reports a Proxy whose traps throw as unreadable instead of letting the throw escape', () => {
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error('trap') }, get: () => { throw new Error('trap') } })
    const { dispatcher } = adapterCatalog()
    expect(() => toAiSdkTools(dispatcher, hostile)).toThrowError(expect.objectContaining({ code: 'ai_sdk_options_invalid' }))
  })

  it('refuses approvalTokenTtlMs without approvals: "framework"', () => {
    const { dispatcher } = adapterCatalog()
    expect(() => toAiSdkTools(dispatcher, { approvalTokenTtlMs: 1000 })).toThrowError(/approvalTokenTtlMs applies only with approvals: "framework"/)
    expect(() => toAiSdkTools(dispatcher, { approvals: 'framework', approvalTokenTtlMs: 1000 })).not.toThrow()
  })
})

describe('toAiSdkTools cancellation and scope resolvers', () => {
  it("forwards the AI SDK's abortSignal: aborting it aborts the handler's context.signal (call_aborted)", async () => {
    const { tool, running, abortSeen } = waitingTool()
    const execute = toAiSdkTools(createDispatcher({ tools: [tool] }))['slow__wait']!.execute!
    const controller = new AbortController()
    const pending = Promise.resolve(execute({}, { toolCallId: 'c1', messages: [], abortSignal: controller.signal })).catch((e: unknown) => e)
    await running
    controller.abort()
    const error = await pending
    expect(isAiSdkToolError(error) && [error.outcome.status, (error.outcome as { code?: string }).code]).toEqual(['error', 'tool_execution_failed'])
    expect(await abortSeen).toMatchObject({ code: 'tool_execution_failed', reason: 'call_aborted' })
  })

  it('a scope resolver that throws is a typed error the model reads, not a rejected generateText', async () => {
    const dispatcher = createDispatcher({ tools: [noteTool()] })
    const resolver = () => {
      throw new Error('host bug: no session')
    }
    const { model } = await run(toAiSdkTools(dispatcher, { scope: resolver }), [call('c1', 'notes__read', { id: 'n1' }), { text: 'done' }])
    expect(JSON.stringify(toolResultsShown(model, 1))).toContain('tool_invalid_input (request_invalid): invalid invoke request: the scope resolver threw')
  })
})
