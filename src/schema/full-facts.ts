import { appendPointer } from '../json/pointer.js'
import { includesJson } from './json-equal.js'
import { NEUTRAL_KEYWORDS } from './keyword-sets.js'
import { isSchemaObject, type SchemaDocument, type SchemaLoc } from './schema-document.js'
import { ALL_TYPES, atomOf, BOOLEAN, NULL, typeMaskOf } from './type-mask.js'

/**
 * What a position of the full schema guarantees about its values, read as an over-approximation:
 * the full side may only ever be widened (a keyword ignored) so the view proof stays sound.
 * `anyOf`/`oneOf` split a position into branches; `allOf` and `$ref` add conjuncts. Keywords
 * beside a `$ref` are ignored (draft-07 validators ignore them, 2020-12 ones apply them), and so
 * are keywords the proof does not use (`not`, `if`, ...), which only narrow the full side.
 */
export interface FullBranch {
  /** The schema objects that all hold for a value of this branch. */
  readonly conjuncts: readonly SchemaLoc[]
  /** JSON Pointer that names this branch in messages. */
  readonly pointer: string
  readonly types: number
  /** Every value the branch allows, when that set is finite (`const`, `enum`, `null`, `boolean`). */
  readonly values: readonly unknown[] | undefined
  readonly required: ReadonlySet<string>
  readonly minLength: number
  readonly maxLength: number | undefined
  readonly patterns: ReadonlySet<string>
  readonly formats: ReadonlySet<string>
  readonly lower: Bound | undefined
  readonly upper: Bound | undefined
  readonly multiples: readonly number[]
  readonly minItems: number
  readonly maxItems: number | undefined
  readonly uniqueItems: boolean
}

/** A numeric bound: `value` itself allowed unless `exclusive`. */
export interface Bound {
  readonly value: number
  readonly exclusive: boolean
}

/** A part of the full schema the proof cannot read: a `$ref` that does not resolve, or unions too large to split. */
export interface FullIssue {
  readonly code: 'unresolved_ref' | 'unsupported_keyword'
  readonly pointer: string
  readonly message: string
}

/** Most branches one position may split into; past it a union is ignored (widening, still sound). */
const MAX_BRANCHES = 256

type Task = { loc: SchemaLoc } | { options: readonly SchemaLoc[]; union: SchemaLoc; keyword: 'anyOf' | 'oneOf' }

/** An immutable singly linked list (`undefined` is the empty list). */
type List<T> = { readonly head: T; readonly tail: List<T> } | undefined

function includes<T>(list: List<T>, value: T): boolean {
  for (let node = list; node !== undefined; node = node.tail) if (node.head === value) return true
  return false
}

/** The items of a list built by prepending, in the order they were added. */
function toArray<T>(list: List<T>): T[] {
  const items: T[] = []
  for (let node = list; node !== undefined; node = node.tail) items.push(node.head)
  return items.reverse()
}

/**
 * The branches of the conjunction of `locs` (an empty list is the unconstrained schema). A branch
 * that allows no value (`false`, contradictory literals or types) is left out, so an empty result
 * means the full side holds nothing here.
 */
