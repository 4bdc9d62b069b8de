/** The wildcard of policy patterns: matches any run of characters, including none. */
export const WILDCARD = '*'

/** A compiled list of ID patterns. */
export interface PatternList {
  /** The entries as given (after retired IDs were dropped). */
  readonly entries: readonly string[]
  /** True when some entry matches `id`. */
  matches(id: string): boolean
}

/** True for an entry holding the `*` wildcard (never a retired entry: `docs/policy.md` "Retired tool IDs: `createRetiredIdFilter`"). */
export function isWildcard(entry: string): boolean {
  return entry.includes(WILDCARD)
}

/**
 * Compiles ID patterns: an entry without `*` matches that exact ID; `*` matches any run of
 * characters (`*` alone matches every ID, `compozy__session_*` every ID with that prefix).
 * Every other character matches itself (no regular-expression syntax).
 */
export function compilePatterns(entries: readonly string[]): PatternList {
  const exact = new Set<string>()
  const wild: RegExp[] = []
  for (const entry of entries) {
    if (isWildcard(entry)) wild.push(new RegExp('^' + entry.split(WILDCARD).map(escapeRegExp).join('.*') + '$', 's'))
    else exact.add(entry)
  }
  return {
    entries: Object.freeze([...entries]),
    matches: (id: string): boolean => exact.has(id) || wild.some((re) => re.test(id)),
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.|?+()[\]{}*]/g, '\\$&')
}
