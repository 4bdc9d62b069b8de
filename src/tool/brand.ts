import { defineBrand } from '../errors/brand.js'
import type { Tool } from './types.js'

const brand = defineBrand('result-views.Tool')

/** Marks a tool as built by `defineTool` (so a catalog can refuse hand-made look-alikes). */
export function brandTool<T extends Tool>(tool: T): T {
  brand.mark(tool)
  return tool
}

/** True for a tool built by `defineTool` in any copy of this library. */
export function isDefinedTool(value: unknown): value is Tool {
  return brand.has(value)
}
