import { UsageError } from 'result-views'
import { defineBrand } from '../errors/brand.js'

const brand = defineBrand('result-views.SchemaArbitraryError')

/**
 * Why `jsonSchemaArbitrary` refused a schema:
 * - `unsupported_keyword`: a JSON Schema keyword it does not generate for (e.g. `allOf`, `not`,
 *   `if`, `propertyNames`, `minProperties`, `contains`, `$anchor`, `$dynamicRef`);
 * - `unsupported_combination`: supported keywords in a combination it does not generate for
 *   (e.g. `anyOf` beside `type`, `$ref` beside `properties`, a declared property whose name
 *   matches a `patternProperties` pattern);
 * - `invalid_keyword_value`: a keyword whose value is not what JSON Schema 2020-12 allows or what
 *   it supports (e.g. draft-4 boolean `exclusiveMinimum`, an unknown `format` without `pattern`,
 *   a `pattern` fast-check cannot generate strings for);
 * - `unresolved_ref`: a `$ref` that names no `$id` in the schema and no JSON Pointer into it;
 * - `unsatisfiable`: no value is valid under the (sub)schema within the generator's bounds
 *   (e.g. a required property that recurses deeper than `maxDepth`, or a filter that accepts
 *   none of 64 probe samples).
 */
export type SchemaArbitraryProblem =
  | 'unsupported_keyword'
  | 'unsupported_combination'
  | 'invalid_keyword_value'
  | 'unresolved_ref'
  | 'unsatisfiable'

/**
 * Thrown synchronously by `jsonSchemaArbitrary` (while compiling, never while sampling) when it
 * cannot generate valid values for a schema: the schema is the caller's misuse of the generator,
 * not a property failure. A `UsageError` (root entry; a `TypeError`) with
 * `code: 'schema_arbitrary_unsupported'` and one problem `{ path: pointer, code: problem, message }`;
 * `keyword` names the keyword at fault and `pointer` is its JSON Pointer (RFC 6901) inside the
 * schema, e.g. `/properties/tags/allOf`. Match on `code` or use {@link isSchemaArbitraryError}.
 */
export class SchemaArbitraryError extends UsageError {
  /** Always `'SchemaArbitraryError'`. */
  override readonly name = 'SchemaArbitraryError'
  /** Always `'schema_arbitrary_unsupported'` (`docs/errors.md` "Misuse errors"). */
  declare readonly code: 'schema_arbitrary_unsupported'
  /** Why the schema was refused (also the problem's `code`). */
  readonly problem: SchemaArbitraryProblem
  /** The keyword at fault (`''` when the problem is not one keyword's). */
  readonly keyword: string
  /** The JSON Pointer of the keyword (or subschema) inside the schema (also the problem's `path`). */
  readonly pointer: string

  constructor(problem: SchemaArbitraryProblem, keyword: string, pointer: string, detail: string) {
    super({
      code: 'schema_arbitrary_unsupported',
      subject: 'schema',
      problems: [{ path: pointer, code: problem, message: detail }],
      message: `jsonSchemaArbitrary: ${detail} (${keyword === '' ? '' : `keyword "${keyword}" `}at "${pointer}")`,
    })
    this.problem = problem
    this.keyword = keyword
    this.pointer = pointer
    brand.mark(this)
  }
}

/** True for a {@link SchemaArbitraryError} from any copy of this library (checks its own global brand, not `instanceof`). */
export function isSchemaArbitraryError(value: unknown): value is SchemaArbitraryError {
  return brand.has(value)
}
