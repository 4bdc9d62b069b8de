import { describeThrown } from '../errors/describe-thrown.js'
import { ToolError } from '../errors/tool-error.js'
import type { JsonValueError } from '../json/json-value-error.js'
import type { Tool } from '../tool/types.js'
import type { View } from '../views/view.js'
import type { ValidationIssue } from './validators.js'

/** An unknown `result_view` value, or one that is not a string (`docs/views.md` "The selector"). */
export function resultViewInvalid(tool: Tool): ToolError {
  return new ToolError({
    code: tool.inputErrorCode,
    reason: 'schema_invalid',
    message: `tool "${tool.id}" input "result_view" must be one of "compact", "full"`,
    details: { issues: [{ instancePath: '/result_view', schemaPath: '#/properties/result_view/enum', keyword: 'enum', message: 'must be one of "compact", "full"', params: { allowedValues: ['compact', 'full'] } }] },
  })
}

/** `result_view` sent to a single-result tool (`docs/views.md` "The selector"). */
export function resultViewNotAccepted(tool: Tool): ToolError {
  return new ToolError({
    code: tool.inputErrorCode,
    reason: 'schema_invalid',
    message: `tool "${tool.id}" returns a single result and does not accept "result_view"`,
  })
}

/** The view differs from the one the caller (a Loop node) pinned (`docs/views.md` "The selector"). */
export function resultViewPinned(tool: Tool, pinned: View): ToolError {
  return new ToolError({
    code: 'tool_denied',
    reason: 'result_view_pinned',
    message: `tool "${tool.id}" result view is pinned to "${pinned}" by the caller`,
  })
}

/** The input failed the tool's input schema. */
export function inputSchemaInvalid(tool: Tool, issues: readonly ValidationIssue[]): ToolError {
  const first = issues[0]
  const where = first === undefined ? '' : `: ${first.instancePath || '/'} ${first.message}`
  return new ToolError({
    code: tool.inputErrorCode,
    reason: 'schema_invalid',
    message: `tool "${tool.id}" input does not match its schema${where}`,
    details: { issues },
  })
}

/** The input is not plain JSON (a Date, NaN, a cycle, ...). */
export function inputNotJson(tool: Tool, error: JsonValueError): ToolError {
  return new ToolError({
    code: tool.inputErrorCode,
    reason: 'non_json_input',
    message: `tool "${tool.id}" input is not plain JSON at "${error.pointer}"`,
    details: { pointer: error.pointer, problem: error.problem },
  })
}

/** The request itself is malformed (not an object, `tool_id` not a string, bad option types). */
export function requestInvalid(problem: string): ToolError {
  return new ToolError({ code: 'tool_invalid_input', reason: 'request_invalid', message: `invalid invoke request: ${problem}` })
}

/** The handler threw or rejected. The thrown value is kept as `cause`, not serialized. */
export function handlerFailed(tool: Tool, cause: unknown): ToolError {
  const error = new ToolError({
    code: 'tool_execution_failed',
    reason: 'handler_failed',
    message: `tool "${tool.id}" failed: ${describeThrown(cause)}`,
  })
  Object.defineProperty(error, 'cause', { value: cause, enumerable: false })
  return error
}

/** A schema of the tool could not be compiled by ajv (a broken definition, found on first use). */
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

/** A pre-call hook denied the call. */
export function hookDenied(tool: Tool, reason: string | undefined): ToolError {
  return new ToolError({
    code: 'tool_denied',
    reason: 'hook_denied',
    message: `tool "${tool.id}" invocation denied by a pre-call hook${reason === undefined ? '' : `: ${reason}`}`,
  })
}

/** A pre-call hook threw or rejected: the call fails (it never runs unchecked). */
export function hookFailed(tool: Tool, cause: unknown): ToolError {
  const error = new ToolError({ code: 'tool_hook_failed', reason: 'hook_threw', message: `tool "${tool.id}" pre-call hook failed: ${describeThrown(cause)}` })
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
