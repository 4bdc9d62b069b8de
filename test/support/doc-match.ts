// Matching a value against an example in the docs: the example may leave things out.

/**
 * Whether `actual` matches a documented `expected` value: `"…"` matches anything; an object matches
 * when each key it shows matches (keys it leaves out may be anything); a list matches item by item,
 * and a last item `"…"` allows more items; anything else must be equal.
 */
export function documentMatches(actual: unknown, expected: unknown): boolean {
  if (expected === '…') return true
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return false
    const open = expected.at(-1) === '…'
    const shown = open ? expected.slice(0, -1) : expected
    if (open ? actual.length < shown.length : actual.length !== shown.length) return false
    return shown.every((item, index) => documentMatches(actual[index], item))
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false
    return Object.entries(expected).every(([key, value]) => Object.hasOwn(actual, key) && documentMatches((actual as Record<string, unknown>)[key], value))
  }
  return Object.is(actual, expected)
}
