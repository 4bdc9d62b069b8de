import { appendPointer } from '../json/pointer.js'
import { includesJson } from './json-equal.js'
import { isUnconstrained, NEUTRAL_KEYWORDS, unsupportedCompactKeywords, type ShapePurpose } from './keyword-sets.js'
import { isSchemaObject, SchemaDocument, type SchemaLoc } from './schema-document.js'
import { ALL_TYPES, ARRAY, atomOf, NULL, OBJECT, SCALAR_TYPES, typeMaskOf } from './type-mask.js'

/**
 * The shape of a compact schema: what the view proof checks and what the projector copies, read
 * once from the schema so that both agree on every position. `$ref`s are resolved (a recursive
 * schema gives a cyclic graph of shapes), nested unions are flattened, and everything the proof
 * cannot reason about is recorded as a {@link ShapeIssue} on the shape where it occurs.
 */
export type CompactShape = AnyShape | NeverShape | ValueShape | UnionShape

/** A problem of the compact schema alone, found while reading it. */
export interface ShapeIssue {
  readonly code: 'unsupported_keyword' | 'unresolved_ref' | 'union_not_discriminated'
  /** JSON Pointer into the compact schema. */
  readonly pointer: string
  readonly message: string
}

interface ShapeBase {
  /** JSON Pointer of the schema this shape was read from (the `$ref` target for references). */
  readonly pointer: string
  readonly issues: ShapeIssue[]
}

/** Accepts every value (`{}`, `true`, annotations only): projection deep-copies. */
export interface AnyShape extends ShapeBase {
  readonly kind: 'any'
}

/** Accepts no value (`false`). */
export interface NeverShape extends ShapeBase {
  readonly kind: 'never'
}

/** Length, pattern and format rules for strings. */
export interface StringRules {
  minLength?: number
  maxLength?: number
  pattern?: string
  regex?: RegExp
  format?: string
}

/** Bounds (and a numeric `format`, such as `int32` of ajv-formats) for numbers. */
export interface NumberRules {
  format?: string
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  multipleOf?: number
}

/** A schema without `anyOf`/`oneOf`: types, literals, value rules and the object/array parts. */
export interface ValueShape extends ShapeBase {
  readonly kind: 'value'
  /** The schema object this shape was read from. */
  readonly schema: unknown
  /** Accepted JSON types (see `type-mask.ts`), narrowed to the types of `values` when present. */
  types: number
  /** The literals of `enum` (or `[const]`); `undefined` when neither is present. */
  values: readonly unknown[] | undefined
  valuesKeyword: 'enum' | 'const' | undefined
  readonly string: StringRules
  readonly number: NumberRules
  /** How objects are projected: field by field, or copied whole (`'opaque'`: no object keyword). */
  object: ObjectShape | 'opaque'
  /** How arrays are projected: element by element, or copied whole (`'opaque'`: no array keyword). */
  array: ArrayShape | 'opaque'
}

/** The declared properties of a compact object: the only keys projection copies. */
export interface ObjectShape {
  readonly pointer: string
  readonly properties: PropertyShape[]
  /** The one `patternProperties` entry, if any: keys matching it are copied too. */
  pattern: PatternShape | undefined
  /**
   * The `additionalProperties` schema (a never shape for `false`), `undefined` when absent or
   * `true`. Projection never reads it (it copies declared keys only); the containment proof does.
   */
  additional: CompactShape | undefined
}

/** One declared property. */
export interface PropertyShape {
  readonly key: string
  /** JSON Pointer of the property's schema (`.../properties/key`), or of its `required` entry. */
  readonly pointer: string
  readonly required: boolean
  shape: CompactShape
}

/** The single `patternProperties` entry of a compact object. */
export interface PatternShape {
  readonly source: string
  readonly regex: RegExp
  readonly pointer: string
  shape: CompactShape
}

