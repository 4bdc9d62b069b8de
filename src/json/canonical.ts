import { withCanonicalWriter, type CanonicalWriter } from './canonical-writer.js'
import { JsonValueError, type JsonValueProblem } from './json-value-error.js'
import { MAX_ARRAY_LENGTH, isOverlongProxy } from './guards.js'
import { appendPointer } from './pointer.js'

/** A plain JSON value: what `assertPlainJson` accepts. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }

/** Deepest nesting `canonicalJson` accepts (objects and arrays), to stay clear of the call stack. */
export const MAX_JSON_DEPTH = 5_000

const isWellFormed = (s: string): boolean =>
  (s as string & { isWellFormed(): boolean }).isWellFormed()

/** How strict a plain-JSON check or copy is about string contents. */
export interface PlainJsonOptions {
  /**
   * `true` (the default): strings and keys must be well-formed UTF-16 (a lone surrogate is
   * refused with `lone_surrogate`), as canonical JSON and digests need. `false`: strings are taken
   * as they are, as results are (`docs/views.md` "What the caller receives").
   */
  readonly wellFormedStrings?: boolean
  /**
   * `false` (the default): an object member whose value is `undefined` is refused (`undefined`).
   * `true`: it counts as absent, as `JSON.stringify` treats it; copies leave it out. An array
   * element that is `undefined` is refused either way (JSON would write `null` there).
   */
  readonly undefinedAsAbsent?: boolean
}

/** The check results get: plain JSON whose strings are taken as they are (`docs/views.md` "What the caller receives"). */
export const RESULT_JSON: PlainJsonOptions = Object.freeze({ wellFormedStrings: false })

/**
 * The check a call's input gets in `invoke` (`docs/views.md` "Dispatch"): well-formed strings, and
 * an object member whose value is `undefined` counts as absent (`{ id, result_view: undefined }`
 * is `{ id }`). `inputDigest` and `canonicalJson` called directly stay strict.
 */
export const INPUT_JSON: PlainJsonOptions = Object.freeze({ undefinedAsAbsent: true })

/**
 * Checks that `value` is plain JSON: plain objects (prototype `Object.prototype` or `null`),
 * dense arrays, well-formed strings, finite numbers, booleans and `null`, with no cycles and no
 * deeper than {@link MAX_JSON_DEPTH}. See `docs/views.md` "Digests". Symbol-keyed
 * properties are not JSON data: like `JSON.stringify`, the check and the canonical form ignore them.
 *
 * @param options - `wellFormedStrings: false` accepts strings and keys holding lone surrogates.
 * @throws JsonValueError (`code: 'non_json_value'`) naming the JSON Pointer of the first offending
 *   value: `undefined`, functions, symbols, BigInt, NaN/±Infinity, lone surrogates (in strings or
 *   keys), cycles, objects with `toJSON`, Dates, Maps, Sets, boxed primitives, class instances,
 *   sparse arrays.
 */
export function assertPlainJson(value: unknown, options?: PlainJsonOptions): asserts value is JsonValue {
  // The common case (plain JSON, not very deep) is answered by an allocation-free recursive walk;
  // anything it does not accept (a bad value, a cycle, or depth past FAST_DEPTH) is walked again by
  // the precise iterative check, which names the JSON Pointer or accepts a deep but valid value.
  const strings = options?.wellFormedStrings !== false
  const absent = options?.undefinedAsAbsent === true
  if (isPlainFastGuarded(value, strings, absent)) return
  assertPlainJsonPrecisely(value, strings, absent)
}

/** The fast walk; a getter or Proxy trap that throws only sends the value to the precise walk. */
function isPlainFastGuarded(value: unknown, strings: boolean, absent: boolean): boolean {
  try {
    return isPlainFast(value, 0, strings, absent)
  } catch {
    return false
  }
}

/** Deepest nesting the fast walk follows before it hands over to the precise, iterative one. */
const FAST_DEPTH = 512

function isPlainFast(value: unknown, depth: number, strings: boolean, absent: boolean): boolean {
  switch (typeof value) {
    case 'string':
      return !strings || isWellFormed(value)
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
    if (isOverlongProxy(value, value.length) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false
    for (let i = 0; i < value.length; i++) if (!(i in value) || !isPlainFast(value[i], depth + 1, strings, absent)) return false
    return true
  }
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return false
  const record = value as Record<string, unknown>
  if (typeof record.toJSON === 'function') return false
  const keys = Object.keys(record)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    if (strings && !isWellFormed(key)) return false
    const member = record[key]
    if (member === undefined ? !absent : !isPlainFast(member, depth + 1, strings, absent)) return false
  }
  return true
}

