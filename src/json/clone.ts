/**
 * A deep copy of a plain JSON value, with every string passed through `mapString` (identity by
 * default). A JSON-parsed `__proto__` key is defined as a data property, so it stays a key and
 * never changes the copy's prototype. The input must already be plain JSON (no cycles).
 */
export function cloneJson(value: unknown, mapString?: (text: string) => string): unknown {
  if (typeof value === 'string') return mapString === undefined ? value : mapString(value)
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    const items: unknown[] = []
    for (let i = 0; i < value.length; i++) items.push(cloneJson(value[i], mapString))
    return items
  }
  const out: Record<string, unknown> = {}
  const keys = Object.keys(value)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    setOwn(out, key, cloneJson((value as Record<string, unknown>)[key], mapString))
  }
  return out
}

/** `out[key] = value` as an own data property, even for `__proto__` (assigning it would set the prototype). */
export function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
  else out[key] = value
}