/** The elements of a compact array: a tuple prefix, then the rest. */
export interface ArrayShape {
  readonly pointer: string
  readonly prefix: ElementShape[]
  /** Schema of the elements after the prefix; `undefined` when no further element is allowed. */
  rest: ElementShape | undefined
  readonly minItems: number | undefined
  readonly maxItems: number | undefined
  readonly uniqueItems: boolean
}

/** The schema of one array position. */
export interface ElementShape {
  readonly pointer: string
  shape: CompactShape
}

/** How a union projects the values of one JSON type (objects or arrays). */
export type UnionDispatch =
  | { readonly mode: 'none' }
  | { readonly mode: 'copy' }
  | { readonly mode: 'single'; readonly branch: ValueShape }
  | { readonly mode: 'tag'; readonly key: string; readonly byTag: ReadonlyMap<unknown, ValueShape> }
  | { readonly mode: 'ambiguous' }

/** `anyOf`/`oneOf`, flattened: projection picks the branch by JSON type, then by tag. */
export interface UnionShape extends ShapeBase {
  readonly kind: 'union'
  /** The schema object this shape was read from (the one holding `anyOf`/`oneOf`). */
  readonly schema: unknown
  readonly branches: ValueShape[]
  /** `oneOf`: the branches must not overlap. */
  readonly exclusive: boolean
  objects: UnionDispatch
  arrays: UnionDispatch
}

/** A compact schema read into shapes, with every issue found anywhere in it. */
export interface CompactSchema {
  readonly document: SchemaDocument
  readonly root: CompactShape
}

/**
 * Reads a compact schema into its {@link CompactShape} graph. Never throws: problems are
 * recorded as issues on the shapes, worded for `purpose` (a view is projected; the accepting side
 * of a containment proof is not, so its messages never speak of projection).
 */
export function readCompactSchema(schema: unknown, purpose: ShapePurpose = 'view'): CompactSchema {
  const reader = new ShapeReader(new SchemaDocument(schema), purpose)
  const root = reader.read(reader.document.root, new Set())
  reader.finish()
  return { document: reader.document, root }
}

const NO_CHAIN: ReadonlySet<string> = new Set()

class ShapeReader {
  /**
   * Shapes read, by the schema object they were read from, each with the pointer it was read at:
   * a look-up by object needs no hash of a pointer string, and a hit counts only at the same
   * pointer (a part `defineTool` shares may sit at two places of one document). Non-object
   * schemas (`true`, `false`, a number) are kept by pointer in {@link #byPointer}.
   */
  readonly #memo = new Map<object, { readonly pointer: string; readonly shape: CompactShape }>()
  readonly #byPointer = new Map<string, CompactShape>()
  readonly #unions: UnionShape[] = []
  readonly #pending = new Set<UnionShape>()
  /**
   * Unions that include, as a branch, a union still being read (reached again through a property
   * or item of one of its own branches): their branches are completed in {@link finish}, in order.
   */
  readonly #deferred = new Map<UnionShape, UnionPart[]>()

  constructor(readonly document: SchemaDocument, readonly purpose: ShapePurpose) {}

  /**
   * The shape at `loc`. `chain` holds the pointers being resolved through `$ref` and union
   * flattening only (not through properties or items): meeting one again is a cycle that no
   * property or item guards, which has no projection.
   */
  read(loc: SchemaLoc, chain: ReadonlySet<string>): CompactShape {
    const memo = this.#recall(loc)
    if (memo !== undefined) return memo
    const schema = loc.schema
    if (schema === true) return this.#keep({ kind: 'any', pointer: loc.pointer, issues: [] }, loc)
    if (schema === false) return this.#keep({ kind: 'never', pointer: loc.pointer, issues: [] }, loc)
    if (!isSchemaObject(schema)) {
      return this.#keep(issueShape(loc.pointer, 'unsupported_keyword', loc.pointer, 'a schema must be an object or a boolean'), loc)
    }
    if (chain.has(loc.pointer)) {
      return issueShape(loc.pointer, 'unresolved_ref', loc.pointer, 'a cycle of "$ref"s (or unions) that passes through no property or item')
    }
    if (schema.$ref !== undefined) return this.#readRef(loc, schema, chain)
    if (schema.anyOf !== undefined || schema.oneOf !== undefined) return this.#readUnion(loc, schema, chain)
    if (isUnconstrained(schema)) return this.#keep({ kind: 'any', pointer: loc.pointer, issues: [] }, loc)
    return this.#readValue(loc, schema)
  }

