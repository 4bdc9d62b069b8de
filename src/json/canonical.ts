import stableStringify from 'fast-json-stable-stringify'
import { JsonValueError, type JsonValueProblem } from './json-value-error.js'
import { appendPointer } from './pointer.js'

/** A plain JSON value: what `assertPlainJson` accepts. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }

/** Deepest nesting `canonicalJson` accepts (objects and arrays), to stay clear of the call stack. */
export const MAX_JSON_DEPTH = 5_000

const isWellFormed = (s: string): boolean =>
  (s as string & { isWellFormed(): boolean }).isWellFormed()

/**
 * Checks that `value` is plain JSON: plain objects (prototype `Object.prototype` or `null`),
 * dense arrays, well-formed strings, finite numbers, booleans and `null`, with no cycles and no
 * deeper than {@link MAX_JSON_DEPTH}. See `docs/views.md` "Digests". Symbol-keyed
 * properties are not JSON data: like `JSON.stringify`, the check and the canonical form ignore them.
 *
 * @throws JsonValueError (`code: 'non_json_value'`) naming the JSON Pointer of the first offending
 *   value: `undefined`, functions, symbols, BigInt, NaN/±Infinity, lone surrogates (in strings or
 *   keys), cycles, objects with `toJSON`, Dates, Maps, Sets, boxed primitives, class instances,
 *   sparse arrays.
 */
export function assertPlainJson(value: unknown): asserts value is JsonValue {
  // The common case (plain JSON, not very deep) is answered by an allocation-free recursive walk;
  // anything it does not accept (a bad value, a cycle, or depth past FAST_DEPTH) is walked again by
  // the precise iterative check, which names the JSON Pointer or accepts a deep but valid value.
  if (isPlainFastGuarded(value)) return
  assertPlainJsonPrecisely(value)
}

/** The fast walk; a getter or Proxy trap that throws only sends the value to the precise walk. */
function isPlainFastGuarded(value: unknown): boolean {
  try {
    return isPlainFast(value, 0)
  } catch {
    return false
  }
}

/** Deepest nesting the fast walk follows before it hands over to the precise, iterative one. */
const FAST_DEPTH = 512

function isPlainFast(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
      return isWellFormed(value)
    case 'number':
      return Number.isFinite(value)
    case 'boolean':
      return true
    case 'object':
      break
    default:
      return false
  }
  if (value === null) return true
  if (depth >= FAST_DEPTH) return false
  if (Array.isArray(value)) {
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false
    for (let i = 0; i < value.length; i++) if (!(i in value) || !isPlainFast(value[i], depth + 1)) return false
    return true
  }
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return false
  const record = value as Record<string, unknown>
  if (typeof record.toJSON === 'function') return false
  const keys = Object.keys(record)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    if (!isWellFormed(key) || !isPlainFast(record[key], depth + 1)) return false
  }
  return true
}

/** The precise check: iterative (deep values never exhaust the stack), names the failing pointer. */
function assertPlainJsonPrecisely(value: unknown): void {
  // Iterative depth-first walk: deep values never exhaust the call stack, and a pointer string is
  // built only for the value that fails.
  const ancestors = new Set<object>()
  const frames: Frame[] = []
  let token: string | number | undefined
  let current: unknown = value
  for (;;) {
    const container = checkScalar(current, frames, token)
    if (container !== undefined) {
      if (frames.length >= MAX_JSON_DEPTH) throw fail('too_deep', frames, token, `nested deeper than ${MAX_JSON_DEPTH}`)
      if (ancestors.has(container)) throw fail('cycle', frames, token, 'a cycle back to an enclosing value')
      ancestors.add(container)
      frames.push({ container, token, keys: readable(() => childKeys(container, frames, token), frames, token), index: 0 })
    }
    // Find the next child to visit, leaving finished containers.
    let next: Frame | undefined
    while ((next = frames[frames.length - 1]) !== undefined && next.index >= next.keys.length) {
      ancestors.delete(next.container)
      frames.pop()
    }
    if (next === undefined) return
    const key = next.keys[next.index++]!
    token = key
    if (typeof key === 'number') {
      // Array keys are numbers (childKeys); `in` runs a Proxy's `has` trap, so it is guarded too.
      if (!readable(() => key in next!.container, frames, key)) throw fail('sparse_array', frames, key, 'a hole in an array')
      current = readable(() => (next!.container as unknown[])[key], frames, key)
    } else {
      if (typeof key === 'string' && !isWellFormed(key)) throw fail('lone_surrogate', frames, key, 'key holds a lone surrogate')
      current = readable(() => (next!.container as Record<string, unknown>)[key], frames, key)
    }
  }
}

