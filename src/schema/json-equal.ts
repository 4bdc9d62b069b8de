/**
 * Structural equality of JSON values, as ajv's `enum`/`const` compare them (fast-deep-equal):
 * numbers by `===` (so `0` equals `-0`), arrays element-wise, objects by own enumerable keys in
 * any order.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false
    return true
  }
  if (Array.isArray(b)) return false
  const ka = Object.keys(a)
  if (ka.length !== Object.keys(b).length) return false
  for (const key of ka) {
    if (!Object.hasOwn(b, key) || !jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false
  }
  return true
}

/** True if `list` holds a value {@link jsonEqual} to `value`. */
export function includesJson(list: readonly unknown[], value: unknown): boolean {
  for (const item of list) if (jsonEqual(item, value)) return true
  return false
}
