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
 * The index of an array's first hole, or `-1` when it has none. Checks index by index and stops at
 * the first hole, so `a.length = 2 ** 32 - 1` costs one check: call it before anything spreads,
 * maps or lists the indices of an array a caller or host handed over. `in` runs a Proxy's `has`
 * trap, which can throw: call it inside the guard that types the failure.
 */
export function firstHole(array: readonly unknown[]): number {
  for (let i = 0; i < array.length; i++) if (!(i in array)) return i
  return -1
}
