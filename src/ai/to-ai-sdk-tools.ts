import { jsonSchema, tool, type JSONSchema7, type JSONValue, type Tool, type ToolSet } from 'ai'
import { toModelSchema, type Dispatcher, type ToolDescriptor } from 'result-views'
import { needsFrameworkApproval, runFrameworkCall } from '../framework-call/framework-call.js'
import { checkFrameworkOptions, frameworkCatalog, type FrameworkToolsOptions, type ResolvedFrameworkOptions } from '../framework-call/framework-options.js'
import { AiSdkOptionsError } from './ai-sdk-options-error.js'
import { AiSdkToolError } from './ai-sdk-tool-error.js'
import { approvedBySdk } from './sdk-approval.js'

/** Options of {@link toAiSdkTools} (`docs/adapters.md` "Options"). */
export interface AiSdkToolsOptions extends FrameworkToolsOptions {}

/**
 * The dispatcher's catalog as a Vercel AI SDK tool set (`ai` 6): one `tool()` per descriptor of
 * `dispatcher.list()`, keyed by tool ID, for `generateText({ tools })` / `streamText({ tools })`.
 *
 * - `description`: the descriptor's; `inputSchema`: `jsonSchema(toModelSchema(input_schema))`,
 *   which lists `result_view` for tools with views. No SDK-side validation: the input goes to the
 *   dispatcher as the model sent it, so a bad `result_view` reads as the spec's typed error.
 * - `execute(input, { toolCallId, abortSignal })` calls `dispatcher.invoke({ tool_id, input,
 *   scope, tool_call_id: toolCallId, signal: abortSignal })`: aborting the run cancels the call. `ok`: the tool output is the selected view's record (the model
 *   reads its JSON). A typed error or a pending approval: `execute` throws an `AiSdkToolError`,
 *   which the SDK records as a `tool-error` part; the model reads `"<code> (<reason>):
 *   <message>"` or the pending text of `outcomeForModel` (never retry; runs once approved).
 * - `approvals: 'framework'` adds `needsApproval`, so the SDK stops for its own approval step
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
  return tool<unknown, unknown>({
    description: descriptor.description,
    inputSchema: jsonSchema<unknown>(toModelSchema(descriptor.input_schema) as JSONSchema7),
    execute: async (input, { toolCallId, messages, experimental_context, abortSignal }) => {
      const model = await runFrameworkCall(dispatcher, options, {
        tool_id: toolId,
        tool_call_id: toolCallId,
        context: experimental_context,
        input,
        approved: framework && approvedBySdk(messages, toolCallId, toolId, input),
        signal: abortSignal,
      })
      if (model.status !== 'ok') throw new AiSdkToolError(model)
      return model.record
    },
    // The record as JSON, strings included, so the model reads what every other surface shows.
    toModelOutput: ({ output }) => ({ type: 'json', value: (output ?? null) as JSONValue }),
    ...(framework
      ? {
          needsApproval: (_input: unknown, { toolCallId, experimental_context }: { toolCallId: string; experimental_context?: unknown }) =>
            needsFrameworkApproval(dispatcher, options, { tool_id: toolId, tool_call_id: toolCallId, context: experimental_context }),
        }
      : {}),
  })
}
