import { quoted } from '../errors/quote.js'
import { defineBrand } from '../errors/brand.js'
import { UsageError } from '../errors/usage-error.js'

const brand = defineBrand('result-views.JsonValueError')

/** Why a value is not plain JSON. */
export type JsonValueProblem =
  | 'undefined'
  | 'function'
  | 'symbol'
  | 'bigint'
  | 'non_finite_number'
  | 'lone_surrogate'
  | 'cycle'
  | 'to_json'
  | 'non_plain_object'
  | 'sparse_array'
  | 'array_too_long'
  | 'too_deep'
  | 'unreadable'

/**
 * Thrown by `canonicalJson`, `schemaDigest` and `inputDigest` for a value that is not plain JSON
 * (`docs/views.md` "Digests"): never silently coerced. A {@link UsageError} with
 * `code: 'non_json_value'` and one problem `{ path: pointer, code: problem, message }`; `pointer`
 * is the JSON Pointer (RFC 6901) of the offending value inside the argument and `problem` says
 * why it is not plain JSON. The message is `value at "<pointer>" is not plain JSON: <why>`.
 */
export class JsonValueError extends UsageError {
  /** Always `'JsonValueError'`. */
  override readonly name = 'JsonValueError'
  /** Always `'non_json_value'` (`docs/errors.md` "Misuse errors"). */
  declare readonly code: 'non_json_value'
  /** Why the value is not plain JSON (also the problem's `code`). */
  readonly problem: JsonValueProblem
  /** The JSON Pointer of the offending value inside the argument (also the problem's `path`). */
  readonly pointer: string

  /**
   * @param problem - why the value is not plain JSON.
   * @param pointer - where, as a JSON Pointer into the checked value (`''` for the value itself).
   * @param description - what was found there, in words (`a cycle back to an enclosing value`).
   */
  constructor(problem: JsonValueProblem, pointer: string, description: string) {
    super({
      code: 'non_json_value',
      subject: 'value',
      problems: [{ path: pointer, code: problem, message: description }],
      message: `value at ${quoted(pointer)} is not plain JSON: ${description}`,
    })
    this.problem = problem
    this.pointer = pointer
    brand.mark(this)
  }
}

/** True for a {@link JsonValueError} from any copy of this library (checks its own global brand, not `instanceof`). */
export function isJsonValueError(value: unknown): value is JsonValueError {
  return brand.has(value)
}
