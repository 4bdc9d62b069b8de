import { Agent, RunContext, Runner } from '@openai/agents'
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { findSecretLeak } from 'result-views/testing'
import { createDispatcher, defineTool, isUsageError, type Dispatcher } from 'result-views'
import { isAgentsOptionsError, toAgentsTools, type AgentsToolsOptions } from 'result-views/openai-agents'
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
import { noteTool } from '../support/tools.js'
import { waitingTool } from '../support/waiting-tool.js'

type Turn = ReadonlyArray<{ name: string; input: unknown; callId: string }> | string

/** A ScriptedModel (the SDK's own offline test double) playing the turns; a string turn is the final answer. */
function scripted(turns: readonly Turn[]): ScriptedModel {
  return new ScriptedModel(turns.map((turn) => (typeof turn === 'string' ? [assistantMessage(turn)] : turn.map((c) => functionCall(c.name, c.input as Record<string, unknown>, { callId: c.callId })))))
}

const runner = new Runner({ tracingDisabled: true })

async function run(dispatcher: Dispatcher, turns: readonly Turn[], options?: AgentsToolsOptions, context?: unknown) {
  const model = scripted(turns)
  const agent = new Agent({ name: 'assistant', instructions: 'Use the tools.', model, tools: toAgentsTools(dispatcher, options) })
  const result = await runner.run(agent, 'go', context === undefined ? {} : { context })
  return { model, agent, result }
}

/** The function-call outputs the model was sent in its last request, by call ID. */
function outputsShown(model: ScriptedModel): Record<string, unknown> {
  const input = model.lastCall?.request.input
  const items = Array.isArray(input) ? input : []
  return Object.fromEntries(
    items.flatMap((item) => (item.type === 'function_call_result' ? [[item.callId, (item.output as { text?: string }).text ?? item.output]] : [])),
  )
}

describe('toAgentsTools: the tools', () => {
  it('has one strict: false function tool per descriptor with the descriptor description and its 2020-12 parameters', () => {
    const { dispatcher } = adapterCatalog()
    const tools = toAgentsTools(dispatcher)
    expect(tools.map((t) => t.name)).toEqual(dispatcher.list().map((d) => d.tool_id))
    const notes = tools[0]!
    expect(notes.strict).toBe(false)
    expect(notes.description).toBe('Read one note.')
    expect((notes.parameters as Record<string, any>).properties.result_view).toEqual({ type: 'string', enum: ['compact', 'full'], default: 'compact' })
    expect((tools[1]!.parameters as Record<string, any>).properties).not.toHaveProperty('result_view')
  })

  it('refuses two tool IDs that become one function name', () => {
    const make = (id: string) => defineTool({ id, description: id, input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })
    const dispatcher = createDispatcher({ tools: [make('a-b'), make('a_b'), make('a.c')] })
    expect(() => toAgentsTools(dispatcher)).toThrowError(
      expect.objectContaining({
        code: 'openai_agents_options_invalid',
        problems: [{ path: '/dispatcher/list/1', code: 'tool_name_collision', message: 'tool "a_b" and tool "a-b" both become the function name "a_b"' }],
      }),
    )
  })

  it('calls the dispatcher with the real tool ID when the function name differs', async () => {
    const dispatcher = createDispatcher({
      tools: [defineTool({ id: 'notes.read', description: 'x', input: Type.Object({}), output: Type.Object({ ok: Type.Boolean() }), handler: () => ({ ok: true }) })],
    })
    const { model } = await run(dispatcher, [[{ name: 'notes_read', input: {}, callId: 'c1' }], 'done'])
    expect(outputsShown(model)).toEqual({ c1: '{"ok":true}' })
  })
})

