import type { UsageProblem } from './usage-error.js'

/** The known options of an options object, each read once, and the keys whose reading threw. */
export interface ReadOptions<K extends string> {
  /** The values read (a null-prototype record); an unreadable key is absent. */
  readonly values: Partial<Record<K, unknown>>
  /** The keys whose getter or Proxy trap threw (each reported as an `unreadable_option` problem). */
  readonly unreadable: ReadonlySet<K>
}

/**
 * Reads each of `keys` (plain identifiers) of `options` exactly once, inside a guard, so no getter
 * runs twice and nothing a getter or Proxy trap throws escapes: a key whose reading throws is
 * pushed to `problems` as `unreadable_option` at `<base>/<key>` and left out of `values`.
 */
export function readOptionsOnce<K extends string>(options: object, keys: readonly K[], base: string, problems: UsageProblem[]): ReadOptions<K> {
  const values = Object.create(null) as Partial<Record<K, unknown>>
  const unreadable = new Set<K>()
  for (const key of keys) {
    try {
      values[key] = (options as Record<K, unknown>)[key]
    } catch {
      unreadable.add(key)
      problems.push({ path: `${base}/${key}`, code: 'unreadable_option', message: `${key} could not be read (a getter or a Proxy threw)` })
    }
  }
  return { values, unreadable }
}
