/** Longest name compared, in UTF-16 code units: a longer one gets no suggestion, so a hostile 100 KB name stays cheap. */
const MAX_NAME_LENGTH = 64
/** Most candidates compared for one name (a schema may list any number of fields). */
const MAX_CANDIDATES = 1000

/**
 * The option or key `name` was likely meant to be: the candidate equal to it up to case, `_` and
 * `-` (`sensitive_input_fields` → `sensitiveInputFields`, `toolSets` → `toolsets`), then up to
 * its plural (`policies` → `policy`), or else the {@link nearestName}. `undefined` for a name longer than 64 code units or with no near candidate.
 */
export function likelyName(name: string, candidates: readonly string[]): string | undefined {
  if (name.length > MAX_NAME_LENGTH) return undefined
  const folded = fold(name)
  return candidates.find((known) => fold(known) === folded) ?? candidates.find((known) => singular(fold(known)) === singular(folded)) ?? nearestName(name, candidates)
}

/** A name without case, `_` and `-`. */
const fold = (name: string): string => name.replace(/[_-]/g, '').toLowerCase()

/** A folded name in the singular: `policies` → `policy`, `hooks` → `hook`. */
const singular = (name: string): string => name.replace(/ies$/, 'y').replace(/s$/, '')

/**
 * The candidate nearest to `name` ("did you mean …?"), by optimal string alignment distance
 * (Levenshtein plus the transposition of two adjacent characters, each edit costing 1) between
 * the lower-cased names, when it is at most `floor(name.length / 3)` edits: `tierr` → `tier`,
 * `modle` → `model`, `ID` → `id`; a name shorter than three characters is matched only up to
 * case. Ties go to the earlier candidate, so callers list the preferred ones first. A name or
 * candidate longer than 64 code units is not compared, nor are candidates past the first 1,000:
 * at most 64 × 64 steps per candidate.
 */
export function nearestName(name: string, candidates: readonly string[]): string | undefined {
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) return undefined
  const target = name.toLowerCase()
  let best: string | undefined
  // Only candidates strictly nearer than this are taken.
  let bound = Math.floor(name.length / 3) + 1
  const count = Math.min(candidates.length, MAX_CANDIDATES)
  for (let index = 0; index < count && bound > 0; index++) {
    const candidate = candidates[index]!
    if (candidate === name || candidate.length > MAX_NAME_LENGTH || Math.abs(candidate.length - name.length) >= bound) continue
    const distance = boundedDistance(target, candidate.toLowerCase(), bound - 1)
    if (distance < bound) {
      best = candidate
      bound = distance
    }
  }
  return best
}

/**
 * The optimal string alignment distance of `a` and `b`, or `cutoff + 1` as soon as it must
 * exceed `cutoff` (the smallest value of a row never decreases from one row to the next).
 */
function boundedDistance(a: string, b: string, cutoff: number): number {
  let twoBack = new Array<number>(b.length + 1).fill(0)
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  let current = new Array<number>(b.length + 1).fill(0)
  for (let i = 1; i <= a.length; i++) {
    current[0] = i
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let distance = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, twoBack[j - 2]! + 1)
      current[j] = distance
      if (distance < rowMin) rowMin = distance
    }
    if (rowMin > cutoff) return cutoff + 1
    ;[twoBack, previous, current] = [previous, current, twoBack]
  }
  return Math.min(previous[b.length]!, cutoff + 1)
}
