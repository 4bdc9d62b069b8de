import { defineBrand } from '../errors/brand.js'

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
  | 'too_deep'
  | 'unreadable'

/**
 * Thrown by `canonicalJson`, `schemaDigest` and `inputDigest` for a value that is not plain JSON
 * (docs/views.md, "Digests"): never silently coerced. `pointer` is the JSON Pointer
 * (RFC 6901) of the offending value inside the argument; `code` is always `'non_json_value'`.
 */
export class JsonValueError extends Error {
  override readonly name = 'JsonValueError'
  readonly code = 'non_json_value' as const
  readonly problem: JsonValueProblem
  readonly pointer: string

  constructor(problem: JsonValueProblem, pointer: string, description: string) {
    super(`value at "${pointer}" is not plain JSON: ${description}`)
    this.problem = problem
    this.pointer = pointer
    brand.mark(this)
  }
}

/** True for a {@link JsonValueError} from any copy of this library. */
export function isJsonValueError(value: unknown): value is JsonValueError {
  return brand.has(value)
}
