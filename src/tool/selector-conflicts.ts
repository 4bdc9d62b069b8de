import { appendPointer } from '../json/pointer.js'
import type { JsonSchema } from '../schema/json-schema.js'
import { RESULT_VIEW_KEY } from '../views/view.js'
import { isRecord } from '../json/guards.js'

/** A place where a native tool's input schema claims or constrains the `result_view` key. */
export interface SelectorConflict {
  /** JSON Pointer into the input schema. */
  readonly pointer: string
  readonly message: string
}

const OWNED = 'a native tool must not declare "result_view": the library adds the selector to tools with views (see docs/views.md, "The selector")'

/**
 * Every way a native tool's input schema would declare or constrain `result_view` itself, which
 * would contradict the selector the library adds (`docs/views.md` "The selector"): the property, a
 * `required` entry, a `patternProperties` pattern matching the key, the same in the top-level
 * `allOf`/`anyOf`/`oneOf` branches, and `propertyNames` / `maxProperties` (the advertised schema
 * would refuse the selector).
 */
export function selectorConflicts(input: JsonSchema, at = ''): SelectorConflict[] {
  const conflicts: SelectorConflict[] = []
  const properties = input.properties as Record<string, unknown> | undefined
  if (isRecord(properties) && Object.prototype.hasOwnProperty.call(properties, RESULT_VIEW_KEY)) {
    conflicts.push({ pointer: appendPointer(at, 'properties', RESULT_VIEW_KEY), message: OWNED })
  }
  if (Array.isArray(input.required) && input.required.includes(RESULT_VIEW_KEY)) {
    conflicts.push({ pointer: appendPointer(at, 'required'), message: OWNED })
  }
  const patterns = input.patternProperties as Record<string, unknown> | undefined
  if (isRecord(patterns)) {
    for (const pattern of Object.keys(patterns)) {
      if (matches(pattern, RESULT_VIEW_KEY)) {
        conflicts.push({ pointer: appendPointer(at, 'patternProperties', pattern), message: `pattern ${JSON.stringify(pattern)} matches "result_view": ${OWNED}` })
      }
    }
  }
  for (const keyword of ['propertyNames', 'maxProperties'] as const) {
    if (input[keyword] !== undefined) {
      conflicts.push({
        pointer: appendPointer(at, keyword),
        message: `${keyword} cannot be combined with the result_view selector: the advertised input schema would refuse "result_view"`,
      })
    }
  }
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = input[keyword]
    if (!Array.isArray(branches)) continue
    branches.forEach((branch, index) => {
      if (isRecord(branch)) conflicts.push(...selectorConflicts(branch as JsonSchema, appendPointer(at, keyword, index)))
    })
  }
  return conflicts
}

/** Whether a `patternProperties` pattern (ECMAScript regex, unicode as ajv compiles it) matches `key`; an invalid pattern does not. */
function matches(pattern: string, key: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(key)
  } catch {
    return false
  }
}
