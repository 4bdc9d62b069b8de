import type { TSchema } from 'typebox'
import type { JsonSchema } from '../schema/json-schema.js'
import { assertPlainJson, RESULT_JSON } from '../json/canonical.js'
import { ownJsonCopy } from '../json/own-copy.js'
import { isJsonValueError, type JsonValueError } from '../json/json-value-error.js'
import { readCompactSchema, shapeIssues } from '../schema/compact-shape.js'
import { schemaArgumentInvalid } from '../schema/schema-argument-error.js'
import { isSchema } from '../schema/subset.js'
import { asJsonValueError, jsonLeaf } from './json-leaf.js'
import { PlanCompiler } from './projection-plan.js'
import { typedProjector } from './typed-projector.js'

/**
 * A compiled projection: full record → compact record. Never mutates its input; always returns
 * a new value (new objects and arrays at every depth, primitives as they are).
 */
export type Projector = (full: unknown) => unknown

/**
 * Compiles the projection of a compact view schema (`docs/views.md` "Projection": every field of a
 * compact result is in the full result at the same path with the same value). The schema is read
 * once and compiled to one generated function typed by it (`docs/views.md` "Projection"); each
 * call only walks the value.
 *
 * What the projector copies, position by position:
 * - objects: the declared properties only (`properties`, keys listed in `required`, and keys
 *   matching the one `patternProperties` entry), each projected by its own schema. Undeclared
 *   keys never pass, even when the compact object is open (`additionalProperties` not `false`).
 *   An absent property stays absent. A `__proto__`, `constructor` or `prototype` key is data,
 *   copied only when declared, and never changes a prototype. Results are plain objects.
 * - arrays: a new array, each element projected by the schema of its position.
 * - `{}` / unconstrained positions, and objects or arrays a schema does not describe further
 *   (`{ type: 'object' }` with no object keyword): a deep copy, checked to be plain JSON as it is
 *   made (a Date or class instance there throws rather than becoming a plain object).
 * - unions: scalars as they are; an object or array by the only branch of its JSON type, or an
 *   object by the branch its required literal tag selects (tag values no branch has give `{}`).
 * - recursive schemas (`$ref`, TypeBox `Cyclic`): followed as deep as the value goes.
 * Values a schema does not allow at a position (an invalid input) never leak keys: an object
 * where no object is allowed projects to `{}`, an array to `[]`.
 *
 * The schema is expected to have passed `proveViewSubset` against its full schema (as
 * `defineTool` checks first); only then is the result guaranteed valid under the compact schema.
 *
 * What it returns is always plain JSON in structure: it throws `JsonValueError` (`code:
 * 'non_json_value'`) for a value that is not (a Date where it copies whole, `NaN`, `undefined`
 * in an array, a hole, ...). Strings and copied keys are taken as they are, lone surrogates
 * included. The error's pointer is relative to the position copied whole, or empty for a scalar.
 * `undefined` as the property of an object read field by field counts as absent, as in JSON;
 * inside a position copied whole it is refused. An object read field by field must be plain
 * (prototype `Object.prototype` or `null`).
 *
 * @param compact - the compact view schema (plain JSON Schema or TypeBox).
 * @returns the projector.
 * @throws UsageError (`code: 'schema_argument_invalid'`, a `TypeError`) if the schema is not a
 *   plain JSON schema (a boolean or a plain object, plain JSON throughout), or has a problem
 *   `proveViewSubset` reports for the compact side: projection would be ambiguous (a union with
 *   several object branches and no required literal tag, or several different array branches), a
 *   keyword the proof cannot read (`prefixItems`, `allOf`, `minProperties`, ...), or a `$ref` that
 *   does not resolve; or when the schema is nested deeper than the call stack allows or is a cycle
 *   of JavaScript objects.
 */
export function compileProjector(compact: JsonSchema | TSchema): Projector {
  try {
    return compile(compact)
  } catch (error) {
    if (error instanceof RangeError) {
      const problem = 'the schema is nested deeper than the call stack allows, or is a cycle of JavaScript objects'
      throw schemaArgumentInvalid(`compileProjector: ${problem}`, { path: '', code: 'too_deep', message: problem }, error)
    }
    throw error
  }
}

/**
 * The first value of `record` that is not plain JSON, with its pointer from the root (the
 * projectors' own pointers are relative to the position they copied whole); else `error`.
 */
function locatedError(record: unknown, error: JsonValueError): JsonValueError {
  try {
    assertPlainJson(record, RESULT_JSON)
  } catch (located) {
    if (isJsonValueError(located)) return located
  }
  return error
}

function compile(compact: JsonSchema | TSchema): Projector {
  if (!isSchema(compact)) {
    const problem = 'the compact schema must be a JSON Schema (a plain object or a boolean)'
    throw schemaArgumentInvalid(`compileProjector: ${problem}`, { path: '', code: 'not_a_schema', message: problem })
  }
  let schema: JsonSchema
  try {
    // Keys it declares become keys of results: a lone surrogate or a Date in it has no place there.
    // Compiled from a checked copy, read once: a getter that would answer differently later has
    // nothing left to read.
    schema = ownJsonCopy(compact) as JsonSchema
  } catch (error) {
    if (isJsonValueError(error)) {
      const problem = `the compact schema is not plain JSON at "${error.pointer}": ${error.message}`
      throw schemaArgumentInvalid(`compileProjector: ${problem}`, { path: error.pointer, code: 'schema_not_json', message: problem })
    }
    throw error
  }
  const { root } = readCompactSchema(schema)
  // Every issue blocks: the projector copies only what a schema the proof can read allows.
  const blocking = shapeIssues(root)[0]
  if (blocking !== undefined) {
    throw schemaArgumentInvalid(`compileProjector: ${blocking.message} (at "${blocking.pointer}" of the compact schema)`, { path: blocking.pointer, code: blocking.code, message: blocking.message })
  }
  const plans = new PlanCompiler()
  const { objects, arrays } = plans.parts(root)
  const general: Projector = (full) => (typeof full === 'object' && full !== null ? (Array.isArray(full) ? arrays(full) : objects(full)) : jsonLeaf(full))
  // One function generated for the whole schema, handing odd records back to the general projector.
  const project = typedProjector(root, plans, general) ?? general
  return (full) => {
    try {
      return project(full)
    } catch (error) {
      // The projectors know what went wrong, not where: the record is checked from its root to
      // name the pointer (as the dispatcher does). A getter or Proxy that throws, or a value
      // deeper than the call stack: never another error.
      throw locatedError(full, asJsonValueError(error))
    }
  }
}