  /** Computes the union dispatches once every shape is complete (recursion can reach a union early). */
  finish(): void {
    const flattened = new Set<UnionShape>()
    const flatten = (union: UnionShape): void => {
      const parts = this.#deferred.get(union)
      if (parts === undefined || flattened.has(union)) return
      flattened.add(union)
      union.branches.length = 0
      for (const part of parts) {
        if ('value' in part) {
          union.branches.push(part.value)
          continue
        }
        flatten(part.union)
        union.branches.push(...part.union.branches)
        includeIssues(union, part.union, part.pointer)
      }
    }
    for (const union of this.#deferred.keys()) flatten(union)
    for (const union of this.#unions) {
      union.objects = objectDispatch(union)
      union.arrays = arrayDispatch(union)
      if (union.objects.mode === 'ambiguous') {
        union.issues.push({
          code: 'union_not_discriminated',
          pointer: union.pointer,
          message: 'object branches of this union need a required literal tag property (same key, distinct values) to be projected',
        })
      }
      if (union.arrays.mode === 'ambiguous') {
        union.issues.push({
          code: 'union_not_discriminated',
          pointer: union.pointer,
          message: 'this union has several array branches with different items; projection could not choose one',
        })
      }
      if (union.exclusive) checkExclusive(union)
    }
  }

  /** The shape read before at `loc` (same schema, same pointer), if any. */
  #recall(loc: SchemaLoc): CompactShape | undefined {
    const schema = loc.schema
    if (typeof schema !== 'object' || schema === null) return this.#byPointer.get(loc.pointer)
    const entry = this.#memo.get(schema)
    return entry !== undefined && entry.pointer === loc.pointer ? entry.shape : undefined
  }

