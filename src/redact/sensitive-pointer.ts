import { parsePointer, toPointer } from '../json/pointer.js'
import { REDACTED, type SensitivePath } from './sensitive-paths.js'

const INDEX = /^(0|[1-9][0-9]*)$/

/**
 * A JSON Pointer into an input, cut at the sensitive field it points into (`docs/hooks.md`
 * "Sensitive input fields"): `/creds/sk-live~1abc` becomes `/creds` when `creds` is sensitive, so
 * an error names where a problem is without naming a key (or an index) inside a secret, however
 * short. A pointer at a sensitive field itself, above one, or elsewhere is returned as it is.
 * Matching is by the pointer's tokens only: an index token under a `name[]` step counts as an
 * element, whatever the value was.
 */
export function redactPointer(pointer: string, paths: readonly SensitivePath[]): string {
  if (paths.length === 0 || pointer === '') return pointer
  const tokens = parsePointer(pointer)
  let cut = tokens.length
  for (const path of paths) {
    const at = locationLength(tokens, path)
    if (at !== undefined && at < cut) cut = at
  }
  return cut === tokens.length ? pointer : toPointer(tokens.slice(0, cut))
}

/**
 * How many leading tokens of `tokens` name a location of `path` (the field, or an element of a
 * `name[]` field), when the pointer goes strictly below it; `undefined` otherwise.
 */
function locationLength(tokens: readonly string[], path: SensitivePath): number | undefined {
  let t = 0
  for (let s = 0; s < path.length; s++) {
    const step = path[s]!
    if (t >= tokens.length || tokens[t] !== step.key) return undefined
    t++
    if (!step.each) continue
    if (t < tokens.length && INDEX.test(tokens[t]!)) t++
    // `items[].token` through something that is not an array has no location; a last `items[]`
    // step on a non-array value is the field itself.
    else if (s < path.length - 1) return undefined
  }
  return t < tokens.length ? t : undefined
}

/** A validation issue as far as redaction reads it: where it is, and its parameters. */
export interface LocatedIssue {
  readonly instancePath: string
  readonly params: Readonly<Record<string, unknown>>
}

/** The validation parameters that hold a key of the validated value (the others come from the schema). */
const DATA_PARAMS = ['additionalProperty', 'propertyName', 'unevaluatedProperty'] as const

/**
 * Validation issues with every `instancePath` cut at the sensitive field it points into
 * ({@link redactPointer}), and the parameters that name a key of the value (`additionalProperty`,
 * `propertyName`) read `"[REDACTED]"` where the issue is at or inside a sensitive field. The same
 * list when nothing changes.
 */
export function redactIssues<T extends LocatedIssue>(issues: readonly T[], paths: readonly SensitivePath[]): readonly T[] {
  if (paths.length === 0) return issues
  let changed = false
  const out = issues.map((issue) => {
    const cut = redactPointer(issue.instancePath, paths)
    const inside = cut !== issue.instancePath || redactPointer(`${issue.instancePath}/-`, paths) !== `${issue.instancePath}/-`
    if (!inside) return issue
    const params: Record<string, unknown> = { ...issue.params }
    for (const name of DATA_PARAMS) if (typeof params[name] === 'string') params[name] = REDACTED
    changed = true
    return { ...issue, instancePath: cut, params }
  })
  return changed ? out : issues
}
