import { jsonSchema, tool, type JSONSchema7, type JSONValue, type Tool, type ToolSet } from 'ai'
import { toModelSchema, type Dispatcher, type ToolDescriptor } from 'result-views'
import { needsFrameworkApproval, runFrameworkCall } from '../framework-call/framework-call.js'
import { checkFrameworkOptions, frameworkCatalog, type FrameworkToolsOptions, type ResolvedFrameworkOptions } from '../framework-call/framework-options.js'
import { AiSdkOptionsError } from './ai-sdk-options-error.js'
import { AiSdkToolError } from './ai-sdk-tool-error.js'
import { approvedBySdk } from './sdk-approval.js'
import { sdkContextOf } from './sdk-context.js'
import { rememberApprovalCheck, type aiSdkToolApproval } from './sdk-tool-approval.js'

/** Options of {@link toAiSdkTools} (`docs/adapters.md` "Options"). */
export interface AiSdkToolsOptions extends FrameworkToolsOptions {}

/**
 * The dispatcher's catalog as a Vercel AI SDK tool set (`ai` 6.0.114+ and 7, the same tools): one `tool()` per descriptor of
 * `dispatcher.list()`, keyed by tool ID, for `generateText({ tools })` / `streamText({ tools })`.
 *
 * - `description`: the descriptor's; `inputSchema`: `jsonSchema(toModelSchema(input_schema))`,
 *   which lists `result_view` for tools with views. No SDK-side validation: the input goes to the
 *   dispatcher as the model sent it, so a bad `result_view` reads as the spec's typed error.
 * - `execute(input, { toolCallId, abortSignal, context })` calls `dispatcher.invoke({ tool_id, input,
 *   scope, tool_call_id: toolCallId, signal: abortSignal })`: aborting the run cancels the call. A
 *   `scope` function reads the call's context: ai 7's tool `context` (the tool's entry of
 *   `toolsContext`), ai 6's `experimental_context`. `ok`: the tool output is the selected view's record (the model
 *   reads its JSON). A typed error or a pending approval: `execute` throws an `AiSdkToolError`,
 *   which the SDK records as a `tool-error` part; the model reads `"<code> (<reason>):
 *   <message>"` or the pending text of `outcomeForModel` (never retry; runs once approved).
 * - `approvals: 'framework'` adds `needsApproval` (ai 6; ai 7 still honours it, and
 *   {@link aiSdkToolApproval} gives ai 7's call-level `toolApproval` with the same decision), so
 *   the SDK stops for its own approval step
 *   (`tool-approval-request`) on calls whose tool needs approval in the call's scope; when the host
 *   answers `tool-approval-response` with `approved: true`, `execute` mints a single-use approval
 *   token bound to the tool, scope and input and invokes with it.
 *
 * Built once: the tool set reflects the catalog when called (a dispatcher's catalog is fixed).
 *
 * @throws AiSdkOptionsError (`code: 'ai_sdk_options_invalid'`) for a dispatcher that is not one or
 *   bad options; `problems` lists every problem.
 */
export function toAiSdkTools(dispatcher: Dispatcher, options?: AiSdkToolsOptions): ToolSet {
  const check = checkFrameworkOptions(dispatcher, options)
  if (!check.ok) throw new AiSdkOptionsError(check.problems)
  const catalog = frameworkCatalog(dispatcher)
  if (!catalog.ok) throw new AiSdkOptionsError(catalog.problems)
  const tools: ToolSet = {}
  for (const descriptor of catalog.descriptors) {
    Object.defineProperty(tools, descriptor.tool_id, { value: aiSdkTool(dispatcher, check.options, descriptor), enumerable: true, writable: true, configurable: true })
  }
  return tools
}

function aiSdkTool(dispatcher: Dispatcher, options: ResolvedFrameworkOptions, descriptor: ToolDescriptor): Tool<unknown, unknown> {
  const toolId = descriptor.tool_id
  const framework = options.approvals === 'framework'
  // One approval decision for ai 6's tool-level `needsApproval` (still honoured by ai 7) and ai 7's
  // call-level `toolApproval` (`aiSdkToolApproval`): the options are the SDK's callback options.
  const needsApproval = (sdkOptions: unknown): Promise<boolean> =>
    needsFrameworkApproval(dispatcher, options, { tool_id: toolId, tool_call_id: callIdOf(sdkOptions), context: sdkContextOf(sdkOptions) })
  const built = tool<unknown, unknown>({
    description: descriptor.description,
    inputSchema: jsonSchema<unknown>(toModelSchema(descriptor.input_schema) as JSONSchema7),
    execute: async (input, sdkOptions) => {
      const { toolCallId, messages, abortSignal } = sdkOptions
      const model = await runFrameworkCall(dispatcher, options, {
        tool_id: toolId,
        tool_call_id: toolCallId,
        context: sdkContextOf(sdkOptions),
        input,
        approved: framework && approvedBySdk(messages, toolCallId, toolId, input),
        signal: abortSignal,
      })
      if (model.status !== 'ok') throw new AiSdkToolError(model)
      return model.record
    },
    // The record as JSON, strings included, so the model reads what every other surface shows.
    toModelOutput: ({ output }) => ({ type: 'json', value: (output ?? null) as JSONValue }),
    ...(framework ? { needsApproval: (_input: unknown, sdkOptions: unknown) => needsApproval(sdkOptions) } : {}),
  })
  if (framework) rememberApprovalCheck(built, needsApproval)
  return built
}

/** The SDK's `toolCallId` of an approval callback's options, when it is a string. */
function callIdOf(sdkOptions: unknown): string | undefined {
  try {
    const id = typeof sdkOptions === 'object' && sdkOptions !== null ? (sdkOptions as { toolCallId?: unknown }).toolCallId : undefined
    return typeof id === 'string' ? id : undefined
  } catch {
    return undefined
  }
}
