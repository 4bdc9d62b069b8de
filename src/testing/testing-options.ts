import { UsageError, type UsageProblem } from 'result-views'
import { readOptions, type OptionsTable, type OptionValues } from '../options/options.js'

/**
 * Reads the options of a `result-views/testing` function through the options reader: an unknown
 * key (a misspelt `minPartlength` would quietly weaken a leak test) or an unreadable member is
 * refused with every problem at once.
 *
 * @throws UsageError (`code: 'testing_argument_invalid'`) with `unknown_option`,
 *   `unreadable_option` or `invalid_option` problems (`docs/errors.md` "Options problems: one
 *   vocabulary").
 */
export function readTestingOptions<K extends string>(fn: string, options: unknown, table: OptionsTable<K>): OptionValues<K> {
  const problems: UsageProblem[] = []
  const values = readOptions(options, table, '', problems)
  if (problems.length > 0) throw new UsageError({ code: 'testing_argument_invalid', subject: `${fn} options`, problems })
  return values
}