  /** Keeps `shape` as the shape at `loc` (see {@link #memo}). */
  #keep<S extends CompactShape>(shape: S, loc: SchemaLoc): S {
    const schema = loc.schema
    if (typeof schema !== 'object' || schema === null) this.#byPointer.set(loc.pointer, shape)
    else this.#memo.set(schema, { pointer: loc.pointer, shape })
    return shape
  }

  #readRef(loc: SchemaLoc, schema: { readonly [k: string]: unknown }, chain: ReadonlySet<string>): CompactShape {
    const siblings = Object.keys(schema).filter((k) => k !== '$ref' && !NEUTRAL_KEYWORDS.has(k) && !k.startsWith('x-'))
    if (siblings.length > 0) {
      return this.#keep(issueShape(loc.pointer, 'unsupported_keyword', appendPointer(loc.pointer, siblings[0]!),
        `"${siblings.join('", "')}" beside "$ref": validators disagree on whether it applies; move it into the referenced schema`), loc)
    }
    const resolved = this.document.resolveRef(loc)
    if (!resolved.ok) return this.#keep(issueShape(loc.pointer, 'unresolved_ref', appendPointer(loc.pointer, '$ref'), resolved.message), loc)
    const target = this.read(resolved.loc, new Set([...chain, loc.pointer]))
    return this.#keep(target, loc)
  }

  #readUnion(loc: SchemaLoc, schema: { readonly [k: string]: unknown }, chain: ReadonlySet<string>): CompactShape {
    const keyword = schema.anyOf !== undefined ? 'anyOf' : 'oneOf'
    const union: UnionShape = {
      kind: 'union', pointer: loc.pointer, schema, issues: [], branches: [], exclusive: keyword === 'oneOf',
      objects: { mode: 'none' }, arrays: { mode: 'none' },
    }
    if (schema.anyOf !== undefined && schema.oneOf !== undefined) {
      union.issues.push({ code: 'unsupported_keyword', pointer: appendPointer(loc.pointer, 'oneOf'), message: '"anyOf" and "oneOf" together; use one union' })
    }
    const siblings = Object.keys(schema).filter((k) => k !== 'anyOf' && k !== 'oneOf' && !NEUTRAL_KEYWORDS.has(k) && !k.startsWith('x-'))
    if (siblings.length > 0) {
      union.issues.push({ code: 'unsupported_keyword', pointer: appendPointer(loc.pointer, siblings[0]!),
        message: `"${siblings.join('", "')}" beside "${keyword}": move it into every branch` })
    }
    const list = schema[keyword]
    if (!Array.isArray(list) || list.length === 0) {
      union.issues.push({ code: 'unsupported_keyword', pointer: appendPointer(loc.pointer, keyword), message: `"${keyword}" must be a non-empty list of schemas` })
      return this.#keep(union, loc)
    }
    this.#keep(union, loc)
    this.#pending.add(union)
    const inner = new Set([...chain, loc.pointer])
    let any: AnyShape | undefined
    let unconstrained = 0
    // The branches in order, unions unflattened: kept only if one of them is still being read.
    const parts: UnionPart[] = []
    let deferred = false
    for (let i = 0; i < list.length; i++) {
      const branch = this.read(this.document.entry(loc, keyword, i)!, inner)
      if (branch.kind === 'any' && branch.issues.length === 0) {
        any ??= branch
        unconstrained++
      }
      else if (branch.kind === 'value') {
        union.branches.push(branch)
        parts.push({ value: branch })
      } else if (branch.kind === 'union') {
        if (this.#pending.has(branch) && inner.has(branch.pointer)) {
          union.issues.push({ code: 'unresolved_ref', pointer: appendPointer(loc.pointer, keyword, i),
            message: 'this branch refers back to its own union through no property or item' })
          continue
        }
        const late = this.#pending.has(branch)
        parts.push({ union: branch, pointer: appendPointer(loc.pointer, keyword, i) })
        if (late || this.#deferred.has(branch)) {
          // An enclosing union reached again through a property or item of one of its branches
          // (an expression tree: `arg: anyOf [Expr, null]` inside a branch of `Expr`). Its
          // branches are not all read yet: they are included once they are, in `finish` (so
          // are those of a union that includes one).
          deferred = true
        }
        if (!late) {
          union.branches.push(...branch.branches)
          includeIssues(union, branch, appendPointer(loc.pointer, keyword, i))
        }
      } else if (branch.kind !== 'never') union.issues.push(...branch.issues)
    }
    this.#pending.delete(union)
    if (deferred) this.#deferred.set(union, parts)
    if (any !== undefined && union.exclusive && (union.branches.length > 0 || unconstrained > 1)) {
      // Every value matches the unconstrained branch, so one that also matches another branch
      // matches two, which "oneOf" refuses: the union is not "anything", and not provable here.
      union.issues.push({ code: 'unsupported_keyword', pointer: appendPointer(loc.pointer, keyword),
        message: '"oneOf" with an unconstrained branch beside others: a value matching another branch matches two' })
    }
    if (any !== undefined && union.issues.length === 0) {
      // A union with an unconstrained branch accepts everything: it projects by deep copy.
      const whole: AnyShape = { kind: 'any', pointer: loc.pointer, issues: [] }
      this.#keep(whole, loc)
      return whole
    }
    this.#unions.push(union)
    return union
  }

  #readValue(loc: SchemaLoc, schema: { readonly [k: string]: unknown }): ValueShape {
    const issues: ShapeIssue[] = []
    const issue = (keyword: string, message: string): void => {
      issues.push({ code: 'unsupported_keyword', pointer: appendPointer(loc.pointer, keyword), message })
    }
    const side = this.purpose === 'view' ? 'in a compact view' : 'on the side that must accept'
    for (const { keyword, reason } of unsupportedCompactKeywords(schema, this.purpose)) issue(keyword, `"${keyword}" is not supported ${side}: ${reason}`)
    let types = typeMaskOf(schema.type)
    if (types === undefined) {
      issue('type', '"type" must be a JSON type name or a list of them')
      types = ALL_TYPES
    }
    if (schema.nullable === true) types |= NULL
    else if (schema.nullable !== undefined && schema.nullable !== false) issue('nullable', '"nullable" must be a boolean')
    let values: unknown[] | undefined
    let valuesKeyword: ValueShape['valuesKeyword']
    if (schema.enum !== undefined) {
      if (Array.isArray(schema.enum)) {
        values = [...schema.enum]
        valuesKeyword = 'enum'
      } else issue('enum', '"enum" must be a list')
    }
    if (Object.hasOwn(schema, 'const')) {
      values = values === undefined ? [schema.const] : values.filter((v) => includesJson([schema.const], v))
      valuesKeyword = 'const'
    }
    if (values !== undefined) {
      values = values.filter((v) => (atomOf(v) & types!) !== 0)
      let atoms = 0
      for (const v of values) atoms |= atomOf(v)
      types &= atoms
    }
    const shape: ValueShape = {
      kind: 'value', pointer: loc.pointer, schema, issues, types, values, valuesKeyword,
      string: readStringRules(schema, issue), number: readNumberRules(schema, issue),
      object: 'opaque', array: 'opaque',
    }
    this.#keep(shape, loc)
    shape.object = this.#readObject(loc, schema, issue)
    shape.array = this.#readArray(loc, schema, issue)
    if (values !== undefined) {
      if (shape.object !== 'opaque' && values.some((v) => atomOf(v) === OBJECT)) {
        issue(valuesKeyword!, `"${valuesKeyword}" with object literals beside object keywords: ${this.purpose === 'view' ? 'projection could change the literal' : 'the proof does not compare literals with object keywords'}`)
      }
      if (shape.array !== 'opaque' && values.some((v) => atomOf(v) === ARRAY)) {
        issue(valuesKeyword!, `"${valuesKeyword}" with array literals beside array keywords: ${this.purpose === 'view' ? 'projection could change the literal' : 'the proof does not compare literals with array keywords'}`)
      }
    }
    return shape
  }

  #readObject(loc: SchemaLoc, schema: { readonly [k: string]: unknown }, issue: (keyword: string, message: string) => void): ObjectShape | 'opaque' {
    const { properties, required, patternProperties, additionalProperties } = schema
    if (properties === undefined && required === undefined && patternProperties === undefined &&
      (additionalProperties === undefined || additionalProperties === true)) return 'opaque'
    const object: ObjectShape = { pointer: loc.pointer, properties: [], pattern: undefined, additional: undefined }
    const requiredKeys = new Set<string>()
    if (required !== undefined) {
      if (Array.isArray(required) && required.every((k) => typeof k === 'string')) for (const k of required) requiredKeys.add(k)
      else issue('required', '"required" must be a list of strings')
    }
    if (additionalProperties !== undefined && typeof additionalProperties !== 'boolean' && !isSchemaObject(additionalProperties)) {
      issue('additionalProperties', '"additionalProperties" must be a schema')
    } else if (additionalProperties === false || isSchemaObject(additionalProperties)) {
      object.additional = this.read(this.document.at(loc, 'additionalProperties')!, NO_CHAIN)
    }
    if (patternProperties !== undefined) {
      if (!isSchemaObject(patternProperties)) issue('patternProperties', '"patternProperties" must be an object')
      else {
        const sources = Object.keys(patternProperties)
        if (sources.length > 1) {
          issue('patternProperties', `more than one pattern: a key matching several must satisfy all of them, which ${this.purpose === 'view' ? 'projection cannot prove' : 'the proof does not reason about'}; use one pattern`)
        } else if (sources.length === 1) {
          const source = sources[0]!
          const regex = compilePattern(source)
          const at = this.document.entry(loc, 'patternProperties', source)!
          if (regex === undefined) issue('patternProperties', `pattern ${JSON.stringify(source)} is not a valid Unicode regular expression`)
          else object.pattern = { source, regex, pointer: at.pointer, shape: this.read(at, NO_CHAIN) }
        }
      }
    }
    const declared = new Set<string>()
    if (properties !== undefined) {
      if (!isSchemaObject(properties)) issue('properties', '"properties" must be an object')
      else {
        for (const key of Object.keys(properties)) {
          const at = this.document.entry(loc, 'properties', key)!
          declared.add(key)
          object.properties.push({ key, pointer: at.pointer, required: requiredKeys.has(key), shape: this.read(at, NO_CHAIN) })
        }
      }
    }
    let index = 0
    for (const key of requiredKeys) {
      const pointer = appendPointer(loc.pointer, 'required', index++)
      if (declared.has(key)) continue
      // A required key with no schema of its own: `patternProperties`, else `additionalProperties`.
      let shape: CompactShape
      if (object.pattern !== undefined && object.pattern.regex.test(key)) shape = object.pattern.shape
      else if (isSchemaObject(additionalProperties) || typeof additionalProperties === 'boolean') {
        shape = object.additional ?? this.read(this.document.at(loc, 'additionalProperties')!, NO_CHAIN)
      } else shape = { kind: 'any', pointer, issues: [] }
      object.properties.push({ key, pointer, required: true, shape })
    }
    if (object.pattern !== undefined) {
      for (const key of declared) {
        if (object.pattern.regex.test(key)) {
          issue('patternProperties', `property "${key}" also matches pattern ${JSON.stringify(object.pattern.source)}: it would have to satisfy both schemas`)
        }
      }
    }
    return object
  }

  #readArray(loc: SchemaLoc, schema: { readonly [k: string]: unknown }, issue: (keyword: string, message: string) => void): ArrayShape | 'opaque' {
    const { items, additionalItems, minItems, maxItems, uniqueItems } = schema
    if (items === undefined && minItems === undefined && maxItems === undefined && uniqueItems === undefined) return 'opaque'
    const element = (...tokens: Array<string | number>): ElementShape => {
      const at = this.document.child(loc, ...tokens)!
      return { pointer: at.pointer, shape: this.read(at, NO_CHAIN) }
    }
    const anyElement = (pointer: string): ElementShape => ({ pointer, shape: { kind: 'any', pointer, issues: [] } })
    const prefix: ElementShape[] = []
    let rest: ElementShape | undefined = anyElement(appendPointer(loc.pointer, 'items'))
    if (Array.isArray(items)) {
      for (let i = 0; i < items.length; i++) prefix.push(element('items', i))
      if (additionalItems === false) rest = undefined
      else if (additionalItems !== undefined && additionalItems !== true) rest = element('additionalItems')
      else rest = anyElement(appendPointer(loc.pointer, 'additionalItems'))
    } else if (items === false) rest = undefined
    else if (items !== undefined) {
      if (!isSchemaObject(items) && items !== true) issue('items', '"items" must be a schema or a list of schemas')
      else rest = element('items')
    }
    const count = (keyword: string, value: unknown): number | undefined => {
      if (value === undefined) return undefined
      if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value
      issue(keyword, `"${keyword}" must be a non-negative integer`)
      return undefined
    }
    if (uniqueItems !== undefined && typeof uniqueItems !== 'boolean') issue('uniqueItems', '"uniqueItems" must be a boolean')
    return {
      pointer: loc.pointer, prefix, rest,
      minItems: count('minItems', minItems), maxItems: count('maxItems', maxItems), uniqueItems: uniqueItems === true,
    }
  }
}

