/** The marker every surface but the handler sees in place of a sensitive value (`docs/hooks.md` "Sensitive input fields"). */
export const REDACTED = '[REDACTED]'

/** One step of a sensitive path: a property name, then whether it steps into every array element. */
export interface PathStep {
  readonly key: string
  readonly each: boolean
}

/** A parsed sensitive input field path. */
export type SensitivePath = readonly PathStep[]

const STEP = /^([^.[\]]+)(\[\])?$/

/**
 * Parses a dotted sensitive-field path: `secret_ref`, `auth.token`, `items[].token`,
 * `matrix[].rows[]` (`docs/hooks.md` "Sensitive input fields"). Property names cannot contain `.`, `[`
 * or `]`.
 *
 * @returns the steps, or `undefined` for a malformed path (empty, `a..b`, `a[0]`, `[]`).
 */
export function parseSensitivePath(path: string): SensitivePath | undefined {
  if (typeof path !== 'string' || path.length === 0) return undefined
  const known = parsed.get(path)
  if (known !== undefined) return known
  const steps: PathStep[] = []
  for (const part of path.split('.')) {
    const match = STEP.exec(part)
    if (match === null) return undefined
    steps.push(Object.freeze({ key: match[1]!, each: match[2] !== undefined }))
  }
  // Hosts send the same few field names on every call: remembered, up to a bound (field names,
  // never values; the cache starts over when full).
  const frozen = Object.freeze(steps)
  if (path.length <= LONGEST_KEPT_PATH) {
    if (parsed.size >= PARSED_PATHS_KEPT) parsed.clear()
    parsed.set(path, frozen)
  }
  return frozen
}

/** How many parsed paths are remembered at most, and the longest remembered (UTF-16 code units). */
const PARSED_PATHS_KEPT = 256
const LONGEST_KEPT_PATH = 256
const parsed = new Map<string, SensitivePath>()

/** Parses every path; returns the malformed ones' indexes in `invalid`. */
export function parseSensitivePaths(paths: readonly string[]): { paths: SensitivePath[]; invalid: number[] } {
  const parsed: SensitivePath[] = []
  const invalid: number[] = []
  paths.forEach((path, index) => {
    const steps = parseSensitivePath(path)
    if (steps === undefined) invalid.push(index)
    else parsed.push(steps)
  })
  return { paths: parsed, invalid }
}
