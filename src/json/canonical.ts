import stableStringify from 'fast-json-stable-stringify'
import { JsonValueError } from './json-value-error.js'
import { appendPointer } from './pointer.js'

/** A plain JSON value: what {@link assertPlainJson} accepts. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }

/** Deepest nesting `canonicalJson` accepts (objects and arrays), to stay clear of the call stack. */
export const MAX_JSON_DEPTH = 10_000

const isWellFormed = (s: string): boolean =>
  (s as string & { isWellFormed(): boolean }).isWellFormed()

/**
 * Checks that `value` is plain JSON: plain objects (prototype `Object.prototype` or `null`),
 * dense arrays, well-formed strings, finite numbers, booleans and `null`, with no cycles and no
 * deeper than {@link MAX_JSON_DEPTH}. Source: DESIGN.md glossary, "canonical JSON".
 *
 * @throws JsonValueError (`code: 'non_json_value'`) naming the JSON Pointer of the first offending
 *   value: `undefined`, functions, symbols, BigInt, NaN/±Infinity, lone surrogates (in strings or
 *   keys), cycles, objects with `toJSON`, Dates, Maps, Sets, boxed primitives, class instances,
 *   sparse arrays.
 */
export function assertPlainJson(value: unknown): asserts value is JsonValue {
  check(value, '', new Set(), 0)
}

function check(value: unknown, pointer: string, ancestors: Set<object>, depth: number): void {
  switch (typeof value) {
    case 'string':
      if (!isWellFormed(value)) throw new JsonValueError('lone_surrogate', pointer, 'string holds a lone surrogate')
      return
    case 'number':
      if (!Number.isFinite(value)) throw new JsonValueError('non_finite_number', pointer, `${value} is not a finite number`)
      return
    case 'boolean':
      return
    case 'undefined':
      throw new JsonValueError('undefined', pointer, 'undefined')
    case 'function':
      throw new JsonValueError('function', pointer, 'a function')
    case 'symbol':
      throw new JsonValueError('symbol', pointer, 'a symbol')
    case 'bigint':
      throw new JsonValueError('bigint', pointer, 'a BigInt')
  }
  if (value === null) return
  const object = value as object
  if (depth >= MAX_JSON_DEPTH) throw new JsonValueError('too_deep', pointer, `nested deeper than ${MAX_JSON_DEPTH}`)
  if (ancestors.has(object)) throw new JsonValueError('cycle', pointer, 'a cycle back to an enclosing value')
  ancestors.add(object)
  if (Array.isArray(object)) {
    for (let i = 0; i < object.length; i++) {
      if (!(i in object)) throw new JsonValueError('sparse_array', appendPointer(pointer, i), 'a hole in an array')
      check(object[i], appendPointer(pointer, i), ancestors, depth + 1)
    }
  } else {
    const proto = Object.getPrototypeOf(object)
    if (proto !== Object.prototype && proto !== null) {
      const name = (proto?.constructor as { name?: string } | undefined)?.name ?? 'unknown'
      throw new JsonValueError('non_plain_object', pointer, `an instance of ${name}, not a plain object`)
    }
    if (Object.getOwnPropertySymbols(object).length > 0) {
      throw new JsonValueError('symbol', pointer, 'an object with symbol keys')
    }
    const record = object as Record<string, unknown>
    if (typeof record.toJSON === 'function') throw new JsonValueError('to_json', pointer, 'an object with toJSON')
    for (const key of Object.keys(record)) {
      const child = appendPointer(pointer, key)
      if (!isWellFormed(key)) throw new JsonValueError('lone_surrogate', child, 'key holds a lone surrogate')
      check(record[key], child, ancestors, depth + 1)
    }
  }
  ancestors.delete(object)
}

/**
 * Canonical JSON text of a plain JSON value: keys sorted by UTF-16 code units, no whitespace,
 * ECMAScript number and string serialization. On plain JSON this equals RFC 8785 (JCS).
 *
 * @param value - any value; checked with {@link assertPlainJson} first.
 * @returns the canonical JSON string.
 * @throws JsonValueError (`code: 'non_json_value'`) for anything that is not plain JSON.
 */
export function canonicalJson(value: unknown): string {
  assertPlainJson(value)
  return stableStringify(value)
}

/** Canonical JSON of a value already checked by {@link assertPlainJson} (no second walk). */
export function canonicalJsonOfChecked(value: JsonValue): string {
  return stableStringify(value)
}
