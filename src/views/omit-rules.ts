import { types } from 'node:util'
import { runWithinSync } from '../async/sync-deadline.js'
import { cloneJson } from '../json/clone.js'
import { deepFreeze } from '../json/freeze.js'
import { appendPointer, parsePointer } from '../json/pointer.js'
import type { CompactShape, PropertyShape, ValueShape } from '../schema/compact-shape.js'
import { ARRAY, OBJECT } from '../schema/type-mask.js'

/**
 * A value-dependent compact rule (`docs/views.md` "Value-dependent compact rules"): called with
 * the projected value of one optional property of the compact record and the projected object
 * that holds it (both deep-frozen copies), it answers `true` to omit that property from the
 * compact record, `false` to keep it. Synchronous, and answered within
 * {@link OMIT_RULES_TIMEOUT_MS} for all the rules of one projection.
 */
export type OmitRule = (value: unknown, parent: Readonly<Record<string, unknown>>) => boolean

/**
 * The value-dependent rules of a viewed tool, by path: JSON Pointers into the compact record
 * where a `*` token stands for every item of an array (`/skills/*` then `/diagnostics`: the
 * `diagnostics` of every skill). Each path names an optional property the compact schema declares.
 */
export type OmitWhen = { readonly [path: string]: OmitRule }

/** How long all the rules of one projection may take together, in milliseconds. */
export const OMIT_RULES_TIMEOUT_MS = 1000

/** The array-item wildcard of a rule path. */
export const EVERY_ITEM = '*'

/** Why a rule path cannot be a rule of a compact schema (a problem of the tool's definition). */
export interface OmitPathProblem {
  readonly code: 'omit_path_invalid' | 'omit_path_not_declared' | 'omit_path_not_array' | 'omit_path_required'
  readonly message: string
}

/**
 * Checks one rule path against the compact schema's shape: every token names a property the
 * compact schema declares (in at least one object branch at that position), or is `*` where the
 * position is an array described item by item; the last token is a property no branch requires,
 * so omitting it keeps the record valid under the compact schema.
 *
 * @returns the problem, or `undefined` when the path is a rule path of this schema.
 */
export function omitPathProblem(root: CompactShape, path: string): OmitPathProblem | undefined {
  if (!path.startsWith('/')) {
    return { code: 'omit_path_invalid', message: `rule path ${JSON.stringify(path)} must be a JSON Pointer into the compact record, e.g. "/skills/*/diagnostics" (the root cannot be omitted)` }
  }
  const tokens = parsePointer(path)
  if (tokens[tokens.length - 1] === EVERY_ITEM) {
    return { code: 'omit_path_invalid', message: `rule path ${JSON.stringify(path)} ends with "*": a rule omits one property, so the last token names it` }
  }
  let positions: CompactShape[] = [root]
  let walked = ''
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!
    const shapes = positions.flatMap(valueShapes)
    if (token === EVERY_ITEM) {
      const items = shapes.flatMap(itemShapes)
      if (items.length === 0) {
        return { code: 'omit_path_not_array', message: `rule path ${JSON.stringify(path)}: the compact schema has no array described item by item at "${walked}" for "*" to step into` }
      }
      positions = items
      walked += '/*'
      continue
    }
    const found = shapes.flatMap((shape) => declared(shape, token))
    if (found.length === 0) {
      const hint = shapes.some((shape) => itemShapes(shape).length > 0) ? ' (an array is there: "*" steps into its items)' : ''
      return { code: 'omit_path_not_declared', message: `rule path ${JSON.stringify(path)}: "${token}" is not a property the compact schema declares at "${walked}"${hint}` }
    }
    if (i === tokens.length - 1) {
      const required = found.find((property) => property.required)
      if (required !== undefined) {
        return { code: 'omit_path_required', message: `rule path ${JSON.stringify(path)} names a property the compact schema requires (at "${required.pointer}"): omitting it would make the record invalid` }
      }
    }
    positions = found.map((property) => property.shape)
    walked = appendPointer(walked, token)
  }
  return undefined
}

/** The value shapes at a position (a union's branches); none for a position copied whole or refusing all. */
function valueShapes(shape: CompactShape): ValueShape[] {
  return shape.kind === 'value' ? [shape] : shape.kind === 'union' ? shape.branches : []
}

function declared(shape: ValueShape, key: string): PropertyShape[] {
  if ((shape.types & OBJECT) === 0 || shape.object === 'opaque') return []
  return shape.object.properties.filter((property) => property.key === key)
}

function itemShapes(shape: ValueShape): CompactShape[] {
  if ((shape.types & ARRAY) === 0 || shape.array === 'opaque') return []
  const items = shape.array.prefix.map((element) => element.shape)
  if (shape.array.rest !== undefined) items.push(shape.array.rest.shape)
  return items
}

