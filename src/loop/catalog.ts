import { describeTool } from 'result-views'
import type { Tool, ToolDescriptor, View } from 'result-views'
import { optionsInvalid, type LoopProblem } from './errors.js'

/** What lint and pinning read tools from: tools returned by `defineTool`, or their descriptors (`dispatcher.list()`). */
export type LoopCatalog = readonly (Tool | ToolDescriptor)[]

/** A catalog tool as the Loop code sees it. */
export interface CatalogTool {
  readonly descriptor: ToolDescriptor
  /**
   * Whether `result_view` in a node's params would reach the tool's selector: true for native
   * tools; for a bare descriptor, true unless its input schema declares its own `result_view`
   * (an extension or MCP tool's input, never inspected: `docs/views.md` "The selector").
   */
  readonly selectorApplies: boolean
}

/**
 * Indexes a catalog by tool ID.
 *
 * @throws LoopError (`code: 'loop_options_invalid'`) when `catalog` is not an array, holds
 *   something that is neither a tool nor a descriptor, or repeats a tool ID.
 */
export function indexCatalog(catalog: LoopCatalog): ReadonlyMap<string, CatalogTool> {
  if (!Array.isArray(catalog)) throw optionsInvalid([{ path: '', code: 'invalid_catalog', message: 'catalog must be an array of tools or tool descriptors' }])
  const tools = new Map<string, CatalogTool>()
  const problems: LoopProblem[] = []
  for (let index = 0; index < catalog.length; index++) {
    if (!(index in catalog)) {
      // A hole: reported once, and the rest not walked.
      problems.push({ path: `/${index}`, code: 'not_a_tool', message: 'a hole in the catalog, not a tool returned by defineTool nor a tool descriptor' })
      break
    }
    const tool = toCatalogTool(catalog[index])
    if (tool === undefined) {
      problems.push({ path: `/${index}`, code: 'not_a_tool', message: 'not a tool returned by defineTool nor a tool descriptor' })
    } else if (tools.has(tool.descriptor.tool_id)) {
      problems.push({ path: `/${index}`, code: 'duplicate_tool_id', message: `tool ID "${tool.descriptor.tool_id}" is already in the catalog` })
    } else {
      tools.set(tool.descriptor.tool_id, tool)
    }
  }
  if (problems.length > 0) throw optionsInvalid(problems)
  return tools
}

/** The schema digest of a view's contract; a single-result tool's one schema is its full contract. */
export function contractDigest(descriptor: ToolDescriptor, view: View): string {
  return descriptor.output_views === undefined ? descriptor.output_schema_digest : descriptor.output_views[view].digest
}

function toCatalogTool(entry: unknown): CatalogTool | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined
  const record = entry as Record<string, unknown>
  if (typeof record.tool_id === 'string' && typeof record.output_schema === 'object' && typeof record.output_schema_digest === 'string') {
    const descriptor = entry as ToolDescriptor
    const properties = descriptor.input_schema?.properties
    const ownSelector = typeof properties === 'object' && properties !== null && Object.prototype.hasOwnProperty.call(properties, 'result_view')
    return { descriptor, selectorApplies: descriptor.output_views !== undefined || !ownSelector }
  }
  if (typeof record.id === 'string' && (record.kind === 'viewed' || record.kind === 'single')) {
    const tool = entry as Tool
    return { descriptor: describeTool(tool), selectorApplies: tool.origin === 'native' }
  }
  return undefined
}