export function expandFull(
  document: SchemaDocument,
  locs: readonly SchemaLoc[],
  pointer: string,
  issues: FullIssue[],
): FullBranch[] {
  const plain = plainConjunction(locs)
  if (plain !== undefined) {
    if (plain === false) return []
    const branch = readBranch(plain, pointer)
    return branch === undefined ? [] : [branch]
  }
  // Tasks, conjuncts and seen pointers are immutable linked lists: each step of the walk shares
  // what it was given and prepends, so no step copies an array or a set.
  const out: SchemaLoc[][] = []
  const walk = (tasks: List<Task>, acc: List<SchemaLoc>, seen: List<string>): void => {
    if (tasks === undefined) {
      out.push(toArray(acc))
      return
    }
    const { head: task, tail: rest } = tasks
    if ('options' in task) {
      if (out.length + task.options.length > MAX_BRANCHES) {
        // Read as allowing anything here (a widening: still sound), and said, so that the
        // violations this causes come with their reason.
        issues.push({
          code: 'unsupported_keyword',
          pointer: appendPointer(task.union.pointer, task.keyword),
          message: `the unions here combine into more than ${MAX_BRANCHES} branches; the proof does not split them that far and reads this union as allowing any value`,
        })
        return walk(rest, acc, seen)
      }
      for (const option of task.options) walk({ head: { loc: option }, tail: rest }, acc, seen)
      return
    }
    const { loc } = task
    const schema = loc.schema
    if (includes(seen, loc.pointer)) return walk(rest, acc, seen)
    if (schema === false) return
    if (!isSchemaObject(schema)) return walk(rest, acc, seen)
    const seenHere: List<string> = { head: loc.pointer, tail: seen }
    if (schema.$ref !== undefined) {
      const resolved = document.resolveRef(loc)
      if (!resolved.ok) {
        // Reported, and the branch is left out: nothing about it can be proven.
        issues.push({ code: 'unresolved_ref', pointer: appendPointer(loc.pointer, '$ref'), message: resolved.message })
        return
      }
      return walk({ head: { loc: resolved.loc }, tail: rest }, acc, seenHere)
    }
    const more: Task[] = []
    if (Array.isArray(schema.allOf)) schema.allOf.forEach((_, i) => more.push({ loc: document.child(loc, 'allOf', i)! }))
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const list = schema[keyword]
      if (Array.isArray(list) && list.length > 0) more.push({ options: list.map((_, i) => document.child(loc, keyword, i)!), union: loc, keyword })
    }
    let next = rest
    for (let i = more.length - 1; i >= 0; i--) next = { head: more[i]!, tail: next }
    walk(next, { head: loc, tail: acc }, seenHere)
  }
  let start: List<Task> = undefined
  for (let i = locs.length - 1; i >= 0; i--) start = { head: { loc: locs[i]! }, tail: start }
  walk(start, undefined, undefined)
  const branches: FullBranch[] = []
  for (const conjuncts of out) {
    const branch = readBranch(conjuncts, pointer)
    if (branch !== undefined) branches.push(branch)
  }
  return branches
}

/**
 * The common case of {@link expandFull}, without its walk: when no schema of `locs` has a `$ref`,
 * `allOf`, `anyOf` or `oneOf`, the conjunction is one branch of the schema objects among `locs`
 * (each pointer once). `false` when one of them is `false` (no value); `undefined` when the walk
 * is needed.
 */
function plainConjunction(locs: readonly SchemaLoc[]): SchemaLoc[] | false | undefined {
  const out: SchemaLoc[] = []
  for (let i = 0; i < locs.length; i++) {
    const loc = locs[i]!
    let repeated = false
    for (let j = 0; j < i; j++) if (locs[j]!.pointer === loc.pointer) repeated = true
    if (repeated) continue
    const schema = loc.schema
    if (schema === false) return false
    if (!isSchemaObject(schema)) continue
    if (schema.$ref !== undefined || Array.isArray(schema.allOf) || Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) return undefined
    out.push(loc)
  }
  return out
}

/** The empty set a branch shares when it has no `required`, `pattern` or `format`. */
const NO_STRINGS: ReadonlySet<string> = new Set()

const UNION_KEYWORDS: ReadonlySet<string> = new Set(['anyOf', 'oneOf', 'allOf'])

/** True if `schema` has a keyword of its own that constrains values (not a union, annotation or `x-`). */
function assertsOwnKeyword(schema: { readonly [k: string]: unknown }): boolean {
  for (const key in schema) {
    if (!Object.hasOwn(schema, key)) continue
    if (!UNION_KEYWORDS.has(key) && !NEUTRAL_KEYWORDS.has(key) && !key.startsWith('x-')) return true
  }
  return false
}

