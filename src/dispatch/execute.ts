import { ToolErrorCodes, type ToolErrorCode } from '../errors/codes.js'
import { ToolError, isToolError } from '../errors/tool-error.js'
import { cloneJson } from '../json/clone.js'
import { assertPlainJson } from '../json/canonical.js'
import { isJsonValueError } from '../json/json-value-error.js'
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
 * @returns the result envelope, or the typed error (`tool_execution_failed`, `tool_output_invalid`).
 */
export async function execute(call: Call): Promise<ToolResult | ToolError> {
  const { tool } = call
  const context: ToolContext = {
    tool_id: tool.id,
    tool_call_id: call.tool_call_id,
    scope: call.scope,
    ...(call.view === undefined ? {} : { result_view: call.view }),
  }
  let record: unknown
  try {
    // The handler gets its own copy: nothing it changes reaches the call's input, its events or
    // the caller's object.
    record = await tool.handler(cloneJson(call.handlerInput), context)
  } catch (error) {
    // A handler may report a typed failure itself (e.g. tool_not_found from a look-up tool).
    return reportedError(error) ?? handlerFailed(tool, error)
  }
  const invalid = checkOutput(tool, record)
  if (invalid !== undefined) return invalid
  // The caller gets a record of its own: a compact projection is new; a full or single record is
  // copied, so a handler that returns a cached object never shares it with callers or hooks.
  const structured = tool.kind === 'viewed' && call.view === 'compact' ? tool.project(record, 'compact') : cloneJson(record)
  return { structured, preview: tool.preview(record, structured) }
}

/**
 * A `ToolError` a handler threw on purpose, rebuilt from its fields so that only a registered
 * code with string reason and message passes (a look-alike with a foreign code is a handler
 * failure like any other throw).
 */
function reportedError(error: unknown): ToolError | undefined {
  if (!isToolError(error)) return undefined
  const { code, reason, message, details } = error as { code: unknown; reason: unknown; message: unknown; details: unknown }
  if (typeof code !== 'string' || !Object.prototype.hasOwnProperty.call(ToolErrorCodes, code)) return undefined
  if (typeof reason !== 'string' || typeof message !== 'string') return undefined
  if (details !== undefined && !isPlainJsonObject(details)) return undefined
  return new ToolError({ code: code as ToolErrorCode, reason, message, ...(details === undefined ? {} : { details: cloneJson(details) as Record<string, unknown> }) })
}

function isPlainJsonObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  try {
    assertPlainJson(value)
    return true
  } catch {
    return false
  }
}

/** Validates a handler's record: plain JSON, then the full output schema. */
function checkOutput(tool: Tool, record: unknown): ToolError | undefined {
  try {
    assertPlainJson(record)
  } catch (error) {
    if (!isJsonValueError(error)) throw error
    return outputInvalid(tool, { pointer: error.pointer, problem: error.problem })
  }
  let validate
  try {
    validate = validatorFor(fullSchemaOf(tool))
  } catch (error) {
    return schemaCompileFailed(tool, 'output', error)
  }
  return validate(record) ? undefined : outputInvalid(tool, { issues: toIssues(validate.errors) })
}
