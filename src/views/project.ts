import type { TSchema } from 'typebox'
import type { JsonSchema } from '../schema/json-schema.js'
import { readCompactSchema, type CompactShape, type ShapeIssue } from '../schema/compact-shape.js'
import { jsonLeaf } from './json-leaf.js'
import { PlanCompiler } from './projection-plan.js'

/**
 * A compiled projection: full record → compact record. Never mutates its input; always returns
 * a new value (new objects and arrays at every depth, primitives as they are).
 */
export type Projector = (full: unknown) => unknown

/**
 * Compiles the projection of a compact view schema (spec 000 "What compact keeps": "Every field
 * in a compact result is in the full result at the same path with the same value"). The schema
 * is read once; each call only walks the value.
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
 * @param compact - the compact view schema (plain JSON Schema or TypeBox).
 * @returns the projector.
 * What it returns is always plain JSON: it throws `JsonValueError` (`code: 'non_json_value'`) for
 * a value that is not (a Date where it copies whole, `NaN`, a lone surrogate, `undefined` in an
 * array, ...). The error's pointer is relative to the position copied whole, or empty for a
 * scalar; `undefined` as an object's property counts as absent, as in JSON.
 *
 * @throws TypeError if projection would be ambiguous (a union with several object branches and
 *   no required literal tag, or several different array branches), a `$ref` does not resolve, or
 *   the schema is nested deeper than the call stack allows or is a cycle of JavaScript objects.
 */
export function compileProjector(compact: JsonSchema | TSchema): Projector {
  try {
    return compile(compact)
  } catch (error) {
    if (error instanceof RangeError) {
      throw new TypeError('compileProjector: the schema is nested deeper than the call stack allows, or is a cycle of JavaScript objects', { cause: error })
    }
    throw error
  }
}

function compile(compact: JsonSchema | TSchema): Projector {
  const { root } = readCompactSchema(compact)
  const blocking = blockingIssue(collectIssues(root))
  if (blocking !== undefined) {
    throw new TypeError(`compileProjector: ${blocking.message} (at "${blocking.pointer}" of the compact schema)`)
  }
  const { objects, arrays } = new PlanCompiler().parts(root)
  return (full) => (typeof full === 'object' && full !== null ? (Array.isArray(full) ? arrays(full) : objects(full)) : jsonLeaf(full))
}

function blockingIssue(issues: readonly ShapeIssue[]): ShapeIssue | undefined {
  return issues.find((issue) => issue.code === 'unresolved_ref')
}

/** Every issue of every shape reachable from `root`. */
function collectIssues(root: CompactShape): ShapeIssue[] {
  const issues: ShapeIssue[] = []
  const seen = new Set<unknown>()
  const visit = (shape: CompactShape): void => {
    if (seen.has(shape)) return
    seen.add(shape)
    issues.push(...shape.issues)
    if (shape.kind === 'union') shape.branches.forEach(visit)
    if (shape.kind !== 'value') return
    if (shape.object !== 'opaque') {
      for (const property of shape.object.properties) visit(property.shape)
      if (shape.object.pattern !== undefined) visit(shape.object.pattern.shape)
    }
    if (shape.array !== 'opaque') {
      for (const element of shape.array.prefix) visit(element.shape)
      if (shape.array.rest !== undefined) visit(shape.array.rest.shape)
    }
  }
  visit(root)
  return issues
}