/** A branch of a union as read: a value shape, or a nested union (at `pointer`) to flatten into it. */
type UnionPart = { readonly value: ValueShape } | { readonly union: UnionShape; readonly pointer: string }

/**
 * Takes the issues of a nested union flattened into `union` (at `pointer`), each once (a union
 * completed in `finish` takes them again), and says if the two unions do not mix.
 */
function includeIssues(union: UnionShape, nested: UnionShape, pointer: string): void {
  const key = (issue: ShapeIssue): string => `${issue.code}\u0000${issue.pointer}\u0000${issue.message}`
  const taken = new Set(union.issues.map(key))
  const add = (issue: ShapeIssue): void => {
    if (taken.has(key(issue))) return
    taken.add(key(issue))
    union.issues.push(issue)
  }
  for (const issue of nested.issues) add(issue)
  if (nested.exclusive !== union.exclusive && nested.branches.length > 1) {
    add({ code: 'unsupported_keyword', pointer, message: '"anyOf" nested in "oneOf" (or the reverse); use one union' })
  }
}

function issueShape(pointer: string, code: ShapeIssue['code'], at: string, message: string): AnyShape {
  return { kind: 'any', pointer, issues: [{ code, pointer: at, message }] }
}

/** Compiles a JSON Schema `pattern` as ajv does (Unicode mode); `undefined` if invalid. */
export function compilePattern(source: string): RegExp | undefined {
  try {
    return new RegExp(source, 'u')
  } catch {
    return undefined
  }
}