describe('toAgentsTools through run() (ScriptedModel, offline)', () => {
  it('a model calls a viewed tool compact, then full: the model reads each selected view record as JSON', async () => {
    const { dispatcher, calls } = adapterCatalog()
    const { model, result } = await run(dispatcher, [
      [{ name: 'notes__read', input: { id: 'n1' }, callId: 'c1' }],
      [{ name: 'notes__read', input: { id: 'n1', result_view: 'full' }, callId: 'c2' }],
      'done',
    ])
    expect(result.finalOutput).toBe('done')
    const outputs = result.newItems.flatMap((item) => (item.type === 'tool_call_output_item' ? [item.output] : []))
    expect(outputs).toEqual([JSON.stringify(NOTE_COMPACT), JSON.stringify(NOTE_FULL)])
    expect(JSON.stringify(model.calls[1]!.request.input)).not.toContain('eggs, milk')
    expect(outputsShown(model)).toEqual({ c1: JSON.stringify(NOTE_COMPACT), c2: JSON.stringify(NOTE_FULL) })
    expect(calls.notes).toEqual([{ id: 'n1' }, { id: 'n1' }])
  })

  it('passes the call ID and the scope (fixed or from the run context) to invoke', async () => {
    const { dispatcher } = adapterCatalog()
    const seen: unknown[] = []
    dispatcher.hook('tool.post_call', (payload) => void seen.push({ tool_call_id: payload.tool_call_id, scope: payload.scope }))
    await run(dispatcher, [[{ name: 'notes__read', input: { id: 'n1' }, callId: 'call-5' }], 'done'], { scope: SCOPE })
    await run(dispatcher, [[{ name: 'notes__read', input: { id: 'n1' }, callId: 'call-6' }], 'done'], { scope: ({ context }) => ({ workspace_id: (context as { ws: string }).ws }) }, { ws: 'ws-2' })
    expect(seen).toEqual([
      { tool_call_id: 'call-5', scope: SCOPE },
      { tool_call_id: 'call-6', scope: { workspace_id: 'ws-2' } },
    ])
  })

  it('spec 000 "Errors" rows 1-3: the model reads code, reason and the dispatch message, and the tool does not run', async () => {
    const { dispatcher, calls } = adapterCatalog()
    const { model } = await run(dispatcher, [
      [
        { name: 'notes__read', input: { id: 'n1', result_view: 'huge' }, callId: 'c1' },
        { name: 'notes__read', input: { id: 'n1', result_view: 7 }, callId: 'c2' },
        { name: 'skills__view', input: { skill_id: 's', result_view: 'full' }, callId: 'c3' },
      ],
      'done',
    ])
    expect(outputsShown(model)).toEqual({ c1: UNKNOWN_VIEW_TEXT, c2: UNKNOWN_VIEW_TEXT, c3: SINGLE_RESULT_VIEW_TEXT })
    expect(calls.notes).toEqual([])
    expect(calls.skills).toEqual([])
  })

  it('keeps the legacy invalid_request code of a tool that declares it', async () => {
    const dispatcher = createDispatcher({ tools: [noteTool([], { inputErrorCode: 'invalid_request' })] })
    const { model } = await run(dispatcher, [[{ name: 'notes__read', input: { id: 'n1', result_view: 'huge' }, callId: 'c1' }], 'done'])
    expect(outputsShown(model)).toEqual({ c1: 'invalid_request (schema_invalid): tool "notes__read" input "result_view" must be one of "compact", "full"' })
  })

  it('a sensitive field: the canary a hook injects reaches the handler and nothing the run records (items, history, state, model requests)', async () => {
    const { dispatcher, calls } = adapterCatalog()
    const { model, result } = await run(
      dispatcher,
      [
        [
          { name: 'vault__fetch', input: { item: 'db' }, callId: 'c1' },
          { name: 'vault__fetch', input: { item: 'missing' }, callId: 'c2' },
        ],
        'done',
      ],
      { scope: SCOPE },
    )
    expect(calls.vault).toEqual([{ item: 'db', api_key: CANARY }, { item: 'missing', api_key: CANARY }])
    expect(outputsShown(model)).toEqual({
      c1: '{"item":"db","found":true}',
      c2: 'tool_execution_failed (handler_failed): tool "vault__fetch" failed: vault refused key [REDACTED] for item "missing"',
    })
    const recorded = [
      JSON.stringify(result.newItems.map((item) => item.toJSON())),
      JSON.stringify(result.history),
      JSON.stringify(result.state),
      JSON.stringify(model.calls.map((c) => c.request.input)),
    ]
    // Any 8 characters of the key, raw or in any encoding (a cut or escaped leak counts too).
    for (const text of recorded) expect(findSecretLeak(text, CANARY)).toBeUndefined()
  })

  it('an approval-gated tool (approvals: "pending"): the model reads that it waits and must not retry, the host gets the approval_id, and resolving it runs the call once', async () => {
    const { dispatcher, calls } = adapterCatalog()
    const notices: Array<{ approval_id: string }> = []
    const { model } = await run(dispatcher, [[{ name: 'ops__deploy', input: { target: 'prod' }, callId: 'c1' }], 'waiting'], {
      scope: SCOPE,
      onApprovalPending: (notice) => void notices.push(notice),
    })
    expect(notices).toEqual([{ approval_id: expect.any(String), tool_id: 'ops__deploy', tool_call_id: 'c1' }])
    const id = notices[0]!.approval_id
    expect(outputsShown(model)).toEqual({ c1: pendingText(id) })
    expect(calls.deploy).toEqual([])
    await dispatcher.approvals.resolve(id, { decision: 'approved', profile_id: SCOPE.profile_id })
    expect(calls.deploy).toEqual([{ target: 'prod' }])
  })
})

