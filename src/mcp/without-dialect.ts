import type { JsonSchema } from 'result-views'

/** Keywords whose value is one subschema. */
const SUBSCHEMA_KEYWORDS = [
  'additionalProperties', 'additionalItems', 'items', 'contains', 'not', 'if', 'then', 'else',
  'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema',
] as const

/** Keywords whose value is a list of subschemas (`items` as a list is draft-07 tuple form). */
const SUBSCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'] as const

/** Keywords whose value maps names to subschemas. */
const SUBSCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const

/**
 * A copy of a JSON Schema without any `$schema` keyword, at the root or in any subschema position
 * (`properties`, `items`, `anyOf`, `$defs`, ...). A property *named* `$schema` (a key of
 * `properties`) is kept: only the keyword goes.
 *
 * Why: MCP tool schemas are JSON Schema 2020-12 unless they say otherwise, and a foreign dialect
 * URI (a draft-07 `$schema` some generators add) makes strict clients refuse or misread the whole
 * tool. The input is never changed (descriptors are frozen); parts without `$schema` are shared,
 * not copied. Keys are copied with `Object.defineProperty`, so a `__proto__` property name stays
 * a property name.
 */
export function withoutDialect(schema: JsonSchema): JsonSchema {
  return strip(schema) as JsonSchema
}

function strip(schema: unknown): unknown {
  if (!isObject(schema)) return schema
  const out: Record<string, unknown> = {}
  let changed = false
  for (const key of Object.keys(schema)) {
    if (key === '$schema') {
      changed = true
      continue
    }
    const value = schema[key]
    const next = stripKeyword(key, value)
    if (next !== value) changed = true
    define(out, key, next)
  }
  return changed ? out : schema
}

function stripKeyword(key: string, value: unknown): unknown {
  if ((SUBSCHEMA_LIST_KEYWORDS as readonly string[]).includes(key) && Array.isArray(value)) {
    const next = value.map(strip)
    return next.some((item, index) => item !== value[index]) ? next : value
  }
  if ((SUBSCHEMA_KEYWORDS as readonly string[]).includes(key)) return strip(value)
  if ((SUBSCHEMA_MAP_KEYWORDS as readonly string[]).includes(key) && isObject(value)) {
    const next: Record<string, unknown> = {}
    let changed = false
    for (const name of Object.keys(value)) {
      const stripped = strip(value[name])
      if (stripped !== value[name]) changed = true
      define(next, name, stripped)
    }
    return changed ? next : value
  }
  return value
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}
