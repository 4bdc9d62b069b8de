import type { Tool } from './types.js'

const BRAND: unique symbol = Symbol.for('result-views.Tool')

/** Marks a tool as built by `defineTool` (so a catalog can refuse hand-made look-alikes). */
export function brandTool<T extends Tool>(tool: T): T {
  Object.defineProperty(tool, BRAND, { value: true })
  return tool
}

/** True for a tool built by `defineTool` in any copy of this library. */
export function isDefinedTool(value: unknown): value is Tool {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true
}
