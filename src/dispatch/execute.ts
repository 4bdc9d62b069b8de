import { isToolError, type ToolError } from '../errors/tool-error.js'
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
    record = await tool.handler(call.handlerInput, context)
  } catch (error) {
    // A handler may report a typed failure itself (e.g. tool_not_found from a look-up tool).
    return isToolError(error) ? error : handlerFailed(tool, error)
  }
  const invalid = checkOutput(tool, record)
  if (invalid !== undefined) return invalid
  const structured = tool.kind === 'viewed' && call.view !== undefined ? tool.project(record, call.view) : record
  return { structured, preview: tool.preview(record, structured) }
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