/** How a rule failed: it threw, answered something other than a boolean, or did not answer in time. */
export type OmitRuleProblem = 'threw' | 'not_boolean' | 'timeout'

/** A rule that failed while a record was projected; the tool turns it into its typed error. */
export class OmitRuleFailure extends Error {
  constructor(
    /** The rule's path as the definition gave it. */
    readonly rule: string,
    /** The JSON Pointer of the property in the compact record the rule was deciding on. */
    readonly pointer: string,
    readonly problem: OmitRuleProblem,
    readonly thrown?: unknown,
  ) {
    super(`omitWhen rule ${JSON.stringify(rule)} ${problem === 'timeout' ? `did not answer within ${OMIT_RULES_TIMEOUT_MS} ms` : problem === 'threw' ? 'threw' : 'did not answer a boolean'}`)
    this.name = 'OmitRuleFailure'
  }
}

/** One rule, ready to run: its path, tokens and function. */
interface CompiledRule {
  readonly path: string
  readonly tokens: readonly string[]
  readonly rule: OmitRule
}

/** One property a rule decides on: the object that holds it, its key, its pointer. */
interface Target {
  readonly rule: CompiledRule
  readonly parent: Record<string, unknown>
  readonly key: string
  readonly pointer: string
}

/** Applies a tool's rules to a compact record it just projected (in place). */
export type OmitPass = (compact: unknown) => void

/**
 * The pass that applies checked rules to a projected compact record, the same for every
 * projector (the typed one and the general one both produce the record it reads):
 *
 * - rules run deepest path first (ties in definition order), so a rule sees its value as the
 *   caller would receive it, the rules below it already applied;
 * - each rule runs once per object the path reaches that has the property (array items in index
 *   order), with frozen copies of the property's value and of that object;
 * - `true` deletes the property, `false` keeps it; anything else, a throw, or all the rules of one
 *   record taking longer than {@link OMIT_RULES_TIMEOUT_MS}, throws an {@link OmitRuleFailure}
 *   (the record is then half-done and must be discarded).
 *
 * @param rules - path → rule, every path already checked by {@link omitPathProblem}.
 */
export function compileOmitPass(rules: OmitWhen): OmitPass {
  const compiled: CompiledRule[] = Object.keys(rules).map((path) => ({ path, tokens: parsePointer(path), rule: rules[path]! }))
  compiled.sort((a, b) => b.tokens.length - a.tokens.length)
  return (compact) => {
    // Targets are found before any rule runs: a rule only deletes its own property, which is never
    // on the way to another rule's property (those are no deeper than it), so none goes missing.
    const targets: Target[] = []
    for (const rule of compiled) collect(rule, compact, 0, '', targets)
    if (targets.length === 0) return
    // The target being decided, so that a timeout names the rule that did not answer.
    const progress = { at: 0 }
    const run = runWithinSync(() => decideAll(targets, progress), OMIT_RULES_TIMEOUT_MS)
    if (!run.ok) {
      const stuck = targets[progress.at]!
      if (run.timedOut) throw new OmitRuleFailure(stuck.rule.path, stuck.pointer, 'timeout')
      throw run.cause
    }
  }
}

/** Every object `rule`'s path reaches from `value` (at `pointer`, token `depth`) that holds its property. */
function collect(rule: CompiledRule, value: unknown, depth: number, pointer: string, targets: Target[]): void {
  if (typeof value !== 'object' || value === null) return
  const token = rule.tokens[depth]!
  const last = depth === rule.tokens.length - 1
  if (Array.isArray(value)) {
    if (token !== EVERY_ITEM) return
    for (let i = 0; i < value.length; i++) collect(rule, value[i], depth + 1, `${pointer}/${i}`, targets)
    return
  }
  if (token === EVERY_ITEM || !Object.prototype.hasOwnProperty.call(value, token)) return
  const record = value as Record<string, unknown>
  if (last) targets.push({ rule, parent: record, key: token, pointer: appendPointer(pointer, token) })
  else collect(rule, record[token], depth + 1, appendPointer(pointer, token), targets)
}

function decideAll(targets: readonly Target[], progress: { at: number }): void {
  for (let i = 0; i < targets.length; i++) {
    progress.at = i
    const target = targets[i]!
    const { rule, parent, key } = target
    const seen = deepFreeze(cloneJson(parent)) as Record<string, unknown>
    let answer: unknown
    try {
      answer = rule.rule(seen[key], seen)
    } catch (error) {
      throw new OmitRuleFailure(rule.path, target.pointer, 'threw', error)
    }
    if (answer === true) delete parent[key]
    else if (answer !== false) {
      // An async rule's promise is refused at once; its rejection, if any, is not left unhandled.
      if (types.isPromise(answer)) Promise.prototype.then.call(answer, undefined, () => undefined)
      throw new OmitRuleFailure(rule.path, target.pointer, 'not_boolean')
    }
  }
}
