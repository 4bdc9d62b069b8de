import { types } from 'node:util'

/**
 * What kind of object an unknown value is: the checks every reader of caller, tool and host
 * values shares. They read `typeof`, `Array.isArray` and the prototype only, never a property, so
 * a getter cannot run; a Proxy's `getPrototypeOf` trap can throw in {@link isPlainObject}, which
 * callers run inside the guard that types the failure.
 */

/** True for an object that is not an array (and not `null`): a record to read fields from. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * True for a plain object: not an array, with prototype `Object.prototype` or `null` (so a Date,
 * a Map or a class instance is not one, and nothing is read through a prototype).
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/**
 * The longest Proxy array the library reads from a caller or a host: 16,777,216 (2^24) elements.
 * A Proxy can claim `length: 2 ** 32 - 1` with every index present (its `has` and `get` traps
 * answer for each), and a copy of it would run until the process runs out of memory; a longer
 * Proxy array is refused before any element is read, as a sparse array is at its first hole. A
 * real array holds what its length says (or has holes, found at once), so it is not bounded.
 */
export const MAX_ARRAY_LENGTH = 2 ** 24

/**
 * True for a Proxy array whose `length` (read once by the caller and passed in) is above
 * {@link MAX_ARRAY_LENGTH}: refuse it before reading any element.
 */
export function isOverlongProxy(array: readonly unknown[], length: number): boolean {
  return length > MAX_ARRAY_LENGTH && types.isProxy(array)
}

/**
 * The index of an array's first hole, or `-1` when it has none. Checks index by index and stops at
 * the first hole, so `a.length = 2 ** 32 - 1` costs one check: call it before anything spreads,
 * maps or lists the indices of an array a caller or host handed over. A Proxy array longer than
 * {@link MAX_ARRAY_LENGTH} answers `MAX_ARRAY_LENGTH`, the first index the library never reads,
 * at once (a Proxy claiming 2^32 − 1 present elements costs no walk). `in` runs a Proxy's `has`
 * trap, which can throw: call it inside the guard that types the failure.
 */
export function firstHole(array: readonly unknown[]): number {
  const length = array.length
  if (isOverlongProxy(array, length)) return MAX_ARRAY_LENGTH
  for (let i = 0; i < length; i++) if (!(i in array)) return i
  return -1
}

/** What a one-walk copy answers for anything it does not accept (its caller then runs the precise check). */
export const NOT_PLAIN: unique symbol = Symbol('not plain JSON')

/**
 * A value that is not an object, as a one-walk copy of plain JSON takes it: a string (well-formed
 * when `wellFormed`), a finite number or a boolean as it is; {@link NOT_PLAIN} for anything else
 * (`undefined`, a function, a symbol, a bigint, a non-finite number, a string with a lone
 * surrogate when `wellFormed`).
 */
export function plainLeaf(value: unknown, wellFormed: boolean): unknown {
  switch (typeof value) {
    case 'string':
      return !wellFormed || (value as string & { isWellFormed(): boolean }).isWellFormed() ? value : NOT_PLAIN
    case 'number':
      return Number.isFinite(value) ? value : NOT_PLAIN
    case 'boolean':
      return value
    default:
      return NOT_PLAIN
  }
}

/**
 * How a one-walk copy reads an object (not `null`): `array` for an array that is not an overlong
 * Proxy, `object` for a plain object (prototype `Object.prototype` or `null`), `undefined` for
 * anything else, or anything `JSON.stringify` would call a `toJSON` of (own or inherited). A
 * Proxy's traps run here: call it inside the walk's guard.
 */
export function plainContainer(value: object): 'array' | 'object' | undefined {
  if (Array.isArray(value)) return isOverlongProxy(value, value.length) || hasToJson(value) ? undefined : 'array'
  const proto = Object.getPrototypeOf(value)
  return (proto !== Object.prototype && proto !== null) || hasToJson(value) ? undefined : 'object'
}

/** JSON.stringify would call it (own or inherited, enumerable or not). */
function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function'
}