/** The precise check: iterative (deep values never exhaust the stack), names the failing pointer. */
function assertPlainJsonPrecisely(value: unknown, strings: boolean, absent = false): void {
  // Iterative depth-first walk: deep values never exhaust the call stack, and a pointer string is
  // built only for the value that fails.
  const ancestors = new Set<object>()
  const frames: Frame[] = []
  let token: string | number | undefined
  let current: unknown = value
  // An absent member (`undefinedAsAbsent`) is stepped over.
  let skip = false
  for (;;) {
    const entered = skip ? undefined : checkScalar(current, frames, token, strings)
    if (entered !== undefined) {
      if (frames.length >= MAX_JSON_DEPTH) throw fail('too_deep', frames, token, `nested deeper than ${MAX_JSON_DEPTH}`)
      if (ancestors.has(entered)) throw fail('cycle', frames, token, 'a cycle back to an enclosing value')
      ancestors.add(entered)
      frames.push(readable(() => frameOf(entered, frames, token), frames, token))
    }
    // Find the next child to visit, leaving finished containers.
    let next: Frame | undefined
    while ((next = frames[frames.length - 1]) !== undefined && next.index >= next.length) {
      ancestors.delete(next.container)
      frames.pop()
    }
    if (next === undefined) return
    const index = next.index++
    const { container, keys } = next
    if (keys === undefined) {
      // An array, visited by index: a hole fails at its index, with no work per element past it.
      // `in` runs a Proxy's `has` trap, so it is guarded too.
      token = index
      if (!readable(() => index in container, frames, index)) throw fail('sparse_array', frames, index, 'a hole in an array')
      current = readable(() => (container as unknown[])[index], frames, index)
      skip = false
    } else {
      const key = keys[index]!
      token = key
      if (strings && !isWellFormed(key)) throw fail('lone_surrogate', frames, key, 'key holds a lone surrogate')
      current = readable(() => (container as Record<string, unknown>)[key], frames, key)
      skip = absent && current === undefined
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

/** A container being visited: an object's keys, or an array's length (its indices are not listed). */
interface Frame {
  readonly container: object
  readonly token: string | number | undefined
  /** The object's own enumerable string keys; `undefined` for an array. */
  readonly keys: readonly string[] | undefined
  /** How many children: `keys.length`, or the array's length. */
  readonly length: number
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
function checkScalar(value: unknown, frames: readonly Frame[], token: string | number | undefined, strings: boolean): object | undefined {
  switch (typeof value) {
    case 'string':
      if (strings && !isWellFormed(value)) throw fail('lone_surrogate', frames, token, 'string holds a lone surrogate')
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

/** The frame that visits a container, after checking it is a plain object or an array. */
function frameOf(container: object, frames: readonly Frame[], token: string | number | undefined): Frame {
  const isArray = Array.isArray(container)
  const proto = Object.getPrototypeOf(container)
  if (!isArray && proto !== Object.prototype && proto !== null) {
    const name = (proto?.constructor as { name?: string } | undefined)?.name ?? 'unknown'
    throw fail('non_plain_object', frames, token, `an instance of ${name}, not a plain object`)
  }
  if (typeof (container as { toJSON?: unknown }).toJSON === 'function') throw fail('to_json', frames, token, 'an object with toJSON')
  if (isArray) {
    const length = (container as unknown[]).length
    if (isOverlongProxy(container as unknown[], length)) throw fail('array_too_long', frames, token, `a Proxy array claiming ${length} elements, more than the ${MAX_ARRAY_LENGTH} read`)
    return { container, token, keys: undefined, length, index: 0 }
  }
  const keys = Object.keys(container)
  return { container, token, keys, length: keys.length, index: 0 }
}

/**
 * Canonical JSON text of a plain JSON value: keys sorted by UTF-16 code units, no whitespace,
 * ECMAScript number and string serialization. On plain JSON this equals RFC 8785 (JCS), and it is
 * byte for byte what `fast-json-stable-stringify` writes (`docs/views.md` "Digests").
 *
 * One walk checks the value and writes the text, reading each property once; only a value it
 * refuses is walked again, by the precise check, to name the JSON Pointer of the problem.
 *
 * @param value - any value.
 * @returns the canonical JSON string.
 * @throws JsonValueError (`code: 'non_json_value'`) for anything that is not plain JSON (see
 *   {@link assertPlainJson}), or problem `unreadable` when the value changed while it was read.
 */
export function canonicalJson(value: unknown): string {
  return written(value, undefined, (writer) => writer.text())
}

/**
 * Lowercase hex SHA-256 of the UTF-8 bytes of {@link canonicalJson}`(value)`, with the
 * top-level member `skipRootKey` left out when `value` is an object and the key is given (that
 * member is still checked). Throws as {@link canonicalJson} does, with pointers into `value`.
 */
export function canonicalSha256Hex(value: unknown, skipRootKey?: string): string {
  return written(value, skipRootKey, (writer) => writer.sha256Hex())
}

function written<T>(value: unknown, skipRootKey: string | undefined, finish: (writer: CanonicalWriter) => T): T {
  return withCanonicalWriter((writer) => {
    if (writer.write(value, MAX_JSON_DEPTH, skipRootKey)) return finish(writer)
    // Refused: name the problem and its pointer.
    assertPlainJsonPrecisely(value, true)
    throw new JsonValueError('unreadable', '', 'the value changed or could not be read while it was written')
  })
}
