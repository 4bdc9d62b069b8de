import { defineBrand } from '../errors/brand.js'
import { describeTool, type Tool, type ToolDescriptor, type UsageProblem } from 'result-views'
import { McpOptionsError } from './mcp-options-error.js'
import { toMcpToolList } from './project.js'

/** The brand `defineTool` puts on every tool, global so that it holds across library copies. */
const toolBrand = defineBrand('result-views.Tool')

/**
 * Serialized sizes of one catalog's three discovery surfaces, in bytes of UTF-8 JSON
 * (`JSON.stringify` without whitespace, of a JSON array with one entry per tool). These are
 * discovery bytes, not model tokens (`docs/mcp.md`).
 */
export interface CatalogSize {
  /** The full-policy discovery catalog: every descriptor with `output_schema` and, for viewed tools, `output_views` (both views and digests). */
  readonly discovery_bytes: number
  /** The MCP `tools/list` entries (`name`, `description`, `inputSchema`; no output schemas). */
  readonly mcp_bytes: number
  /**
   * The model-facing projection: `{ name, description, input_schema }` per tool, where
   * `input_schema` is the same 2020-12 schema the MCP listing carries (no `$schema`). So
   * `model_bytes` = `mcp_bytes` + one byte per tool (`input_schema` vs `inputSchema`), exactly.
   */
  readonly model_bytes: number
}

/**
 * Measures a catalog's discovery surfaces (see {@link CatalogSize}).
 *
 * @param tools - tools returned by `defineTool`, or their descriptors (`describeTool`,
 *   `dispatcher.list()`), in catalog order; both may be mixed.
 * @throws McpOptionsError (`code: 'mcp_options_invalid'`) when `tools` is not an array, when an
 *   entry is neither a defined tool nor a descriptor (`tools[<index>] must be ...`), or when two
 *   entries share a `tool_id` (`tools[<index>] repeats tool_id "<id>" of tools[<first>]`): a
 *   catalog lists each tool once, so a duplicate is a mistake, not something to count twice.
 *   Every problem is listed.
 */
export function measureCatalog(tools: readonly (Tool | ToolDescriptor)[]): CatalogSize {
  const descriptors = checkedDescriptors(tools)
  const mcp = toMcpToolList(descriptors)
  const model = descriptors.map((d, index) => ({ name: d.tool_id, description: d.description, input_schema: mcp[index]!.inputSchema }))
  return {
    discovery_bytes: jsonBytes(descriptors),
    mcp_bytes: jsonBytes(mcp),
    model_bytes: jsonBytes(model),
  }
}

function checkedDescriptors(tools: unknown): ToolDescriptor[] {
  if (!Array.isArray(tools)) {
    throw new McpOptionsError([{ path: '', code: 'invalid_catalog', message: 'tools must be an array of tools from defineTool or tool descriptors' }], 'measureCatalog tools')
  }
  const problems: UsageProblem[] = []
  const descriptors: ToolDescriptor[] = []
  const firstIndex = new Map<string, number>()
  for (let index = 0; index < tools.length; index++) {
    if (!(index in tools)) {
      // A hole: reported once, and the rest not walked (an array of 2^32 - 1 holes is one problem).
      problems.push({ path: `/${index}`, code: 'not_a_tool', message: `tools[${index}] is a hole, not a tool from defineTool or a tool descriptor` })
      break
    }
    const entry: unknown = tools[index]
    let descriptor: ToolDescriptor | undefined
    if (isDefinedTool(entry)) descriptor = describeTool(entry)
    else if (isDescriptor(entry)) descriptor = entry
    else {
      problems.push({ path: `/${index}`, code: 'not_a_tool', message: `tools[${index}] must be a tool from defineTool or a tool descriptor (tool_id, description, input_schema)` })
      continue
    }
    const first = firstIndex.get(descriptor.tool_id)
    if (first !== undefined) problems.push({ path: `/${index}`, code: 'duplicate_tool_id', message: `tools[${index}] repeats tool_id ${JSON.stringify(descriptor.tool_id)} of tools[${first}]` })
    else firstIndex.set(descriptor.tool_id, index)
    descriptors.push(descriptor)
  }
  if (problems.length > 0) throw new McpOptionsError(problems, 'measureCatalog tools')
  return descriptors
}

function isDefinedTool(value: unknown): value is Tool {
  return toolBrand.has(value)
}

function isDescriptor(value: unknown): value is ToolDescriptor {
  if (typeof value !== 'object' || value === null) return false
  const d = value as Record<string, unknown>
  return (
    typeof d.tool_id === 'string' &&
    typeof d.description === 'string' &&
    typeof d.input_schema === 'object' &&
    d.input_schema !== null &&
    !Array.isArray(d.input_schema)
  )
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8')
}
