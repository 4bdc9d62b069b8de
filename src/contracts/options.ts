import type { UsageProblem } from 'result-views'
import { optionsTable, readOptions as readOptionsObject } from '../options/options.js'
import { ContractsError } from './contracts-error.js'

/**
 * Reads a `result-views/contracts` options object with the one options reader: each known member
 * once, inside a guard; `undefined` reads as `{}`.
 *
 * @throws ContractsError (`contracts_invalid`) listing every problem at once: `invalid_option`
 *   (not an object), `unknown_option` (one per unknown key, with "did you mean"),
 *   `unreadable_option` (its keys or a member could not be read: a getter or a Proxy threw).
 */
export function readOptions(options: unknown, known: readonly string[], subject: string): Record<string, unknown> {
  const problems: UsageProblem[] = []
  const values = readOptionsObject(options, optionsTable(known), '', problems) as Record<string, unknown>
  if (problems.length > 0) throw new ContractsError(subject, problems)
  return values
}
