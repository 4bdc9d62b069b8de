import { randomUUID } from 'node:crypto'
import { isToolError, type ToolError } from '../errors/tool-error.js'
import { describeTool, type ToolDescriptor } from '../tool/descriptor.js'
import { isDefinedTool } from '../tool/brand.js'
import { ToolDefinitionError, type DefinitionProblem } from '../tool/tool-definition-error.js'
import type { Tool } from '../tool/types.js'
import type { Call } from './call.js'
import { unknownTool } from './errors.js'
import { execute } from './execute.js'
import { prepareInput } from './prepare.js'
import { checkRequest, normalizeScope } from './request.js'
import type { Dispatcher, DispatcherOptions, InvokeOutcome, InvokeRequest } from './types.js'

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

    const call = prepareInput({ request, tool, tool_call_id: toolCallId, scope: normalizeScope(request.scope) }, request.input)
    if (isToolError(call)) return fail(call)

    return complete(call)
  }

  async function complete(call: Call): Promise<InvokeOutcome> {
    const result = await execute(call)
    if (isToolError(result)) return { status: 'error', tool_call_id: call.tool_call_id, error: result }
    return call.view === undefined
      ? { status: 'ok', tool_call_id: call.tool_call_id, result }
      : { status: 'ok', tool_call_id: call.tool_call_id, result, result_view: call.view }
  }

  return {
    invoke,
    describe: (toolId: string): ToolDescriptor | undefined => {
      const tool = typeof toolId === 'string' ? catalog.get(toolId) : undefined
      return tool === undefined ? undefined : describeTool(tool)
    },
    list: (): readonly ToolDescriptor[] => [...catalog.values()].map(describeTool),
  }
}

function buildCatalog(tools: unknown): Map<string, Tool> {
  if (!Array.isArray(tools)) {
    throw new ToolDefinitionError(undefined, [{ path: '/tools', code: 'invalid_catalog', message: 'tools must be an array of tools returned by defineTool' }])
  }
  const catalog = new Map<string, Tool>()
  const problems: DefinitionProblem[] = []
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