function readStringRules(schema: { readonly [k: string]: unknown }, issue: (keyword: string, message: string) => void): StringRules {
  const rules: StringRules = {}
  if (schema.minLength === undefined && schema.maxLength === undefined && schema.pattern === undefined && schema.format === undefined) return rules
  for (const keyword of ['minLength', 'maxLength'] as const) {
    const value = schema[keyword]
    if (value === undefined) continue
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) rules[keyword] = value
    else issue(keyword, `"${keyword}" must be a non-negative integer`)
  }
  if (schema.pattern !== undefined) {
    const regex = typeof schema.pattern === 'string' ? compilePattern(schema.pattern) : undefined
    if (regex === undefined) issue('pattern', '"pattern" must be a valid Unicode regular expression')
    else {
      rules.pattern = schema.pattern as string
      rules.regex = regex
    }
  }
  if (schema.format !== undefined) {
    if (typeof schema.format === 'string') rules.format = schema.format
    else issue('format', '"format" must be a string')
  }
  return rules
}

function readNumberRules(schema: { readonly [k: string]: unknown }, issue: (keyword: string, message: string) => void): NumberRules {
  const rules: NumberRules = {}
  // A `format` may be a number format (`int32`, `int64`, `float`, `double`): it binds numbers too.
  if (typeof schema.format === 'string') rules.format = schema.format
  if (schema.minimum === undefined && schema.maximum === undefined && schema.exclusiveMinimum === undefined &&
    schema.exclusiveMaximum === undefined && schema.multipleOf === undefined) return rules
  for (const keyword of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const) {
    const value = schema[keyword]
    if (value === undefined) continue
    if (typeof value === 'number' && Number.isFinite(value) && (keyword !== 'multipleOf' || value > 0)) rules[keyword] = value
    else issue(keyword, `"${keyword}" must be a finite number${keyword === 'multipleOf' ? ' above 0' : ' (the draft-04 boolean form is not supported)'}`)
  }
  return rules
}

