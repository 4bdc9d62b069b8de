/**
 * A deep copy of a plain JSON value, with every string passed through `mapString` (identity by
 * default). Keys are defined as data properties, so a JSON-parsed `__proto__` key stays a key.
 * The input must already be plain JSON (no cycles).
 */
export function cloneJson(value: unknown, mapString: (text: string) => string = (text) => text): unknown {
  if (typeof value === 'string') return mapString(value)
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map((item) => cloneJson(item, mapString))
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    Object.defineProperty(out, key, {
      value: cloneJson((value as Record<string, unknown>)[key], mapString),
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return out
}
