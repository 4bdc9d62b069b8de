import type FC from 'fast-check'
import { fc, lazy } from './fast-check.js'
import type { JsonSchema, JsonValue } from 'result-views'
import { setOwn } from '../json/clone.js'
import { appendPointer } from '../json/pointer.js'
import { canonicalJson } from '../json/canonical.js'
import { childAt, probedFilter, type CompileContext, type Location, type MaybeArbitrary } from './arbitrary-context.js'
import { SchemaArbitraryError } from './schema-arbitrary-error.js'
import { isSchemaObject, readCount } from './schema-keywords.js'

const ABSENT: unique symbol = Symbol('absent')

/** Keys for extra properties: short ASCII strings, now and then a key that trips naive copying. */
const EXTRA_KEY: () => FC.Arbitrary<string> = lazy(() => fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 10 }) },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString') },
))

function invalid(keyword: string, pointer: string, what: string): SchemaArbitraryError {
  const at = appendPointer(pointer, keyword)
  return new SchemaArbitraryError('invalid_keyword_value', keyword, at, `"${keyword}" must be ${what}`)
}

function readSchemaMap(schema: JsonSchema, keyword: string, pointer: string): Record<string, unknown> {
  const value = schema[keyword]
  if (value === undefined) return {}
  if (!isSchemaObject(value)) throw invalid(keyword, pointer, 'an object of schemas')
  return value as Record<string, unknown>
}

/** The key arbitrary filtered by `accept`, or `undefined` when 64 probes find no accepted key. */
function keysWhere(keys: FC.Arbitrary<string>, accept: (key: string) => boolean): FC.Arbitrary<string> | undefined {
  const probes = fc.sample(keys, { numRuns: 64, seed: 0x5eed })
  return probes.some(accept) ? keys.filter(accept) : undefined
}

interface Field {
  readonly key: string
  readonly arbitrary: FC.Arbitrary<unknown>
  readonly required: boolean
}

/**
 * Objects valid under `properties`, `required`, `patternProperties` and `additionalProperties`.
 * Optional properties are absent about a third of the time; extra keys (valid under the open
 * `additionalProperties` schema, or matching one pattern) appear about two times in five.
 * Built with `Object.defineProperty`, so keys like `__proto__` are own data properties.
 */
export function objectArbitrary(ctx: CompileContext, schema: JsonSchema, at: Location): MaybeArbitrary {
  const pointer = at.pointer
  const properties = readSchemaMap(schema, 'properties', pointer)
  const patternSchemas = readSchemaMap(schema, 'patternProperties', pointer)
  const requiredValue = schema['required'] ?? []
  if (!Array.isArray(requiredValue) || !requiredValue.every((key) => typeof key === 'string')) {
    throw invalid('required', pointer, 'an array of strings')
  }
  const required = new Set(requiredValue as string[])
  const patterns = Object.keys(patternSchemas).map((source) => {
    try {
      return { source, regex: new RegExp(source, 'u') }
    } catch {
      throw invalid('patternProperties', pointer, `keyed by valid regular expressions (got ${JSON.stringify(source)})`)
    }
  })
  const additional = schema['additionalProperties'] ?? true
  const additionalArbitrary: MaybeArbitrary = ctx.compile(additional, childAt(at, 'additionalProperties'))

  const fields: Field[] = []
  for (const key of Object.keys(properties)) {
    const clash = patterns.find(({ regex }) => regex.test(key))
    if (clash !== undefined) {
      const where = appendPointer(pointer, 'patternProperties', clash.source)
      throw new SchemaArbitraryError('unsupported_combination', 'patternProperties', where,
        `declared property ${JSON.stringify(key)} also matches a "patternProperties" pattern`)
    }
    const arbitrary = ctx.compile(properties[key], childAt(at, 'properties', key))
    if (arbitrary === undefined) {
      if (required.has(key)) return undefined
      continue
    }
    fields.push({ key, arbitrary, required: required.has(key) })
  }
  for (const key of required) {
    if (Object.prototype.hasOwnProperty.call(properties, key)) continue
    const matching = patterns.filter(({ regex }) => regex.test(key))
    if (matching.length > 1) {
      throw new SchemaArbitraryError('unsupported_combination', 'patternProperties', appendPointer(pointer, 'patternProperties'),
        `required property ${JSON.stringify(key)} matches several patterns`)
    }
    const arbitrary = matching[0] === undefined
      ? additionalArbitrary
      : ctx.compile(patternSchemas[matching[0].source], childAt(at, 'patternProperties', matching[0].source))
    if (arbitrary === undefined) return undefined
    fields.push({ key, arbitrary, required: true })
  }

  const declared = (key: string): boolean => Object.prototype.hasOwnProperty.call(properties, key) || required.has(key)
  const sources: Array<FC.Arbitrary<[string, unknown]>> = []
  if (additionalArbitrary !== undefined) {
    const keys = keysWhere(EXTRA_KEY(), (key) => !declared(key) && !patterns.some(({ regex }) => regex.test(key)))
    if (keys !== undefined) sources.push(fc.tuple(keys, additionalArbitrary))
  }
  for (const pattern of patterns) {
    const values = ctx.compile(patternSchemas[pattern.source], childAt(at, 'patternProperties', pattern.source))
    if (values === undefined) continue
    const keys = keysWhere(fc.stringMatching(pattern.regex, { size: 'xsmall' }),
      (key) => !declared(key) && patterns.every((other) => other === pattern || !other.regex.test(key)))
    if (keys !== undefined) sources.push(fc.tuple(keys, values))
  }
  const none: Array<[string, unknown]> = []
  const extras: FC.Arbitrary<Array<[string, unknown]>> = sources.length === 0
    ? fc.constant(none)
    : fc.oneof(
      { weight: 3, arbitrary: fc.constant(none) },
      { weight: 2, arbitrary: fc.uniqueArray(fc.oneof(...sources), { selector: (entry) => entry[0], minLength: 1, maxLength: Math.max(1, ctx.maxArrayLength) }) },
    )

  const values = fc.tuple(...fields.map((field) =>
    field.required ? field.arbitrary : fc.option(field.arbitrary, { nil: ABSENT, freq: 3 })))
  return fc.tuple(values, extras).map(([fieldValues, extraEntries]) => {
    const record: Record<string, unknown> = {}
    fields.forEach((field, index) => {
      const value = fieldValues[index]
      if (value !== ABSENT) setOwn(record, field.key, value)
    })
    for (const [key, value] of extraEntries) setOwn(record, key, value)
    return record
  })
}

