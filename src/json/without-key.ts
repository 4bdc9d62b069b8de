import { setOwn } from './clone.js'

/**
 * A shallow copy of a record without `key`. Every other key is defined as data, so a JSON-parsed
 * `__proto__` key stays a key and never changes the copy's prototype.
 */
export function withoutKey<T extends Record<string, unknown>>(record: T, key: string): T {
  const copy: Record<string, unknown> = {}
  for (const k of Object.keys(record)) if (k !== key) setOwn(copy, k, record[k])
  return copy as T
}
