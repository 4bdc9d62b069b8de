import { describeTool, type Tool, type ToolDescriptor } from 'result-views'
import { toMcpToolList } from './project.js'

/**
 * Serialized sizes of one catalog's three discovery surfaces, in bytes of UTF-8 JSON
 * (`JSON.stringify` without whitespace, of a JSON array with one entry per tool). These are
 * discovery bytes, not model tokens (spec 000 "Managed-session MCP clients").
 */
export interface CatalogSize {
  /** The full-policy discovery catalog: every descriptor with `output_schema` and, for viewed tools, `output_views` (both views and digests). */
  readonly discovery_bytes: number
  /** The MCP `tools/list` entries (`name`, `description`, `inputSchema`; no output schemas). */
  readonly mcp_bytes: number
  /** The model-facing projection: `{ name, description, input_schema }` per tool. */
  readonly model_bytes: number
}

/**
 * Measures a catalog's discovery surfaces (see {@link CatalogSize}).
 *
 * @param tools - tools returned by `defineTool`, or their descriptors (`describeTool`,
 *   `dispatcher.list()`), in catalog order; both may be mixed.
 */
export function measureCatalog(tools: readonly (Tool | ToolDescriptor)[]): CatalogSize {
  const descriptors = tools.map((tool) => (isDescriptor(tool) ? tool : describeTool(tool)))
  const model = descriptors.map((d) => ({ name: d.tool_id, description: d.description, input_schema: d.input_schema }))
  return {
    discovery_bytes: jsonBytes(descriptors),
    mcp_bytes: jsonBytes(toMcpToolList(descriptors)),
    model_bytes: jsonBytes(model),
  }
}

function isDescriptor(value: Tool | ToolDescriptor): value is ToolDescriptor {
  return typeof (value as ToolDescriptor).tool_id === 'string'
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8')
}
