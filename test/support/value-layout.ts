import fc from 'fast-check'
import type { JsonSchema } from 'result-views'
import { jsonSchemaArbitrary } from 'result-views/testing'

/**
 * Helpers of the differential property tests in test/views (projector and full-record copy
 * against their general counterparts).
 */

/**
 * A value as plain data that `toEqual` compares exactly: each object or array as its prototype
 * and its own entries in enumeration order (so `__proto__` and `constructor` keys are data too).
 */
export function layout(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value === undefined ? { undefined: true } : value
  const proto = Object.getPrototypeOf(value)
  return {
    proto: proto === Object.prototype ? 'object' : proto === Array.prototype ? 'array' : 'other',
    entries: Object.keys(value).map((key) => [key, layout((value as Record<string, unknown>)[key])]),
  }
}

/** An object schema (`{ properties, required }`) with a required literal `kind` tag added first. */
export function withTag(object: JsonSchema, tag: unknown): JsonSchema {
  const o = object as { properties: Record<string, JsonSchema>; required: string[] }
  return { ...o, properties: { kind: { const: tag }, ...o.properties }, required: ['kind', ...o.required] }
}

/** Options the tests generate valid records with. */
export const RECORD_OPTIONS = { maxDepth: 3, maxArrayLength: 3 } as const

/** Whether `jsonSchemaArbitrary` can generate valid values of the schema. */
export function satisfiable(schema: JsonSchema): boolean {
  try {
    fc.sample(jsonSchemaArbitrary(schema, RECORD_OPTIONS), { numRuns: 1, seed: 1 })
    return true
  } catch {
    return false
  }
}
