import type { UsageProblem, ViewedTool } from 'result-views'
import { ContractsError, measureViews, type CountTokens, type ViewByteMeasurement, type ViewMeasurement } from 'result-views/contracts'
import { optionsTable, readOptions as readOptionsObject } from '../options/options.js'
import { ViewBudgetError, type ViewBudgetFigure } from './view-budget-error.js'

/** Options of {@link assertViewBudget}. */
export interface ViewBudgetOptions {
  /** Full records to measure (e.g. the tool's fixtures): a dense array, at least one. */
  records: readonly unknown[]
  /** Most tokens one compact record may take. */
  maxCompactTokens?: number
  /** Most UTF-8 bytes one compact record's JSON may take. */
  maxCompactBytes?: number
  /** Least `1 - compact_tokens / full_tokens` of each record (0.5: compact saves at least half the tokens). */
  minSavingsRatio?: number
  /** Counts tokens. Default: `gpt-tokenizer` o200k (an optional peer dependency). */
  countTokens?: CountTokens
}

/** {@link ViewBudgetOptions} with byte limits only (and no `countTokens`): no token is counted. */
export type ByteBudgetOptions = ViewBudgetOptions & { maxCompactBytes: number; maxCompactTokens?: undefined; minSavingsRatio?: undefined; countTokens?: undefined }

/** {@link ViewBudgetOptions} that count tokens: a token limit, a savings ratio or a `countTokens`. */
export type TokenBudgetOptions = ViewBudgetOptions & ({ maxCompactTokens: number } | { minSavingsRatio: number } | { countTokens: CountTokens })

/**
 * Asserts a viewed tool's compact budget on its records, for a test suite: measures each record
 * (`measureViews` of `result-views/contracts`: canonical JSON, UTF-8 bytes, tokens) and checks, in
 * record order, `compact_tokens` ≤ `maxCompactTokens`, `compact_bytes` ≤ `maxCompactBytes` and
 * `savings_ratio` ≥ `minSavingsRatio` (each only when given). See `docs/contracts.md` "Token budgets".
 *
 * Tokens are counted only when `maxCompactTokens`, `minSavingsRatio` or `countTokens` is given:
 * with byte limits only, `gpt-tokenizer` is neither loaded nor needed and the measurement holds
 * bytes only (`measureViews` with `tokens: false`: `ViewByteMeasurement`).
 *
 * @returns the measurement, for a test that wants to print or compare it.
 * @throws ViewBudgetError (`view_budget_exceeded`) naming the first record and figure past its limit.
 * @throws ContractsError (`contracts_invalid`) for a bad tool, records or option (a limit that is
 *   not a non-negative number, a ratio outside 0..1, no limit at all).
 * @throws TokenizerUnavailableError when tokens are counted, no `countTokens` is given and `gpt-tokenizer` is missing.
 */
export function assertViewBudget(tool: ViewedTool, options: ByteBudgetOptions): ViewByteMeasurement
/** {@link assertViewBudget} with a token limit, a savings ratio or a `countTokens`: the measurement holds tokens too. */
export function assertViewBudget(tool: ViewedTool, options: TokenBudgetOptions): ViewMeasurement
/** {@link assertViewBudget} with options whose limits are not known statically: bytes only, or bytes and tokens. */
export function assertViewBudget(tool: ViewedTool, options: ViewBudgetOptions): ViewMeasurement | ViewByteMeasurement
export function assertViewBudget(tool: ViewedTool, options: ViewBudgetOptions): ViewMeasurement | ViewByteMeasurement {
  const read = readOptions(options)
  const limits = readLimits(read)
  // Tokens are counted only when a limit or the caller's counter needs them: a byte budget never
  // loads (or needs) gpt-tokenizer.
  const countsTokens = read.countTokens !== undefined || limits.some(({ figure }) => figure !== 'compact_bytes')
  const records = read.records as readonly unknown[]
  const measured = !countsTokens
    ? measureViews(tool, records, { tokens: false })
    : measureViews(tool, records, read.countTokens === undefined ? {} : { countTokens: read.countTokens as CountTokens })
  for (const record of measured.records as ReadonlyArray<Readonly<Record<ViewBudgetFigure, number>> & { index: number }>) {
    for (const { figure, limit } of limits) {
      const actual = record[figure]
      const failed = figure === 'savings_ratio' ? actual < limit : actual > limit
      if (failed) throw new ViewBudgetError({ toolId: tool.id, recordIndex: record.index, figure, actual, limit })
    }
  }
  return measured
}

const LIMITS = [
  ['maxCompactTokens', 'compact_tokens'],
  ['maxCompactBytes', 'compact_bytes'],
  ['minSavingsRatio', 'savings_ratio'],
] as const

type ReadOptions = { readonly [K in keyof ViewBudgetOptions]-?: unknown }

/** The options `assertViewBudget` knows; any other key is refused (`unknown_option`). */
const VIEW_BUDGET_OPTIONS = optionsTable(['records', 'maxCompactTokens', 'maxCompactBytes', 'minSavingsRatio', 'countTokens'])

/** Each option read once, by the options reader (options may be hostile). */
function readOptions(options: unknown): ReadOptions {
  const problems: UsageProblem[] = []
  if (options === undefined) problems.push({ path: '', code: 'invalid_option', message: 'options must be { records, maxCompactTokens?, maxCompactBytes?, minSavingsRatio?, countTokens? }' })
  const read = readOptionsObject(options, VIEW_BUDGET_OPTIONS, '', problems) as ReadOptions
  if (problems.length > 0) throw new ContractsError('assertViewBudget options', problems)
  return read
}

function readLimits(options: ReadOptions): Array<{ figure: ViewBudgetFigure; limit: number }> {
  const problems: UsageProblem[] = []
  const limits: Array<{ figure: ViewBudgetFigure; limit: number }> = []
  for (const [option, figure] of LIMITS) {
    const limit: unknown = options[option]
    if (limit === undefined) continue
    const ratio = figure === 'savings_ratio'
    if (typeof limit !== 'number' || !Number.isFinite(limit) || limit < 0 || (ratio && limit > 1)) {
      problems.push({ path: `/${option}`, code: 'invalid_limit', message: ratio ? `${option} must be a ratio from 0 to 1` : `${option} must be a non-negative number` })
    } else limits.push({ figure, limit })
  }
  if (problems.length === 0 && limits.length === 0) {
    problems.push({ path: '', code: 'no_limit', message: 'give at least one of maxCompactTokens, maxCompactBytes, minSavingsRatio' })
  }
  if (problems.length > 0) throw new ContractsError('assertViewBudget options', problems)
  return limits
}
