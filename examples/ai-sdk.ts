/**
 * The example catalog as a Vercel AI SDK tool set (`result-views/ai`), driven by an offline mock
 * model through `generateText`: the model reads a session compact, then asks for the full record;
 * a bad `result_view` reads as the spec's typed error; a tool that needs approval waits on a
 * pending approval (the model is told not to retry) or, with `approvals: "framework"`, stops for
 * the AI SDK's own approval step and runs once the host approves it there.
 *
 * Run alone: `npx tsx examples/ai-sdk.ts` (or all examples: `npm run demo`). No network.
 */
import { pathToFileURL } from 'node:url'
import { generateText, type ModelMessage, type ToolSet } from 'ai'
import { createDispatcher, createPatternPolicy } from 'result-views'
import { toAiSdkTools } from 'result-views/ai'
import { scriptedModel, toolResultsShown, type ModelTurn } from './mock-model.js'
import { exampleTools } from './tools/catalog.js'
import { heading, line, utf8Bytes } from './print.js'

const SCOPE = { workspace_id: 'ws_example', session_id: 'sess-example', agent_name: 'general', profile_id: 'prof_default' }

/** Runs a scripted conversation and prints what the model read of each tool call. */
async function converse(tools: ToolSet, turns: readonly ModelTurn[], messages?: ModelMessage[]) {
  const model = scriptedModel(turns)
  const result = await generateText({ model, tools, ...(messages === undefined ? { prompt: 'Check sess-example.' } : { messages }), stopWhen: () => false })
  for (let index = 1; index < model.doGenerateCalls.length; index++) {
    const shown = toolResultsShown(model, index).at(-1)
    if (shown !== undefined) line(`model read (${shown.toolCallId}): ${describe(shown.output)}`)
  }
  return { model, result }
}

function describe(output: unknown): string {
  const o = output as { type: string; value?: unknown; reason?: string }
  if (o.type === 'json') return `json, ${utf8Bytes(o.value)} bytes, ${Object.keys((o.value as { session?: object }).session ?? {}).length} session fields`
  return `${o.type}: ${String(o.value ?? o.reason)}`
}

export async function aiSdk(): Promise<void> {
  const policy = createPatternPolicy({ owner: 'agent:general', toolsets: ['sessions', 'skills'], approval: 'non_read_only' })
  const dispatcher = createDispatcher({ tools: exampleTools(), policy })
  const pending: string[] = []
  const tools = toAiSdkTools(dispatcher, { scope: SCOPE, onApprovalPending: ({ approval_id }) => void pending.push(approval_id) })
  line(`tools: ${Object.keys(tools).join(', ')}`)

  heading('Compact by default, then the full record on request')
  await converse(tools, [
    { calls: [{ toolCallId: 'call-1', toolName: 'compozy__session_status', input: { session_id: 'sess-example' } }] },
    { calls: [{ toolCallId: 'call-2', toolName: 'compozy__session_status', input: { session_id: 'sess-example', result_view: 'full' } }] },
    { text: 'done' },
  ])

  heading('A bad selector is the spec\'s typed error, read by the model as a tool error')
  await converse(tools, [{ calls: [{ toolCallId: 'call-3', toolName: 'compozy__session_status', input: { session_id: 'sess-example', result_view: 'huge' } }] }, { text: 'done' }])

  heading('approvals: "pending": the call waits on the dispatcher; the host resolves it, which runs it once')
  const create = { agent_name: 'general', name: 'Fix flaky upload test' }
  await converse(tools, [{ calls: [{ toolCallId: 'call-4', toolName: 'compozy__session_create', input: create }] }, { text: 'waiting' }])
  for (const id of pending) {
    const resolved = await dispatcher.approvals.resolve(id, { decision: 'approved', profile_id: SCOPE.profile_id })
    line(`host resolved ${id}: status=${resolved.status} execution_status=${resolved.execution_status} outcome=${resolved.outcome?.status}`)
  }

  heading('approvals: "framework": the AI SDK stops for its own approval; approved, the call runs with a single-use token')
  const framework = toAiSdkTools(dispatcher, { scope: SCOPE, approvals: 'framework' })
  const first = await converse(framework, [{ calls: [{ toolCallId: 'call-5', toolName: 'compozy__session_create', input: create }] }])
  const request = first.result.content.find((part) => part.type === 'tool-approval-request')
  line(`generateText stopped with: ${request?.type} for ${request?.toolCall.toolName} (${request?.toolCall.toolCallId})`)
  if (request === undefined) return
  const history: ModelMessage[] = [
    { role: 'user', content: 'Check sess-example.' },
    ...first.result.response.messages,
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] },
  ]
  const second = await converse(framework, [{ text: 'created' }], history)
  const shown = toolResultsShown(second.model, 0).at(-1)
  line(`after approval, model read (${shown?.toolCallId}): ${describe(shown?.output)}`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await aiSdk()
