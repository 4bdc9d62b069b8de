import type FC from 'fast-check'
import { fc, lazy } from './fast-check.js'
import type { JsonSchema } from 'result-views'
import { appendPointer } from '../json/pointer.js'
import { probedFilter, type MaybeArbitrary } from './arbitrary-context.js'
import { SchemaArbitraryError } from './schema-arbitrary-error.js'
import { readCount, readNumber } from './schema-keywords.js'

/** One code point per unit, mostly printable ASCII, sometimes any code point (never a lone surrogate). */
const CODE_POINT: () => FC.Arbitrary<string> = lazy(() => fc.oneof(
  { weight: 9, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
))

/** The `format` names `jsonSchemaArbitrary` generates strings for (ajv-formats semantics). */
export const SUPPORTED_FORMATS: readonly string[] = ['date-time', 'date', 'time', 'uuid', 'email', 'uri', 'ipv4', 'ipv6', 'hostname']

/** Generators for {@link SUPPORTED_FORMATS}, built on first use. */
const FORMATS = lazy((): Readonly<Record<string, FC.Arbitrary<string>>> => {
  const dates = fc.date({
    min: new Date('1900-01-01T00:00:00.000Z'),
    max: new Date('2199-12-31T23:59:59.999Z'),
    noInvalidDate: true,
  })
  return {
    'date-time': dates.map((date) => date.toISOString()),
    date: dates.map((date) => date.toISOString().slice(0, 10)),
    time: dates.map((date) => date.toISOString().slice(11)),
    uuid: fc.uuid(),
    email: fc.emailAddress(),
    uri: fc.webUrl(),
    ipv4: fc.ipV4(),
    ipv6: fc.ipV6(),
    hostname: fc.domain(),
  }
})

/** Length as JSON Schema counts it: code points. */
function codePointLength(value: string): number {
  let length = 0
  for (const _ of value) length++
  return length
}

function patternArbitrary(pattern: unknown, pointer: string): { regex: RegExp; arbitrary: FC.Arbitrary<string> } {
  const at = appendPointer(pointer, 'pattern')
  if (typeof pattern !== 'string') {
    throw new SchemaArbitraryError('invalid_keyword_value', 'pattern', at, '"pattern" must be a string')
  }
  try {
    const regex = new RegExp(pattern, 'u')
    return { regex, arbitrary: fc.stringMatching(regex) }
  } catch (error) {
    throw new SchemaArbitraryError('invalid_keyword_value', 'pattern', at,
      `cannot generate strings for "pattern" ${JSON.stringify(pattern)}: ${(error as Error).message}`)
  }
}

/**
 * Strings valid under `minLength`, `maxLength`, `format` (see {@link SUPPORTED_FORMATS}) and
 * `pattern` (via `fc.stringMatching`). An unknown `format` is accepted only beside a `pattern`,
 * which then drives generation.
 */
export function stringArbitrary(schema: JsonSchema, pointer: string): MaybeArbitrary {
  const minLength = readCount(schema, 'minLength', pointer) ?? 0
  const maxLength = readCount(schema, 'maxLength', pointer)
  if (maxLength !== undefined && maxLength < minLength) return undefined
  const format = schema['format']
  let formatArbitrary: FC.Arbitrary<string> | undefined
  if (format !== undefined) {
    const at = appendPointer(pointer, 'format')
    if (typeof format !== 'string') {
      throw new SchemaArbitraryError('invalid_keyword_value', 'format', at, '"format" must be a string')
    }
    const formats = FORMATS()
    formatArbitrary = Object.hasOwn(formats, format) ? formats[format] : undefined
    if (formatArbitrary === undefined && schema['pattern'] === undefined) {
      throw new SchemaArbitraryError('invalid_keyword_value', 'format', at,
        `unsupported "format": ${JSON.stringify(format)} (supported: ${SUPPORTED_FORMATS.join(', ')}; or add a "pattern")`)
    }
  }
  const pattern = schema['pattern'] === undefined ? undefined : patternArbitrary(schema['pattern'], pointer)
  if (formatArbitrary === undefined && pattern === undefined) {
    return fc.string({ unit: CODE_POINT(), minLength, ...(maxLength === undefined ? {} : { maxLength }) })
  }
  let result: FC.Arbitrary<unknown> = formatArbitrary ?? pattern!.arbitrary
  if (formatArbitrary !== undefined && pattern !== undefined) {
    const regex = pattern.regex
    result = probedFilter(result, (value) => regex.test(value as string), 'pattern', pointer, 'of the "format" match "pattern"')
  }
  if (minLength > 0 || maxLength !== undefined) {
    const keyword = minLength > 0 ? 'minLength' : 'maxLength'
    result = probedFilter(result, (value) => {
      const length = codePointLength(value as string)
      return length >= minLength && (maxLength === undefined || length <= maxLength)
    }, keyword, pointer, 'of the "format"/"pattern" have an allowed length')
  }
  return result
}

/** ajv's `multipleOf` test (without `multipleOfPrecision`): `value / divisor` parses as itself. */
function isMultipleOf(value: number, divisor: number): boolean {
  const ratio = value / divisor
  return ratio === parseInt(String(ratio), 10)
}

interface Bounds {
  min: number
  max: number
  minExcluded: boolean
  maxExcluded: boolean
}

function readBounds(schema: JsonSchema, pointer: string, limit: number): Bounds {
  const minimum = readNumber(schema, 'minimum', pointer)
  const maximum = readNumber(schema, 'maximum', pointer)
  const exclusiveMinimum = readNumber(schema, 'exclusiveMinimum', pointer)
  const exclusiveMaximum = readNumber(schema, 'exclusiveMaximum', pointer)
  const bounds: Bounds = { min: -limit, max: limit, minExcluded: false, maxExcluded: false }
  if (minimum !== undefined && minimum > bounds.min) bounds.min = minimum
  if (exclusiveMinimum !== undefined && exclusiveMinimum >= bounds.min) {
    bounds.min = exclusiveMinimum
    bounds.minExcluded = true
  }
  if (maximum !== undefined && maximum < bounds.max) bounds.max = maximum
  if (exclusiveMaximum !== undefined && exclusiveMaximum <= bounds.max) {
    bounds.max = exclusiveMaximum
    bounds.maxExcluded = true
  }
  return bounds
}

/** The integers inside `bounds`, clamped to the safe range; `undefined` when there are none. */
function integerRange(bounds: Bounds): { min: number; max: number } | undefined {
  let min = Math.ceil(bounds.min)
  if (bounds.minExcluded && min === bounds.min) min += 1
  let max = Math.floor(bounds.max)
  if (bounds.maxExcluded && max === bounds.max) max -= 1
  min = Math.max(min, Number.MIN_SAFE_INTEGER)
  max = Math.min(max, Number.MAX_SAFE_INTEGER)
  return min <= max ? { min, max } : undefined
}

function readMultipleOf(schema: JsonSchema, pointer: string): number | undefined {
  const multipleOf = readNumber(schema, 'multipleOf', pointer)
  if (multipleOf !== undefined && multipleOf <= 0) {
    const at = appendPointer(pointer, 'multipleOf')
    throw new SchemaArbitraryError('invalid_keyword_value', 'multipleOf', at, '"multipleOf" must be greater than 0')
  }
  return multipleOf
}

function inBounds(value: number, bounds: Bounds): boolean {
  return (bounds.minExcluded ? value > bounds.min : value >= bounds.min) && (bounds.maxExcluded ? value < bounds.max : value <= bounds.max)
}

/** Multiples `k * multipleOf` inside `bounds` that ajv accepts (magnitudes kept under 1e15). */
function multiplesArbitrary(bounds: Bounds, multipleOf: number, pointer: string): MaybeArbitrary {
  const clamped: Bounds = { ...bounds, min: Math.max(bounds.min, -1e15), max: Math.min(bounds.max, 1e15) }
  const range = integerRange({ min: clamped.min / multipleOf, max: clamped.max / multipleOf, minExcluded: false, maxExcluded: false })
  if (range === undefined) return undefined
  const multiples = fc.integer(range).map((k) => k * multipleOf)
  return probedFilter(multiples, (value) => inBounds(value as number, clamped) && isMultipleOf(value as number, multipleOf),
    'multipleOf', pointer, 'are multiples inside the bounds')
}

/** Integers valid under `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (numeric form) and `multipleOf`. */
export function integerArbitrary(schema: JsonSchema, pointer: string): MaybeArbitrary {
  const bounds = readBounds(schema, pointer, Number.MAX_SAFE_INTEGER)
  const multipleOf = readMultipleOf(schema, pointer)
  if (multipleOf !== undefined) {
    if (Number.isInteger(multipleOf)) return multiplesArbitrary(bounds, multipleOf, pointer)
    const range = integerRange(bounds)
    if (range === undefined) return undefined
    return probedFilter(fc.integer(range), (value) => isMultipleOf(value as number, multipleOf), 'multipleOf', pointer,
      'are integer multiples')
  }
  const range = integerRange(bounds)
  return range === undefined ? undefined : fc.integer(range)
}

/** Finite numbers (doubles and integers) valid under the same keywords as {@link integerArbitrary}. */
export function numberArbitrary(schema: JsonSchema, pointer: string): MaybeArbitrary {
  const bounds = readBounds(schema, pointer, Number.MAX_VALUE)
  if (bounds.min > bounds.max || (bounds.min === bounds.max && (bounds.minExcluded || bounds.maxExcluded))) return undefined
  const multipleOf = readMultipleOf(schema, pointer)
  if (multipleOf !== undefined) return multiplesArbitrary(bounds, multipleOf, pointer)
  const doubles = fc
    .double({ min: bounds.min, max: bounds.max, minExcluded: bounds.minExcluded, maxExcluded: bounds.maxExcluded, noNaN: true, noDefaultInfinity: true })
  const range = integerRange(bounds)
  return range === undefined ? doubles : fc.oneof(doubles, fc.integer(range))
}
