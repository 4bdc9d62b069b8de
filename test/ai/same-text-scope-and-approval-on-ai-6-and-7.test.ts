// Regression: forced onto ai 7, the adapter showed the model "AiSdkToolError: <text>" (ai 7 shows
// `error.toString()` of a tool error, ai 6 its `message`), resolved an empty scope (ai 7 hands a
// tool its `toolsContext` entry as `context`; `experimental_context` is gone), and had no answer to
// ai 7's call-level `toolApproval`. These run on both majors (scripts/matrix.mjs runs test/ai on
// ai 7); the call-level approval through generateText only where the SDK has it.
import { generateText, type ModelMessage, type ToolSet } from 'ai'
import { describe, expect, it } from 'vitest'
import { aiSdkToolApproval, isAiSdkToolError, toAiSdkTools } from 'result-views/ai'
import { adapterCatalog, pendingText, SCOPE, UNKNOWN_VIEW_TEXT } from '../support/adapter-catalog.js'
import { AI_MAJOR, perCallContext } from '../support/ai-sdk-major.js'
import { scriptedModel, toolResultsShown, type ModelTurn } from '../support/ai-sdk-model.js'

const call = (toolCallId: string, toolName: string, input: unknown) => ({ calls: [{ toolCallId, toolName, input }] })
const untilText = ({ steps }: { steps: ReadonlyArray<{ content: ReadonlyArray<{ type: string }> }> }) => steps.at(-1)?.content.some((part) => part.type === 'text') ?? false

async function run(tools: ToolSet, turns: readonly ModelTurn[], extra: Record<string, unknown> = {}, messages?: ModelMessage[]) {
  const model = scriptedModel(turns)
  const result = await generateText({ model, tools, ...(messages === undefined ? { prompt: 'go' } : { messages }), stopWhen: untilText, ...(extra as Record<string, never>) })
  return { model, result }
}

describe(`the AI SDK adapter on ai ${AI_MAJOR}`, () => {
  it('shows the model the outcome text itself, with no "AiSdkToolError: " prefix, for a typed error and a pending approval', async () => {
    const { dispatcher } = adapterCatalog()
    const notices: string[] = []
    const { model } = await run(toAiSdkTools(dispatcher, { scope: SCOPE, onApprovalPending: ({ approval_id }) => void notices.push(approval_id) }), [
      { calls: [{ toolCallId: 'c1', toolName: 'notes__read', input: { id: 'n1', result_view: 'huge' } }, { toolCallId: 'c2', toolName: 'ops__deploy', input: { target: 'prod' } }] },
      { text: 'done' },
    ])
    expect(toolResultsShown(model, 1)).toEqual([
      { toolCallId: 'c1', output: { type: 'error-text', value: UNKNOWN_VIEW_TEXT } },
      { toolCallId: 'c2', output: { type: 'error-text', value: pendingText(notices[0]!) } },
    ])
  })

  it('an AiSdkToolError reads as its text through String(), toString() and message alike', async () => {
    const { dispatcher } = adapterCatalog()
    const error = await Promise.resolve(toAiSdkTools(dispatcher)['notes__read']!.execute!({ id: 'n1', result_view: 'huge' }, { toolCallId: 'c1', messages: [] })).catch((e: unknown) => e)
    expect(isAiSdkToolError(error)).toBe(true)
    expect([String(error), (error as Error).toString(), (error as Error).message]).toEqual([UNKNOWN_VIEW_TEXT, UNKNOWN_VIEW_TEXT, UNKNOWN_VIEW_TEXT])
    expect((error as Error).name).toBe('AiSdkToolError')
  })

  it("resolves the scope from the major's per-call context, for execute and for the approval check", async () => {
    const { dispatcher, calls } = adapterCatalog()
    const seen: unknown[] = []
    dispatcher.hook('tool.post_call', (payload) => void seen.push(payload.scope))
    const scope = ({ context }: { context: unknown }) => (context as { scope: typeof SCOPE } | undefined)?.scope
    const tools = toAiSdkTools(dispatcher, { scope, approvals: 'framework' })
    const { result } = await run(tools, [call('c1', 'notes__read', { id: 'n1' }), call('c2', 'ops__deploy', { target: 'prod' })], perCallContext(tools, { scope: SCOPE }))
    expect(seen).toEqual([SCOPE])
    // ops__deploy needs approval in SCOPE (the scope the context gave): the SDK stops for its step.
    expect(result.content.find((part) => part.type === 'tool-approval-request')).toMatchObject({ toolCall: { toolCallId: 'c2', toolName: 'ops__deploy' } })
    expect(calls.deploy).toEqual([])
  })
})