/** True if projecting an array with this shape copies it whole. */
/**
 * Whether projection copies every value of this shape unchanged and the shape has no issue
 * anywhere (its branches' included): no object keyword, and no array keyword other than items
 * that accept anything.
 */
export function copiedWholeCleanly(shape: CompactShape): boolean {
  if (shape.issues.length > 0) return false
  if (shape.kind === 'union') return shape.branches.every(copiedWholeCleanly)
  if (shape.kind !== 'value') return true
  return shape.object === 'opaque' && (shape.array === 'opaque' || (shape.array.prefix.length === 0 && shape.array.rest !== undefined && shape.array.rest.shape.kind === 'any' && shape.array.rest.shape.issues.length === 0))
}

export function copiesArrayWhole(array: ArrayShape | 'opaque'): boolean {
  return array === 'opaque' || (array.prefix.length === 0 && array.rest !== undefined && array.rest.shape.kind === 'any')
}

function objectDispatch(union: UnionShape): UnionDispatch {
  const candidates = union.branches.filter((b) => (b.types & OBJECT) !== 0)
  if (candidates.length === 0) return { mode: 'none' }
  if (candidates.length === 1) return { mode: 'single', branch: candidates[0]! }
  if (candidates.every((b) => b.object === 'opaque')) return { mode: 'copy' }
  if (candidates.some((b) => b.object === 'opaque')) return { mode: 'ambiguous' }
  const first = candidates[0]!.object as ObjectShape
  for (const property of first.properties) {
    const byTag = tagMap(candidates, property.key)
    if (byTag !== undefined) return { mode: 'tag', key: property.key, byTag }
  }
  return { mode: 'ambiguous' }
}

