import { ToolErrorCodes, type ToolErrorCode } from '../errors/codes.js'
import { ToolError, isToolError } from '../errors/tool-error.js'
import { cloneJson } from '../json/clone.js'
import { assertPlainJson } from '../json/canonical.js'
import { isJsonValueError } from '../json/json-value-error.js'
import { ownJsonCopy } from '../json/own-copy.js'
import type { Tool, ToolContext } from '../tool/types.js'
import type { Call } from './call.js'
import { handlerFailed, outputInvalid, schemaCompileFailed } from './errors.js'
import type { ToolResult } from './types.js'
import { fullSchemaOf, toIssues, validatorFor } from './validators.js'

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
    if (!isThenable(returned)) return finish(call, returned)
    // Inside the guard: adopting a thenable (or a promise with an odd `constructor`) reads it.
    pending = Promise.resolve(returned)
  } catch (error) {
    return failure(tool, error)
  }
  return pending.then(
    (record) => finish(call, record),
    (error: unknown) => failure(tool, error),
  )
}

/**
 * What a handler's throw or rejection becomes. A handler may report a typed failure itself (e.g.
 * tool_not_found from a look-up tool); anything else is `tool_execution_failed`.
 */
function failure(tool: Tool, error: unknown): ToolError {
  return reportedError(error) ?? handlerFailed(tool, error)
}

/** What `await` would wait on: a promise, or any object or function with a callable `then`. */
function isThenable(value: unknown): boolean {
  if (value instanceof Promise) return true
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function'
}

/**
 * Checks the handler's record, then builds the envelope of the selected view. What the caller
 * receives is always a plain JSON record of its own:
 * - compact: the record is validated against the full schema and projected; the projector checks
 *   each value it copies, so the projection is plain JSON. Parts of the record the compact view
 *   leaves out are judged by the full schema alone.
 * - full or single: the record is copied and checked in one walk, and the copy validated.
 */
function finish(call: Call, record: unknown): ToolResult | ToolError {
  const { tool } = call
  if (tool.kind === 'viewed' && call.view === 'compact') {
    // The commonest slip, a class instance returned as the record, is named before anything
    // reads it through its prototype.
    if (!isPlainRoot(record)) return notPlainJson(tool, record)
    let judged = validateOutput(tool, record)
    let source = record
    if (judged instanceof Threw) {
      // ajv could not read the record as it is (a throwing getter, a null-prototype object under
      // uniqueItems, a recursion past the call stack): judge a checked copy of it instead.
      try {
        source = ownJsonCopy(record)
      } catch (error) {
        return notPlainJson(tool, record, error)
      }
      judged = validateOutput(tool, source)
      if (judged instanceof Threw) return notPlainJson(tool, source, judged.error)
    }
    if (judged !== undefined) return judged
    let structured: unknown
    try {
      // The projection is plain JSON by construction: it checks each value it copies.
      structured = tool.project(source, 'compact')
    } catch (error) {
      return notPlainJson(tool, source, error)
    }
    return { structured, preview: tool.preview(record, structured) }
  }
  let copy: unknown
  try {
    // Copied before validation: what was validated is exactly what the caller receives.
    copy = ownJsonCopy(record)
  } catch (error) {
    return notPlainJson(tool, record, error)
  }
  const judged = validateOutput(tool, copy)
  if (judged instanceof Threw) return notPlainJson(tool, copy, judged.error)
  // A tool's own preview gets the handler's record, never the copy the caller receives.
  return judged ?? { structured: copy, preview: tool.preview(record, copy) }
}

/** Whether a record is a scalar, an array or a plain object (prototype `Object.prototype` or `null`). */
function isPlainRoot(record: unknown): boolean {
  if (typeof record !== 'object' || record === null) return true
  try {
    if (Array.isArray(record)) return true
    const proto = Object.getPrototypeOf(record)
    return proto === Object.prototype || proto === null
  } catch {
    return false
  }
}

/** What {@link validateOutput} answers when ajv threw while reading the record. */
class Threw {
  constructor(readonly error: unknown) {}
}

/** The record against the full schema: `undefined` when valid, the typed error, or what ajv threw. */
function validateOutput(tool: Tool, record: unknown): ToolError | undefined | Threw {
  let validate
  try {
    validate = validatorFor(fullSchemaOf(tool))
  } catch (error) {
    return schemaCompileFailed(tool, 'output', error)
  }
  try {
    return validate(record) ? undefined : outputInvalid(tool, { issues: toIssues(validate.errors) })
  } catch (error) {
    return new Threw(error)
  }
}

/**
 * `tool_output_invalid` naming the JSON Pointer of the record's first value that is not plain
 * JSON. When the record passes that check, what was thrown while reading it says why:
 * `too_deep` for a value past the call stack, else `unreadable`.
 */
function notPlainJson(tool: Tool, record: unknown, thrown?: unknown): ToolError {
  if (isJsonValueError(thrown) && thrown.pointer !== '') return outputInvalid(tool, { pointer: thrown.pointer, problem: thrown.problem })
  try {
    assertPlainJson(record)
  } catch (error) {
    if (isJsonValueError(error)) return outputInvalid(tool, { pointer: error.pointer, problem: error.problem })
  }
  const problem = isJsonValueError(thrown) ? thrown.problem : thrown instanceof RangeError ? 'too_deep' : 'unreadable'
  return outputInvalid(tool, { pointer: '', problem })
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
