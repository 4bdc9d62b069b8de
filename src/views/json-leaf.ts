import { JsonValueError, isJsonValueError, type JsonValueProblem } from '../json/json-value-error.js'

/**
 * The one definition of the projector's leaf check, as JavaScript source: an expression over the
 * variable named `v` that is true exactly when it holds a JSON scalar (a string, taken as it is,
 * lone surrogates included: `docs/views.md` "Projection"; a finite number, a boolean or `null`).
 * The generated projectors inline it; {@link isJsonLeaf} is the same test as a function, for the
 * loop variant and the scalar positions (a property test holds the two to each other on arbitrary
 * values).
 */
export function jsonLeafTest(v: string): string {
  return `(typeof ${v} === "string" || typeof ${v} === "boolean" || ${v} === null || (typeof ${v} === "number" && ${v} - ${v} === 0))`
}

/**
 * Whether a value the projector copies as it is (a scalar) is a JSON scalar: a string (taken as
 * it is, lone surrogates included), a finite number, a boolean or `null` ({@link jsonLeafTest},
 * as a function). Objects and arrays never reach it: the projector builds those itself or copies
 * them with a check.
 */
export function isJsonLeaf(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true
    case 'number':
      return Number.isFinite(value)
    default:
      return value === null
  }
}

/**
 * Refuses a scalar that is not JSON (`undefined` in an array, `NaN`, a function...). The pointer
 * is left empty: the projector does not track paths, and the dispatcher names the value's pointer
 * in the record.
 *
 * @throws JsonValueError (`code: 'non_json_value'`), always.
 */
export function notJsonLeaf(value: unknown): never {
  const kind = typeof value
  const problem: JsonValueProblem = kind === 'number' ? 'non_finite_number' : kind === 'object' || kind === 'boolean' || kind === 'string' ? 'non_plain_object' : kind
  throw new JsonValueError(problem, '', 'the projection met a value that is not plain JSON')
}

/** `value` when it is a JSON scalar; throws otherwise (see {@link notJsonLeaf}). */
export function jsonLeaf(value: unknown): unknown {
  return isJsonLeaf(value) ? value : notJsonLeaf(value)
}

/**
 * Refuses an object the projector would read field by field unless it is a plain object
 * (prototype `Object.prototype` or `null`): a Date, a Map or a class instance would otherwise be
 * read through its prototype and turned into a plain object.
 *
 * @throws JsonValueError (`code: 'non_json_value'`, problem `non_plain_object`).
 */
export function assertPlainObject(value: object): void {
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) notJsonLeaf(value)
}

/** What reading a value threw, as a JsonValueError: too deep for the call stack, or unreadable. */
export function asJsonValueError(error: unknown): JsonValueError {
  if (isJsonValueError(error)) return error
  if (error instanceof RangeError) return new JsonValueError('too_deep', '', 'nested deeper than the call stack allows')
  return new JsonValueError('unreadable', '', 'reading it threw (a getter or a Proxy)')
}