describe('toAgentsTools with approvals: "framework" (run interruptions)', () => {
  async function interrupted() {
    const { dispatcher, calls } = adapterCatalog()
    const model = scripted([[{ name: 'ops__deploy', input: { target: 'prod' }, callId: 'c1' }], 'deployed'])
    const agent = new Agent({ name: 'assistant', instructions: 'Use the tools.', model, tools: toAgentsTools(dispatcher, { scope: SCOPE, approvals: 'framework' }) })
    const first = await runner.run(agent, 'go')
    expect(first.interruptions.map((item) => item.toolName)).toEqual(['ops__deploy'])
    expect(calls.deploy).toEqual([])
    return { agent, model, first, calls }
  }

  it('interrupts the run for approval, and once approved runs the call exactly once with a single-use token', async () => {
    const { agent, model, first, calls } = await interrupted()
    first.state.approve(first.interruptions[0]!)
    const second = await runner.run(agent, first.state)
    expect(second.finalOutput).toBe('deployed')
    expect(calls.deploy).toEqual([{ target: 'prod' }])
    expect(outputsShown(model)).toEqual({ c1: '{"target":"prod"}' })
  })

  it('runs nothing when the host rejects it', async () => {
    const { agent, first, calls } = await interrupted()
    first.state.reject(first.interruptions[0]!)
    await runner.run(agent, first.state)
    expect(calls.deploy).toEqual([])
  })

  it('asks nothing for a tool the policy lets run', async () => {
    const { dispatcher, calls } = adapterCatalog()
    const { result } = await run(dispatcher, [[{ name: 'notes__read', input: { id: 'n1' }, callId: 'c1' }], 'done'], { scope: SCOPE, approvals: 'framework' })
    expect(result.interruptions).toEqual([])
    expect(calls.notes).toEqual([{ id: 'n1' }])
  })
})

describe('toAgentsTools misuse', () => {
  it('throws AgentsOptionsError listing every problem', () => {
    let error: unknown
    try {
      toAgentsTools({ invoke: () => undefined } as unknown as Dispatcher, { approvals: 'framework', scope: [] } as never)
    } catch (e) {
      error = e
    }
    expect(isAgentsOptionsError(error)).toBe(true)
    expect(isUsageError(error)).toBe(true)
    expect((error as { problems: Array<{ path: string }> }).problems.map((p) => p.path)).toEqual([
      '/dispatcher/list',
      '/dispatcher/describe',
      '/options/scope',
      '/dispatcher/approvals/mintApprovalToken',
    ])
  })

  it('turns a scope resolver that throws into a typed error the model reads, never a rejected run()', async () => {
    const { dispatcher, calls } = adapterCatalog()
    const resolver = () => {
      throw new Error('host bug: no session')
    }
    const { model } = await run(dispatcher, [[{ name: 'notes__read', input: { id: 'n1' }, callId: 'c1' }], 'done'], { scope: resolver })
    expect(outputsShown(model)).toEqual({ c1: 'tool_invalid_input (request_invalid): invalid invoke request: the scope resolver threw' })
    expect(calls.notes).toEqual([])
  })
})

describe('toAgentsTools cancellation', () => {
  it("forwards the Agents SDK's details.signal: aborting it aborts the handler's context.signal (call_aborted)", async () => {
    const { tool, running, abortSeen } = waitingTool()
    const [agentsTool] = toAgentsTools(createDispatcher({ tools: [tool] }))
    const controller = new AbortController()
    const text = agentsTool!.invoke(new RunContext(), '{}', { signal: controller.signal })
    await running
    controller.abort()
    expect(await text).toBe('tool_execution_failed (call_aborted): tool "slow__wait" call was aborted by the caller while the tool ran')
    expect(await abortSeen).toMatchObject({ code: 'tool_execution_failed', reason: 'call_aborted' })
  })
})
