import { UsageError } from '../errors/usage-error.js'

/**
 * The misuse error of `compileProjector` and `proveViewSubset`: a {@link UsageError} with
 * `code: 'schema_argument_invalid'` and one problem at `path` (a JSON Pointer into the schema,
 * `''` for the argument itself). Problem codes: `not_a_schema`, `schema_not_json`, `too_deep`,
 * `unsupported_keyword`, `unresolved_ref`, `union_not_discriminated`.
 *
 * @param message - the whole message, e.g. `compileProjector: the compact schema must be a JSON Schema ...`.
 * @param problem - what the one problem says (the message without the function's name).
 */
export function schemaArgumentInvalid(message: string, problem: { readonly path: string; readonly code: string; readonly message: string }, cause?: unknown): UsageError {
  return new UsageError({ code: 'schema_argument_invalid', subject: 'schema', problems: [problem], message, ...(cause === undefined ? {} : { cause }) })
}