/**
 * Runs a read of the value (keys, a property, the prototype); a getter or Proxy trap that throws
 * becomes `JsonValueError('unreadable')` at that pointer. Our own `JsonValueError`s pass through.
 */
function readable<T>(read: () => T, frames: readonly Frame[], token: string | number | undefined): T {
  try {
    return read()
  } catch (error) {
    if (error instanceof JsonValueError) throw error
    throw fail('unreadable', frames, token, 'reading it threw (a getter or a Proxy)')
  }
}

interface Frame {
  readonly container: object
  readonly token: string | number | undefined
  readonly keys: ReadonlyArray<string | number>
  index: number
}

function pointerOf(frames: readonly Frame[], token: string | number | undefined): string {
  const tokens: Array<string | number> = []
  for (const frame of frames.slice(1)) tokens.push(frame.token!)
  if (frames.length > 0 && token !== undefined) tokens.push(token)
  return appendPointer('', ...tokens)
}

function fail(problem: JsonValueProblem, frames: readonly Frame[], token: string | number | undefined, description: string): JsonValueError {
  return new JsonValueError(problem, pointerOf(frames, token), description)
}

/** Checks a scalar; returns the value when it is an object or array to descend into. */
function checkScalar(value: unknown, frames: readonly Frame[], token: string | number | undefined): object | undefined {
  switch (typeof value) {
    case 'string':
      if (!isWellFormed(value)) throw fail('lone_surrogate', frames, token, 'string holds a lone surrogate')
      return undefined
    case 'number':
      if (!Number.isFinite(value)) throw fail('non_finite_number', frames, token, `${value} is not a finite number`)
      return undefined
    case 'boolean':
      return undefined
    case 'undefined':
      throw fail('undefined', frames, token, 'undefined')
    case 'function':
      throw fail('function', frames, token, 'a function')
    case 'symbol':
      throw fail('symbol', frames, token, 'a symbol')
    case 'bigint':
      throw fail('bigint', frames, token, 'a BigInt')
  }
  return value === null ? undefined : (value as object)
}

/** The keys to visit in a container, after checking it is a plain object or an array. */
function childKeys(container: object, frames: readonly Frame[], token: string | number | undefined): ReadonlyArray<string | number> {
  const isArray = Array.isArray(container)
  const proto = Object.getPrototypeOf(container)
  if (!isArray && proto !== Object.prototype && proto !== null) {
    const name = (proto?.constructor as { name?: string } | undefined)?.name ?? 'unknown'
    throw fail('non_plain_object', frames, token, `an instance of ${name}, not a plain object`)
  }
  if (typeof (container as { toJSON?: unknown }).toJSON === 'function') throw fail('to_json', frames, token, 'an object with toJSON')
  if (isArray) {
    // Indices up to the first hole only: the walk reports the hole there, and an array of
    // 2^32 - 1 holes costs one index, never a list of four billion.
    const length = (container as unknown[]).length
    const indices: number[] = []
    for (let i = 0; i < length; i++) {
      indices.push(i)
      let present: boolean
      try {
        present = i in container
      } catch {
        break // The walk reads index i again and names it unreadable, at its own pointer.
      }
      if (!present) break
    }
    return indices
  }
  return Object.keys(container)
}

/**
 * Canonical JSON text of a plain JSON value: keys sorted by UTF-16 code units, no whitespace,
 * ECMAScript number and string serialization. On plain JSON this equals RFC 8785 (JCS).
 *
 * @param value - any value; checked with `assertPlainJson` first.
 * @returns the canonical JSON string.
 * @throws JsonValueError (`code: 'non_json_value'`) for anything that is not plain JSON.
 */
export function canonicalJson(value: unknown): string {
  assertPlainJson(value)
  return stableStringify(value)
}

/** Canonical JSON of a value already checked by `assertPlainJson` (no second walk). */
export function canonicalJsonOfChecked(value: JsonValue): string {
  return stableStringify(value)
}
