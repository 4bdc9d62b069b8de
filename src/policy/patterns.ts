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
 * Every other character matches itself (no regular-expression syntax). Characters are UTF-16
 * code units, as `String.prototype` methods count them.
 *
 * Matching takes time linear in the ID and the pattern (`docs/policy.md` "Patterns"), whatever the
 * pattern: no regular expression, no backtracking.
 */
export function compilePatterns(entries: readonly string[]): PatternList {
  const exact = new Set<string>()
  const wild: WildcardPattern[] = []
  for (const entry of entries) {
    if (isWildcard(entry)) wild.push(compileWildcard(entry))
    else exact.add(entry)
  }
  return {
    entries: Object.freeze([...entries]),
    matches: (id: string): boolean => exact.has(id) || wild.some((pattern) => matchesWildcard(pattern, id)),
  }
}

/**
 * A pattern with at least one `*`, split at its stars: `prefix*middle1*…*middleN*suffix`. Each
 * middle part carries its KMP failure table, so finding it scans each ID character at most a
 * constant number of times.
 */
interface WildcardPattern {
  readonly prefix: string
  readonly middles: readonly Segment[]
  readonly suffix: string
}

interface Segment {
  readonly text: string
  /** `failure[i]`: length of the longest proper prefix of `text[0..i]` that is also its suffix. */
  readonly failure: Int32Array
}

function compileWildcard(entry: string): WildcardPattern {
  const parts = entry.split(WILDCARD)
  const middles = parts.slice(1, -1).filter((part) => part.length > 0).map((text) => ({ text, failure: failureTable(text) }))
  return { prefix: parts[0]!, middles, suffix: parts.at(-1)! }
}

/**
 * Whether `id` matches: the prefix starts it, the suffix ends it (after the prefix), and the middle
 * parts occur in order between them. Taking each middle part at its leftmost occurrence is exact
 * for `*`-only patterns (a later occurrence leaves less room, never more), so no choice is ever
 * revisited: O(|id| + |pattern|).
 */
function matchesWildcard(pattern: WildcardPattern, id: string): boolean {
  const { prefix, suffix } = pattern
  if (id.length < prefix.length + suffix.length || !id.startsWith(prefix) || !id.endsWith(suffix)) return false
  let at = prefix.length
  const end = id.length - suffix.length
  for (const segment of pattern.middles) {
    const found = indexOfSegment(id, segment, at, end)
    if (found === -1) return false
    at = found + segment.text.length
  }
  return true
}

/** Knuth–Morris–Pratt: the first index ≥ `from` where `segment` occurs wholly before `end`, or -1. */
function indexOfSegment(id: string, segment: Segment, from: number, end: number): number {
  const { text, failure } = segment
  let matched = 0
  for (let i = from; i < end; i++) {
    const code = id.charCodeAt(i)
    while (matched > 0 && text.charCodeAt(matched) !== code) matched = failure[matched - 1]!
    if (text.charCodeAt(matched) === code) matched++
    if (matched === text.length) return i - text.length + 1
  }
  return -1
}

function failureTable(text: string): Int32Array {
  const failure = new Int32Array(text.length)
  let length = 0
  for (let i = 1; i < text.length; i++) {
    while (length > 0 && text.charCodeAt(i) !== text.charCodeAt(length)) length = failure[length - 1]!
    if (text.charCodeAt(i) === text.charCodeAt(length)) length++
    failure[i] = length
  }
  return failure
}
