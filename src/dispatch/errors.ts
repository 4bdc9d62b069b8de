import { quoted } from '../errors/quote.js'
import { MAX_THROWN_MESSAGE, thrownText } from '../errors/describe-thrown.js'
import { ToolError } from '../errors/tool-error.js'
import type { JsonValueError } from '../json/json-value-error.js'
import type { SensitivePath } from '../redact/sensitive-paths.js'
import type { Tool } from '../tool/types.js'
import type { View } from '../views/view.js'
import { scrubbedCut } from '../redact/secrets.js'
import { redactIssues } from '../redact/sensitive-pointer.js'
import { withSurfaceDetails } from '../errors/surface-details.js'
import { describeIssues, surfaceIssues, surfacePointer } from './input-issues.js'
import type { ValidationIssue } from './validators.js'

/** An unknown `result_view` value, or one that is not a string (`docs/views.md` "The selector"). */
export function resultViewInvalid(tool: Tool): ToolError {
  const issues = [{ instancePath: '/result_view', schemaPath: '#/properties/result_view/enum', keyword: 'enum', message: 'must be one of "compact", "full"', params: { allowedValues: ['compact', 'full'] } }]
  const error = new ToolError({
    code: tool.inputErrorCode,
    reason: 'schema_invalid',
    message: `tool "${tool.id}" input "result_view" must be one of "compact", "full"`,
    details: { issues },
  })
  return withSurfaceDetails(error, surfaceIssues(issues))
}

/** `result_view` sent to a single-result tool (`docs/views.md` "The selector"). */
export function resultViewNotAccepted(tool: Tool): ToolError {
  const error = new ToolError({
    code: tool.inputErrorCode,
    reason: 'schema_invalid',
    message: `tool "${tool.id}" returns a single result and does not accept "result_view"`,
  })
  return withSurfaceDetails(error, { issues: [{ pointer: '/result_view', keyword: 'result_view', expected: 'no "result_view": the tool returns a single result' }] })
}

/** The view differs from the one the caller (a Loop node) pinned (`docs/views.md` "The selector"). */
export function resultViewPinned(tool: Tool, pinned: View): ToolError {
  return new ToolError({
    code: 'tool_denied',
    reason: 'result_view_pinned',
    message: `tool "${tool.id}" result view is pinned to "${pinned}" by the caller`,
  })
}

/**
 * The input failed the tool's input schema. The message names the first few problems and their
 * properties (`docs/errors.md` "`tool_invalid_input`"); issues under a sensitive input field are
 * redacted by path in the message and in `details.issues`.
 */
export function inputSchemaInvalid(tool: Tool, issues: readonly ValidationIssue[], sensitivePaths: readonly SensitivePath[] = []): ToolError {
  const shown = redactIssues(issues, sensitivePaths)
  const where = shown.length === 0 ? '' : `: ${describeIssues(shown)}`
  const error = new ToolError({
    code: tool.inputErrorCode,
    reason: 'schema_invalid',
    message: `tool "${tool.id}" input does not match its schema${where}`,
    details: { issues: shown },
  })
  return withSurfaceDetails(error, surfaceIssues(shown))
}

/**
 * The input is not plain JSON (a Date, NaN, a cycle, ...). `pointer` is where, already cut at the
 * sensitive field it points into (`redactPointer`).
 */
export function inputNotJson(tool: Tool, error: JsonValueError, pointer: string = error.pointer): ToolError {
  const refused = new ToolError({
    code: tool.inputErrorCode,
    reason: 'non_json_input',
    message: `tool "${tool.id}" input is not plain JSON at ${quoted(pointer)}`,
    details: { pointer, problem: error.problem },
  })
  return withSurfaceDetails(refused, { issues: [{ pointer: surfacePointer(pointer), keyword: 'plain_json', expected: `plain JSON (found: ${error.problem})` }] })
}

/** The request itself is malformed (not an object, `tool_id` not a string, bad option types). */
export function requestInvalid(problem: string): ToolError {
  return new ToolError({ code: 'tool_invalid_input', reason: 'request_invalid', message: `invalid invoke request: ${problem}` })
}