describe('aiSdkToolApproval: ai 7 call-level toolApproval', () => {
  it('answers "user-approval" where the dispatcher says approval_required in the scope of the call toolContext, and nothing for a tool that may run', async () => {
    const { dispatcher } = adapterCatalog()
    const tools = toAiSdkTools(dispatcher, { scope: ({ context }) => context as typeof SCOPE, approvals: 'framework' })
    const approval = aiSdkToolApproval(tools)
    expect(Object.keys(approval)).toEqual(Object.keys(tools))
    expect(await approval['ops__deploy']!({ target: 'prod' }, { toolCallId: 'c1', toolContext: SCOPE })).toBe('user-approval')
    expect(await approval['notes__read']!({ id: 'n1' }, { toolCallId: 'c2', toolContext: SCOPE })).toBeUndefined()
  })

  it('keys entries as the tool set does (renamed keys too) and leaves out tools it did not build with approvals: "framework"', () => {
    const { dispatcher } = adapterCatalog()
    const framework = toAiSdkTools(dispatcher, { scope: SCOPE, approvals: 'framework' })
    const pending = toAiSdkTools(dispatcher, { scope: SCOPE })
    const mixed: ToolSet = { deploy: framework['ops__deploy']!, notes__read: pending['notes__read']!, host__tool: { ...framework['ops__deploy']! } }
    expect(Object.keys(aiSdkToolApproval(mixed))).toEqual(['deploy'])
    expect(aiSdkToolApproval(pending)).toEqual({})
    for (const odd of [null, undefined, 7, new Proxy({}, { ownKeys: () => { throw new Error('trap') } })]) expect(aiSdkToolApproval(odd as never)).toEqual({})
  })

  it.runIf(AI_MAJOR >= 7)('drives the SDK approval step alone (no tool-level needsApproval), and the approved call runs once with a token', async () => {
    const { dispatcher, calls } = adapterCatalog()
    const built = toAiSdkTools(dispatcher, { scope: SCOPE, approvals: 'framework' })
    const toolApproval = aiSdkToolApproval(built)
    // Without the deprecated tool-level check, only the call-level setting can stop the call.
    const tools: ToolSet = Object.fromEntries(Object.entries(built).map(([id, { needsApproval: _dropped, ...rest }]) => [id, rest]))
    const first = await run(tools, [call('c1', 'ops__deploy', { target: 'prod' })], { toolApproval })
    const request = first.result.content.find((part) => part.type === 'tool-approval-request') as { approvalId: string } | undefined
    expect(request).toMatchObject({ toolCall: { toolCallId: 'c1', toolName: 'ops__deploy' } })
    expect(calls.deploy).toEqual([])
    const approved: ModelMessage = { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved: true }] }
    const second = await run(tools, [{ text: 'deployed' }], { toolApproval }, [{ role: 'user', content: 'go' }, ...first.result.response.messages, approved])
    expect(calls.deploy).toEqual([{ target: 'prod' }])
    expect(toolResultsShown(second.model, 0).at(-1)).toEqual({ toolCallId: 'c1', output: { type: 'json', value: { target: 'prod' } } })
  })
})