/** Equality key of a generated JSON value (canonical JSON: key order does not matter, as for ajv). */
function uniqueKey(value: unknown): string {
  return canonicalJson(value as JsonValue)
}

function hasUniqueItems(value: unknown): boolean {
  const items = value as unknown[]
  return new Set(items.map(uniqueKey)).size === items.length
}

/**
 * Arrays valid under `items` (a schema, or the draft-07 tuple form with `additionalItems`),
 * `minItems`, `maxItems` and `uniqueItems`. At most `max(minItems, tuple length) + maxArrayLength` items.
 */
export function arrayArbitrary(ctx: CompileContext, schema: JsonSchema, at: Location): MaybeArbitrary {
  const pointer = at.pointer
  const minItems = readCount(schema, 'minItems', pointer) ?? 0
  const maxItems = readCount(schema, 'maxItems', pointer)
  if (maxItems !== undefined && maxItems < minItems) return undefined
  const uniqueItems = schema['uniqueItems'] ?? false
  if (typeof uniqueItems !== 'boolean') throw invalid('uniqueItems', pointer, 'a boolean')
  const items = schema['items']
  let prefix: MaybeArbitrary[] = []
  let rest: MaybeArbitrary
  if (Array.isArray(items)) {
    prefix = items.map((item, index) => ctx.compile(item, childAt(at, 'items', index)))
    rest = ctx.compile(schema['additionalItems'] ?? true, childAt(at, 'additionalItems'))
  } else {
    rest = ctx.compile(items ?? true, childAt(at, 'items'))
  }
  const firstMissing = prefix.findIndex((arbitrary) => arbitrary === undefined)
  const high = Math.min(
    maxItems ?? Number.POSITIVE_INFINITY,
    Math.max(minItems, prefix.length) + ctx.maxArrayLength,
    firstMissing < 0 ? Number.POSITIVE_INFINITY : firstMissing,
    rest === undefined ? prefix.length : Number.POSITIVE_INFINITY,
  )
  if (minItems > high) return undefined
  if (high === 0) return fc.constant(null).map(() => [])
  if (prefix.length === 0) {
    const element = rest as FC.Arbitrary<unknown>
    return uniqueItems
      ? fc.uniqueArray(element, { minLength: minItems, maxLength: high, selector: uniqueKey })
      : fc.array(element, { minLength: minItems, maxLength: high })
  }
  const tuples = fc.integer({ min: minItems, max: high }).chain((length) =>
    fc.tuple(...Array.from({ length }, (_, index) => (index < prefix.length ? prefix[index] : rest) as FC.Arbitrary<unknown>)))
  return uniqueItems ? probedFilter(tuples, hasUniqueItems, 'uniqueItems', pointer, 'have unique items') : tuples
}