function readBranch(conjuncts: readonly SchemaLoc[], fallback: string): FullBranch | undefined {
  let types = ALL_TYPES
  let values: unknown[] | undefined
  let required: Set<string> | undefined
  let minLength = 0
  let maxLength: number | undefined
  let patterns: Set<string> | undefined
  let formats: Set<string> | undefined
  let lower: Bound | undefined
  let upper: Bound | undefined
  const multiples: number[] = []
  let minItems = 0
  let maxItems: number | undefined
  let uniqueItems = false
  let primary: string | undefined
  for (const { schema, pointer } of conjuncts) {
    const s = schema as { readonly [k: string]: unknown }
    if (primary === undefined && assertsOwnKeyword(s)) {
      primary = pointer
    }
    let mask = typeMaskOf(s.type) ?? ALL_TYPES
    if (s.nullable === true) mask |= NULL
    types &= mask
    const literals = Array.isArray(s.enum) ? s.enum : undefined
    if (literals !== undefined) values = values === undefined ? [...literals] : values.filter((v) => includesJson(literals, v))
    if (Object.hasOwn(s, 'const')) values = (values ?? [s.const]).filter((v) => includesJson([s.const], v))
    if (Array.isArray(s.required)) for (const key of s.required) if (typeof key === 'string') (required ??= new Set()).add(key)
    if (isCount(s.minLength)) minLength = Math.max(minLength, s.minLength)
    if (isCount(s.maxLength)) maxLength = Math.min(maxLength ?? Infinity, s.maxLength)
    if (typeof s.pattern === 'string') (patterns ??= new Set()).add(s.pattern)
    if (typeof s.format === 'string') (formats ??= new Set()).add(s.format)
    if (isFiniteNumber(s.minimum)) lower = tighterLower(lower, { value: s.minimum, exclusive: false })
    if (isFiniteNumber(s.exclusiveMinimum)) lower = tighterLower(lower, { value: s.exclusiveMinimum, exclusive: true })
    if (isFiniteNumber(s.maximum)) upper = tighterUpper(upper, { value: s.maximum, exclusive: false })
    if (isFiniteNumber(s.exclusiveMaximum)) upper = tighterUpper(upper, { value: s.exclusiveMaximum, exclusive: true })
    if (isFiniteNumber(s.multipleOf)) multiples.push(s.multipleOf)
    if (isCount(s.minItems)) minItems = Math.max(minItems, s.minItems)
    if (isCount(s.maxItems)) maxItems = Math.min(maxItems ?? Infinity, s.maxItems)
    if (s.uniqueItems === true) uniqueItems = true
  }
  if (values !== undefined) {
    values = values.filter((v) => (atomOf(v) & types) !== 0)
    let atoms = 0
    for (const v of values) atoms |= atomOf(v)
    types &= atoms
  } else if ((types & ~(NULL | BOOLEAN)) === 0) {
    values = []
    if (types & NULL) values.push(null)
    if (types & BOOLEAN) values.push(true, false)
  }
  if (types === 0) return undefined
  return {
    conjuncts, pointer: primary ?? conjuncts[conjuncts.length - 1]?.pointer ?? fallback,
    types, values, required: required ?? NO_STRINGS, minLength, maxLength,
    patterns: patterns ?? NO_STRINGS, formats: formats ?? NO_STRINGS, lower, upper, multiples,
    minItems, maxItems, uniqueItems,
  }
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}

function tighterLower(a: Bound | undefined, b: Bound): Bound {
  if (a === undefined || b.value > a.value) return b
  if (b.value === a.value && b.exclusive) return b
  return a
}

function tighterUpper(a: Bound | undefined, b: Bound): Bound {
  if (a === undefined || b.value < a.value) return b
  if (b.value === a.value && b.exclusive) return b
  return a
}