/** The literal values of a required property in every branch, if they tell the branches apart. */
function tagMap(candidates: readonly ValueShape[], key: string): Map<unknown, ValueShape> | undefined {
  const byTag = new Map<unknown, ValueShape>()
  for (const branch of candidates) {
    const property = (branch.object as ObjectShape).properties.find((p) => p.key === key)
    if (property === undefined || !property.required) return undefined
    const literals = tagLiterals(property.shape)
    if (literals === undefined) return undefined
    for (const literal of literals) {
      if (byTag.has(literal)) return undefined
      byTag.set(literal, branch)
    }
  }
  return byTag
}

/** The scalar literals a tag property allows (`const` or `enum`), if it is such a property. */
function tagLiterals(shape: CompactShape): readonly unknown[] | undefined {
  if (shape.kind !== 'value' || shape.values === undefined || shape.values.length === 0) return undefined
  if (!shape.values.every((v) => (atomOf(v) & SCALAR_TYPES) !== 0)) return undefined
  return shape.values
}

function arrayDispatch(union: UnionShape): UnionDispatch {
  const candidates = union.branches.filter((b) => (b.types & ARRAY) !== 0)
  if (candidates.length === 0) return { mode: 'none' }
  if (candidates.length === 1) return { mode: 'single', branch: candidates[0]! }
  if (candidates.every((b) => copiesArrayWhole(b.array))) return { mode: 'copy' }
  return { mode: 'ambiguous' }
}

/** `oneOf` is supported when no value can match two branches (so projection keeps exactly one). */
function checkExclusive(union: UnionShape): void {
  const { branches } = union
  for (let i = 0; i < branches.length; i++) {
    for (let j = i + 1; j < branches.length; j++) {
      const a = branches[i]!
      const b = branches[j]!
      const overlap = a.types & b.types
      if (overlap === 0) continue
      if (a.values !== undefined && b.values !== undefined && !a.values.some((v) => includesJson(b.values!, v))) continue
      if (overlap === OBJECT && union.objects.mode === 'tag') continue
      union.issues.push({
        code: 'unsupported_keyword',
        pointer: appendPointer(union.pointer, 'oneOf'),
        message: `"oneOf" branches ${i} and ${j} may both match a value, which fails "oneOf"; use "anyOf" or tell them apart by type or literal tag`,
      })
    }
  }
}

/** Every issue of every shape reachable from `root` (each shape once). */
export function shapeIssues(root: CompactShape): ShapeIssue[] {
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
