import { defineBrand } from '../errors/brand.js'

const brand = defineBrand('result-views.ViewBudgetError')

/** The figure an {@link assertViewBudget}-style check found past its limit. */
export type ViewBudgetFigure = 'compact_tokens' | 'compact_bytes' | 'savings_ratio'

/** Construction fields of a {@link ViewBudgetError}. */
export interface ViewBudgetErrorInit {
  /** The measured tool's ID. */
  toolId: string
  /** Index of the record in the `records` option. */
  recordIndex: number
  /** Which figure failed. */
  figure: ViewBudgetFigure
  /** The measured figure (tokens, bytes, or a ratio). */
  actual: number
  /** The budget it failed: a maximum for tokens and bytes, a minimum for the ratio. */
  limit: number
}

/**
 * Thrown by `assertViewBudget` on the first record whose compact view is past its budget. `code`
 * is always `'view_budget_exceeded'`; `recordIndex`, `figure`, `actual` and `limit` say which
 * record and which figure failed, and the message names them. An assertion failure (like
 * `ViewInvariantError`), not a misuse: bad options throw `ContractsError`. Match on `code` or use
 * {@link isViewBudgetError}.
 */
export class ViewBudgetError extends Error {
  /** Always `'ViewBudgetError'`. */
  override readonly name = 'ViewBudgetError'
  /** Always `'view_budget_exceeded'` (an assertion failure, not a `UsageError` code). */
  readonly code = 'view_budget_exceeded' as const
  /** The measured tool's ID. */
  readonly toolId: string
  /** Index of the failing record in the `records` option. */
  readonly recordIndex: number
  /** Which figure failed. */
  readonly figure: ViewBudgetFigure
  /** The measured figure. */
  readonly actual: number
  /** The limit it failed: a maximum for tokens and bytes, a minimum for `savings_ratio`. */
  readonly limit: number

  constructor(init: ViewBudgetErrorInit) {
    const bound = init.figure === 'savings_ratio' ? `below the minimum ${init.limit}` : `above the maximum ${init.limit}`
    super(`view budget exceeded for tool "${init.toolId}": record ${init.recordIndex} has ${init.figure} ${init.actual}, ${bound}`)
    this.toolId = init.toolId
    this.recordIndex = init.recordIndex
    this.figure = init.figure
    this.actual = init.actual
    this.limit = init.limit
    brand.mark(this)
  }
}

/** True for a {@link ViewBudgetError} from any copy of this library (checks a global brand). */
export function isViewBudgetError(value: unknown): value is ViewBudgetError {
  return brand.has(value)
}
