import type { View } from 'result-views'
import type { CatalogTool } from './catalog.js'
import type { LoopNode } from './definition.js'

/** The params key that selects a tool node's view (`docs/loops.md`). */
export const RESULT_VIEW_PARAM = 'result_view'

/**
 * What a node is to the Loop code:
 * - `viewed`: calls a viewed tool; `view` is the view its params select (`compact` when they
 *   select none), or `undefined` when `params.result_view` is not a literal view;
 * - `single`: calls a single-result tool;
 * - `other`: a host action kind (or a tool the catalog does not have).
 */
export type NodeRole =
  | { readonly role: 'viewed'; readonly tool: CatalogTool; readonly view: View | undefined }
  | { readonly role: 'single'; readonly tool: CatalogTool }
  | { readonly role: 'other' }

/** The role of `node` given the catalog. */
export function roleOf(node: LoopNode, tools: ReadonlyMap<string, CatalogTool>): NodeRole {
  const tool = tools.get(node.kind)
  if (tool === undefined) return { role: 'other' }
  if (tool.descriptor.output_views === undefined) return { role: 'single', tool }
  return { role: 'viewed', tool, view: literalView(node) }
}

/** Whether the node's params hold `result_view` at all. */
export function hasResultViewParam(node: LoopNode): boolean {
  return node.params !== undefined && Object.prototype.hasOwnProperty.call(node.params, RESULT_VIEW_PARAM)
}

/** The literal view the params select: absent → `compact`; `compact`/`full` → itself; anything else → `undefined`. */
function literalView(node: LoopNode): View | undefined {
  if (!hasResultViewParam(node)) return 'compact'
  const value = node.params![RESULT_VIEW_PARAM]
  return value === 'compact' || value === 'full' ? value : undefined
}