/** Where a property of a full branch is defined, and whether the full view has it at all. */
export interface FullProperty {
  /** Schemas the property's value satisfies (empty: unconstrained). */
  readonly locs: SchemaLoc[]
  /** Named in `properties`, matched by `patternProperties`, or listed in `required`. */
  readonly declared: boolean
  /** The property's schema pointer (or where it would be). */
  readonly pointer: string
  /** Pointer of the first conjunct that names the property in `properties`. */
  readonly declaredBy: string | undefined
}

/** The schemas a property `key` of an object in `branch` satisfies. */
export function fullProperty(document: SchemaDocument, branch: FullBranch, key: string): FullProperty {
  const locs: SchemaLoc[] = []
  let declared = branch.required.has(key)
  let pointer: string | undefined
  let declaredBy: string | undefined
  for (const loc of branch.conjuncts) {
    const s = loc.schema as { readonly [k: string]: unknown }
    let covered = false
    if (isSchemaObject(s.properties) && Object.hasOwn(s.properties, key)) {
      const at = document.entry(loc, 'properties', key)!
      locs.push(at)
      pointer ??= at.pointer
      declaredBy ??= loc.pointer
      covered = true
    }
    if (isSchemaObject(s.patternProperties)) {
      for (const source of Object.keys(s.patternProperties)) {
        if (document.pattern(source)?.test(key) === true) {
          const at = document.entry(loc, 'patternProperties', source)!
          locs.push(at)
          pointer ??= at.pointer
          covered = true
        }
      }
    }
    if (!covered && s.additionalProperties !== undefined) locs.push(document.at(loc, 'additionalProperties')!)
    if (covered) declared = true
  }
  return { locs, declared, pointer: pointer ?? appendPointer(branch.pointer, 'properties', key), declaredBy }
}

/** The schemas of the full branch's `patternProperties` entries with exactly this pattern. */
export function fullPattern(document: SchemaDocument, branch: FullBranch, source: string): SchemaLoc[] {
  const locs: SchemaLoc[] = []
  for (const loc of branch.conjuncts) {
    const s = loc.schema as { readonly [k: string]: unknown }
    if (isSchemaObject(s.patternProperties) && Object.hasOwn(s.patternProperties, source)) {
      locs.push(document.entry(loc, 'patternProperties', source)!)
    }
  }
  return locs
}

/** The schemas array element `index` satisfies in `branch`, or `undefined` if no such element can exist. */
export function fullElement(document: SchemaDocument, branch: FullBranch, index: number): { locs: SchemaLoc[]; pointer: string } | undefined {
  if (branch.maxItems !== undefined && index >= branch.maxItems) return undefined
  const locs: SchemaLoc[] = []
  for (const loc of branch.conjuncts) {
    const s = loc.schema as { readonly [k: string]: unknown }
    const { items, additionalItems, prefixItems } = s
    if (Array.isArray(items)) {
      if (index < items.length) locs.push(document.entry(loc, 'items', index)!)
      else if (additionalItems === false) return undefined
      else if (isSchemaObject(additionalItems)) locs.push(document.at(loc, 'additionalItems')!)
    } else if (Array.isArray(prefixItems) && index < prefixItems.length) {
      // 2020-12 reads `prefixItems` here, draft-07 reads `items`: assume neither (widening).
    } else if (items === false) return undefined
    else if (isSchemaObject(items)) locs.push(document.at(loc, 'items')!)
  }
  const pointer = locs[0]?.pointer ?? appendPointer(branch.pointer, 'items')
  return { locs, pointer }
}

/** The length of the longest tuple prefix among the branch's conjuncts (elements past it all look alike). */
export function fullPrefixLength(branch: FullBranch): number {
  let length = 0
  for (const { schema } of branch.conjuncts) {
    const s = schema as { readonly [k: string]: unknown }
    if (Array.isArray(s.items)) length = Math.max(length, s.items.length)
    if (Array.isArray(s.prefixItems)) length = Math.max(length, s.prefixItems.length)
  }
  return length
}
