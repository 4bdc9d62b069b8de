import { isThenable } from '../async/thenable.js'
import { ToolErrorCodes, type ToolErrorCode } from '../errors/codes.js'
import { ToolError, isToolError } from '../errors/tool-error.js'
import { cloneJson } from '../json/clone.js'
import { ownJsonCopy } from '../json/own-copy.js'
import type { ToolContext } from '../tool/types.js'
import type { Call, ToolResult } from '../call/call.js'
import { handlerFailed } from './errors.js'
import { resultOf } from './output.js'

/**
 * The execution stages of the lifecycle: run the handler on the final input, validate its record
 * against the full schema (nothing of a bad record is returned), project to the selected view and
 * build the result envelope `{ structured, preview }`.
 *
 * A handler that returns a record (not a promise) is finished without a turn of the task queue.
 *
 * @returns the result envelope, or the typed error (`tool_execution_failed`, `tool_output_invalid`),
 *   directly or as a promise when the handler returned one.
 */
export function execute(call: Call): ToolResult | ToolError | Promise<ToolResult | ToolError> {
  const { tool } = call
  const context: ToolContext =
    call.view === undefined
      ? { tool_id: tool.id, tool_call_id: call.tool_call_id, scope: call.scope }
      : { tool_id: tool.id, tool_call_id: call.tool_call_id, scope: call.scope, result_view: call.view }
  let pending: Promise<unknown>
  try {
    // The handler gets its own copy: nothing it changes reaches the call's input, its events or
    // the caller's object.
    const returned = tool.handler(cloneJson(call.handlerInput), context)
    if (!isThenable(returned)) return resultOf(call, returned)
    // Inside the guard: adopting a thenable (or a promise with an odd `constructor`) reads it.
    pending = Promise.resolve(returned)
  } catch (error) {
    return failure(call, error)
  }
  return pending.then(
    (record) => resultOf(call, record),
    (error: unknown) => failure(call, error),
  )
}

/**
 * What a handler's throw or rejection becomes. A handler may report a typed failure itself (e.g.
 * tool_not_found from a look-up tool); anything else is `tool_execution_failed`, its message
 * scrubbed of the call's secrets before it is cut.
 */
function failure(call: Call, error: unknown): ToolError {
  return reportedError(error) ?? handlerFailed(call.tool, error, call.secrets)
}

/**
 * A `ToolError` a handler threw on purpose, rebuilt from its fields so that only a registered
 * code with string reason and message passes (a look-alike with a foreign code is a handler
 * failure like any other throw).
 */
function reportedError(error: unknown): ToolError | undefined {
  try {
    if (!isToolError(error)) return undefined
    // Each field is read once; details are copied by the checking walk, so a getter that
    // answers differently on a second read has nothing to swap in.
    const { code, reason, message, details } = error as { code: unknown; reason: unknown; message: unknown; details: unknown }
    if (typeof code !== 'string' || !Object.prototype.hasOwnProperty.call(ToolErrorCodes, code)) return undefined
    if (typeof reason !== 'string' || typeof message !== 'string') return undefined
    if (details === undefined) return new ToolError({ code: code as ToolErrorCode, reason, message })
    const copy = ownJsonCopy(details)
    if (typeof copy !== 'object' || copy === null || Array.isArray(copy)) return undefined
    return new ToolError({ code: code as ToolErrorCode, reason, message, details: copy })
  } catch {
    // A look-alike that cannot be read is a handler failure like any other throw.
    return undefined
  }
}
