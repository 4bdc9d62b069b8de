import { randomUUID } from 'node:crypto'
import type { ToolError } from '../errors/tool-error.js'
import { assertPlainJson } from '../json/canonical.js'
import { isJsonValueError } from '../json/json-value-error.js'
import { describeTool, type ToolDescriptor } from '../tool/descriptor.js'
import { isDefinedTool } from '../tool/brand.js'
import { ToolDefinitionError } from '../tool/tool-definition-error.js'
import type { Tool, ToolContext } from '../tool/types.js'
import { isView, type View } from '../views/view.js'
import {
  handlerFailed,
  inputNotJson,
  inputSchemaInvalid,
  outputInvalid,
  requestInvalid,
  schemaCompileFailed,
  unknownTool,
} from './errors.js'
import type { CallScope } from './scope.js'
import { selectView } from './select-view.js'
import type { Dispatcher, DispatcherOptions, InvokeOutcome, InvokeRequest } from './types.js'
import { fullSchemaOf, toIssues, validatorFor } from './validators.js'

/**
 * Creates the dispatch engine over a catalog of tools (DESIGN.md "Public API"; spec 001
 * "Invocation lifecycle").
 *
 * @param options - `{ tools }`: tools returned by `defineTool`, with distinct IDs.
 * @throws ToolDefinitionError (`code: 'tool_definition_invalid'`) when `tools` is not an array,
 *   holds something `defineTool` did not return, or repeats an ID.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const catalog = buildCatalog(options?.tools)

  async function invoke(request: InvokeRequest): Promise<InvokeOutcome> {
    const malformed = checkRequest(request)
    const toolCallId = typeof request?.tool_call_id === 'string' ? request.tool_call_id : randomUUID()
    const fail = (error: ToolError): InvokeOutcome => ({ status: 'error', tool_call_id: toolCallId, error })
    if (malformed !== undefined) return fail(malformed)

    const tool = catalog.get(request.tool_id)
    if (tool === undefined) return fail(unknownTool(request.tool_id))

    try {
      assertPlainJson(request.input)
    } catch (error) {
      if (isJsonValueError(error)) return fail(inputNotJson(tool, error))
      throw error
    }

    const selection = selectView(tool, request.input, request.pinned_result_view)
    if (!selection.ok) return fail(selection.error)
    const { view, input } = selection

    let validateInput
    try {
      validateInput = validatorFor(tool.inputSchema)
    } catch (error) {
      return fail(schemaCompileFailed(tool, 'input', error))
    }
    if (!validateInput(input)) return fail(inputSchemaInvalid(tool, toIssues(validateInput.errors)))

    const context: ToolContext = {
      tool_id: tool.id,
      tool_call_id: toolCallId,
      scope: Object.freeze({ ...request.scope }),
      ...(view === undefined ? {} : { result_view: view }),
    }
    let record: unknown
    try {
      record = await tool.handler(input, context)
    } catch (error) {
      return fail(handlerFailed(tool, error))
    }

    const outputError = checkOutput(tool, record)
    if (outputError !== undefined) return fail(outputError)

    const structured = tool.kind === 'viewed' ? tool.project(record, view as View) : record
    const result = { structured, preview: tool.preview(record, structured) }
    return view === undefined
      ? { status: 'ok', tool_call_id: toolCallId, result }
      : { status: 'ok', tool_call_id: toolCallId, result, result_view: view }
  }

  const descriptors = (): readonly ToolDescriptor[] => [...catalog.values()].map(describeTool)

  return {
    invoke,
    describe: (toolId) => {
      const tool = typeof toolId === 'string' ? catalog.get(toolId) : undefined
      return tool === undefined ? undefined : describeTool(tool)
    },
    list: descriptors,
  }
}

function buildCatalog(tools: unknown): Map<string, Tool> {
  if (!Array.isArray(tools)) {
    throw new ToolDefinitionError(undefined, [{ path: '/tools', code: 'invalid_catalog', message: 'tools must be an array of tools returned by defineTool' }])
  }
  const catalog = new Map<string, Tool>()
  const problems = []
  for (const [index, tool] of tools.entries()) {
    if (!isDefinedTool(tool)) {
      problems.push({ path: `/tools/${index}`, code: 'not_a_defined_tool', message: 'not a tool returned by defineTool' })
    } else if (catalog.has(tool.id)) {
      problems.push({ path: `/tools/${index}/id`, code: 'duplicate_tool_id', message: `tool ID "${tool.id}" is already in the catalog` })
    } else {
      catalog.set(tool.id, tool)
    }
  }
  if (problems.length > 0) throw new ToolDefinitionError(undefined, problems)
  return catalog
}

/** A typed error for a request a caller (or untyped JSON) got wrong, or `undefined`. */
function checkRequest(request: InvokeRequest): ToolError | undefined {
  if (typeof request !== 'object' || request === null) return requestInvalid('the request must be an object')
  if (typeof request.tool_id !== 'string') return requestInvalid('tool_id must be a string')
  if (request.tool_call_id !== undefined && typeof request.tool_call_id !== 'string') return requestInvalid('tool_call_id must be a string')
  if (request.pinned_result_view !== undefined && !isView(request.pinned_result_view)) {
    return requestInvalid('pinned_result_view must be "compact" or "full"')
  }
  if (request.scope !== undefined && !isScope(request.scope)) return requestInvalid('scope must be an object of string fields')
  return undefined
}

const SCOPE_KEYS = ['workspace_id', 'session_id', 'agent_name', 'profile_id']

function isScope(scope: unknown): scope is CallScope {
  if (typeof scope !== 'object' || scope === null || Array.isArray(scope)) return false
  return SCOPE_KEYS.every((key) => {
    const value = (scope as Record<string, unknown>)[key]
    return value === undefined || typeof value === 'string'
  })
}

/** Validates a handler's record: plain JSON, then the full output schema. Nothing of a bad record is returned. */
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