/**
 * The handler threw or rejected. The thrown value is kept as `cause`, not serialized. Its message
 * is scrubbed of the call's `secrets` before it is cut to 500 characters.
 */
export function handlerFailed(tool: Tool, cause: unknown, secrets: readonly string[] = []): ToolError {
  const error = new ToolError({
    code: 'tool_execution_failed',
    reason: 'handler_failed',
    message: `tool "${tool.id}" failed: ${describeThrown(cause, secrets)}`,
  })
  Object.defineProperty(error, 'cause', { value: cause, enumerable: false })
  return error
}

/**
 * The handler did not finish within its time budget (`handlerTimeoutMs` of the tool or the
 * dispatcher): `tool_execution_failed` / `handler_timeout`. Its `context.signal` is aborted with
 * this error; whatever it returns later is dropped.
 */
export function handlerTimedOut(tool: Tool, timeoutMs: number): ToolError {
  return new ToolError({
    code: 'tool_execution_failed',
    reason: 'handler_timeout',
    message: `tool "${tool.id}" did not finish within ${timeoutMs} ms`,
    details: { timeout_ms: timeoutMs },
  })
}

/** A schema of the tool could not be compiled by ajv (a broken definition, found on first use and answered on every call after it); ajv's message is cut to 500 characters. */
export function schemaCompileFailed(tool: Tool, which: 'input' | 'output', cause: unknown): ToolError {
  return new ToolError({
    code: 'tool_execution_failed',
    reason: 'schema_compile_failed',
    message: `tool "${tool.id}" ${which} schema cannot be compiled: ${describeThrown(cause)}`,
  })
}

/** The handler returned a record that is not plain JSON or fails the full output schema. */
export function outputInvalid(tool: Tool, details: Record<string, unknown>): ToolError {
  return new ToolError({
    code: 'tool_output_invalid',
    reason: 'output_schema_invalid',
    message: `tool "${tool.id}" returned a record that does not match its full output schema`,
    details,
  })
}

/** The handler's answer could not be read (a Proxy or a thenable whose traps or `then` getter throw): `tool_output_invalid`. */
export function outputUnreadable(tool: Tool): ToolError {
  return outputInvalid(tool, { pointer: '', problem: 'unreadable' })
}

/**
 * The message of a thrown value, scrubbed of `secrets`, then cut to `MAX_THROWN_MESSAGE`
 * characters (scrubbing first, so no part of a secret that crossed the cut stays).
 */
function describeThrown(cause: unknown, secrets: readonly string[] = []): string {
  return scrubbedCut(thrownText(cause), MAX_THROWN_MESSAGE, secrets)
}

/** A pre-call hook denied the call. */
export function hookDenied(tool: Tool, reason: string | undefined): ToolError {
  return new ToolError({
    code: 'tool_denied',
    reason: 'hook_denied',
    message: `tool "${tool.id}" invocation denied by a pre-call hook${reason === undefined ? '' : `: ${reason}`}`,
  })
}

/** A pre-call hook threw or rejected: the call fails (it never runs unchecked). Its message is scrubbed of `secrets` before it is cut. */
export function hookFailed(tool: Tool, cause: unknown, secrets: readonly string[] = []): ToolError {
  const error = new ToolError({ code: 'tool_hook_failed', reason: 'hook_threw', message: `tool "${tool.id}" pre-call hook failed: ${describeThrown(cause, secrets)}` })
  Object.defineProperty(error, 'cause', { value: cause, enumerable: false })
  return error
}

/** A pre-call hook did not answer within the dispatcher's `hookTimeoutMs`: the call fails closed. */
export function hookTimedOut(tool: Tool, timeoutMs: number): ToolError {
  return new ToolError({ code: 'tool_hook_failed', reason: 'hook_timeout', message: `tool "${tool.id}" pre-call hook did not answer within ${timeoutMs} ms` })
}

/** A pre-call hook returned something it may not: another tool ID or scope, no tool_input, a non-JSON input. */
export function hookPatchInvalid(tool: Tool, problem: string): ToolError {
  return new ToolError({ code: 'tool_hook_failed', reason: 'hook_patch_invalid', message: `tool "${tool.id}" pre-call hook returned an invalid patch: ${problem}` })
}
