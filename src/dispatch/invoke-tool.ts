import { randomUUID } from 'node:crypto'
import type { InvokeError, InvokeOk, InvokeOutcome, InvokePending, InvokeRequest } from '../call/call.js'
import { isToolError, type ToolError } from '../errors/tool-error.js'
import { UsageError, type UsageProblem } from '../errors/usage-error.js'
import { optionsTable, readOptions } from '../options/options.js'
import type { ToolRecord } from '../tool/static-types.js'
import type { Tool, ViewedTool } from '../tool/types.js'
import { toolMismatch, unknownTool } from '../tool/unknown-tool.js'
import { DEFAULT_VIEW, RESULT_VIEW_KEY, isView, type View } from '../views/view.js'
import { requestInvalid } from './errors.js'
import { typedCallArguments, type HeldDispatcher } from './held-dispatchers.js'
import type { Dispatcher } from './types.js'

/**
 * What `invokeTool` takes (`docs/views.md` "Typed calls"): an `InvokeRequest` without `tool_id`
 * (the tool names itself), whose `input` is typed by the tool (`ToolInput`).
 */
export interface ToolCallRequest<Input> extends Omit<InvokeRequest, 'tool_id' | 'input'> {
  /** The tool input: its input schema's `Static` type, with an optional `result_view` on a viewed tool. */
  readonly input: Input
}

/**
 * A successful typed call: `result.structured` is `ToolRecord<T, V>`. On a viewed tool one member
 * per view in `V`, each with its `result_view`, so a `View`-typed selector narrows on
 * `outcome.result_view`.
 */
export type ToolCallOk<T extends Tool, V extends View = 'compact'> =
  T extends ViewedTool ? (V extends View ? InvokeOk<ToolRecord<T, V>> & { readonly result_view: V } : never) : InvokeOk<ToolRecord<T>>

/** What `invokeTool` resolves to: {@link ToolCallOk}, or the same error and pending outcomes as `invoke`. */
export type ToolCallOutcome<T extends Tool, V extends View = 'compact'> = ToolCallOk<T, V> | InvokeError | InvokePending

/**
 * Runs one call of a tool the caller holds, typed by its schemas (`docs/views.md` "Typed calls"):
 * `request.input` is the input schema's `Static` type plus an optional `result_view`, and an ok
 * outcome's `result.structured` is the compact schema's `Static` type for `'compact'` (or no
 * selector) and the full schema's for `'full'`.
 *
 * The call goes through `dispatcher.invoke` unchanged (every check runs, nothing is cast at run
 * time), with the tool's ID and, on a viewed tool, `pinned_result_view` set to the selected view
 * (unless the request pins one), so a pre-call hook cannot hand back the other view's record.
 *
 * @param dispatcher - a dispatcher `createDispatcher` returned (not a wrapper: its catalog is read).
 * @param tool - the tool, as `defineTool` returned it.
 * @returns the outcome; `tool_not_found` / `unknown_tool` when the dispatcher has no tool of that
 *   ID, `tool_not_found` / `tool_mismatch` when it holds another tool object under it (no event
 *   fires for either), `tool_invalid_input` / `request_invalid` for a request that is not an object
 *   or cannot be read; otherwise what `invoke` returns.
 * @throws UsageError `invoke_tool_argument_invalid` (as a rejection) for a dispatcher
 *   `createDispatcher` did not return (`/dispatcher`, `not_a_dispatcher`) or a tool `defineTool`
 *   did not return (`/tool`, `not_a_defined_tool`).
 */
export function invokeTool<T extends Tool, In, const V extends View = 'compact'>(
  dispatcher: Dispatcher,
  tool: T & { readonly '~static'?: { readonly input: In } },
  // The input type comes from the tool alone (NoInfer), the view from the literal; a Tool of
  // unknown schemas takes any object. Only a viewed tool's selector is a view: a single-result
  // tool's input is its schema's type alone: the type of its own result_view field, if its schema
  // has one (an extension tool's), else never.
  request: ToolCallRequest<
    NoInfer<unknown extends In ? { readonly [key: string]: unknown } : In> & {
      readonly result_view?: T extends ViewedTool ? V : NoInfer<In extends { readonly result_view?: infer R } ? R : never>
    }
  >,
): Promise<ToolCallOutcome<T, V>>
export async function invokeTool(dispatcher: Dispatcher, tool: Tool, request: ToolCallRequest<unknown>): Promise<InvokeOutcome> {
  const { held, toolId } = checkedArguments(dispatcher, tool)
  const fields = requestFields(request)
  if (isToolError(fields)) return { status: 'error', tool_call_id: randomUUID(), error: fields }
  const toolCallId = typeof fields.tool_call_id === 'string' ? fields.tool_call_id : undefined
  const registered = held.tools.get(toolId)
  if (registered === undefined || registered !== tool) {
    return { status: 'error', tool_call_id: toolCallId ?? randomUUID(), error: registered === undefined ? unknownTool(toolId) : toolMismatch(toolId) }
  }
  // The tool is the catalog's own (frozen) object from here on, so reading it cannot throw.
  const pinned = fields.pinned_result_view ?? (registered.kind === 'viewed' ? selectedView(fields.input) : undefined)
  // Absent fields stay undefined, which invoke reads as absent; invoke checks every field again.
  return held.invoke({ ...fields, tool_id: toolId, pinned_result_view: pinned })
}

/**
 * The dispatcher's own parts and the tool's ID.
 *
 * @throws UsageError `invoke_tool_argument_invalid` listing both problems at once.
 */
function checkedArguments(dispatcher: unknown, tool: unknown): { held: HeldDispatcher; toolId: string } {
  const checked = typedCallArguments('invokeTool', dispatcher, tool)
  if (checked.problems.length > 0) throw new UsageError({ code: 'invoke_tool_argument_invalid', subject: 'invokeTool arguments', problems: checked.problems })
  return { held: checked.held!, toolId: checked.toolId! }
}

/** Every field `invokeTool` takes (an `InvokeRequest` without `tool_id`, which is the tool's). */
const TOOL_CALL_FIELDS = optionsTable(['input', 'scope', 'tool_call_id', 'approval_token', 'sensitive_input_fields', 'pinned_result_view', 'signal'], 'field', 'the request')

/**
 * The request's known fields, each read once by the options reader: an unknown key (a misspelt
 * `sensitive_input_fields`, a `tool_id`), or a getter or Proxy that throws, is `request_invalid`,
 * never an exception; `tool_id` is the tool's.
 */
function requestFields(request: unknown): Omit<InvokeRequest, 'tool_id'> | ToolError {
  if (typeof request !== 'object' || request === null) return requestInvalid('the request must be an object')
  const problems: UsageProblem[] = []
  const fields = readOptions(request, TOOL_CALL_FIELDS, '', problems)
  return problems.length > 0 ? requestInvalid(problems.map((problem) => problem.message).join('; ')) : (fields as Omit<InvokeRequest, 'tool_id'>)
}

/**
 * The view an input selects: its own `result_view` when that is a view, the default when it has
 * none; `undefined` (nothing pinned: `invoke` reports the input) for any other value or an input
 * that cannot be read.
 */
function selectedView(input: unknown): View | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined
  try {
    if (!Object.prototype.hasOwnProperty.call(input, RESULT_VIEW_KEY)) return DEFAULT_VIEW
    const selected: unknown = (input as Record<string, unknown>)[RESULT_VIEW_KEY]
    return isView(selected) ? selected : undefined
  } catch {
    return undefined
  }
}
