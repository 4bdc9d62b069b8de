import type { UsageProblem } from 'result-views'
import { escapePointerToken } from '../json/pointer.js'
import { describeThrown } from '../tokens/count-tokens.js'
import { ContractsError } from './contracts-error.js'

/**
 * Reads an options object once, inside guards (it may be a Proxy or carry throwing getters): its
 * own enumerable keys must all be `known` (`unknown_key` otherwise, so a typo is not silently
 * ignored), and the values of the known keys are copied into a null-prototype snapshot.
 * `undefined` reads as `{}`.
 *
 * @throws ContractsError (`contracts_invalid`) with `invalid_options` (not an object),
 *   `unreadable_option` (its keys or a value could not be read), `unknown_key` (one per key).
 */
export function readOptions(options: unknown, known: readonly string[], subject: string): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>
  if (options === undefined) return out
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ContractsError(subject, [{ path: '', code: 'invalid_options', message: `options must be an object (${known.join(', ')}; all optional)` }])
  }
  let keys: string[]
  try {
    keys = Object.keys(options)
  } catch (error) {
    throw new ContractsError(subject, [{ path: '', code: 'unreadable_option', message: `the options could not be read: ${describeThrown(error)}` }], error)
  }
  const problems: UsageProblem[] = []
  for (const key of keys) {
    if (!known.includes(key)) {
      problems.push({ path: `/${escapePointerToken(key)}`, code: 'unknown_key', message: `unknown option ${JSON.stringify(key.slice(0, 64))} (known: ${known.join(', ')})` })
    }
  }
  if (problems.length > 0) throw new ContractsError(subject, problems)
  for (const key of known) {
    try {
      const value = (options as Record<string, unknown>)[key]
      if (value !== undefined) out[key] = value
    } catch (error) {
      throw new ContractsError(subject, [{ path: `/${escapePointerToken(key)}`, code: 'unreadable_option', message: `option ${key} could not be read: ${describeThrown(error)}` }], error)
    }
  }
  return out
}
