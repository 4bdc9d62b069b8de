import { appendPointer, escapePointerToken, parsePointer } from '../json/pointer.js'

/**
 * A schema position inside one schema document: the (sub)schema, its JSON Pointer from the
 * document root, and the resource its `#...` references resolve against (the nearest enclosing
 * schema with a `$id`, or the root).
 */
export interface SchemaLoc {
  readonly schema: unknown
  readonly pointer: string
  readonly base: SchemaResource
}

/** A schema resource: the root or a subschema with a `$id`. */
export interface SchemaResource {
  readonly schema: unknown
  readonly pointer: string
}

/** The outcome of resolving a `$ref`. */
export type RefResolution = { ok: true; loc: SchemaLoc } | { ok: false; message: string }

/** Keywords whose value is one subschema. */
const SCHEMA_KEYWORDS = [
  'additionalProperties', 'additionalItems', 'items', 'contains', 'propertyNames', 'not', 'if', 'then', 'else',
  'unevaluatedItems', 'unevaluatedProperties', 'contentSchema',
]
/** Keywords whose value is a map of subschemas. */
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items']

/** True for a schema object (not an array, not null). */
export function isSchemaObject(value: unknown): value is { readonly [keyword: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A `$id` that starts a new resource (not a plain-name fragment like `#foo`). */
function resourceId(schema: unknown): string | undefined {
  if (!isSchemaObject(schema)) return undefined
  const id = schema.$id
  if (typeof id !== 'string' || id === '' || id.startsWith('#')) return undefined
  return id.endsWith('#') ? id.slice(0, -1) : id
}

/** Appends one reference token to a pointer (most tokens need no escaping: skip the regexes). */
function appendToken(pointer: string, token: string | number): string {
  if (typeof token === 'number' || (token.indexOf('~') === -1 && token.indexOf('/') === -1)) return pointer + '/' + token
  return pointer + '/' + escapePointerToken(token)
}

/**
 * One schema document (the compact or the full schema) with its `$id` index, so `$ref`s resolve
 * the way TypeBox emits them: `#/$defs/Node` (a JSON Pointer fragment, resolved against the
 * enclosing resource) and `Node` (the `$id` of a subschema, as `Type.Cyclic` emits). IDs are
 * matched as written: relative IDs are not resolved against a base URI, so a name is refused when
 * a subschema below the root sets a URI `$id` of its own, or two subschemas declare it. The `$id` index is built
 * on the first `$ref` that names an `$id` (most schemas have none), and compiled patterns are
 * kept per source, so each is compiled once per document.
 */
export class SchemaDocument {
  #ids: Map<string, SchemaLoc> | undefined
  /** `$id`s declared by more than one subschema: a name that resolves to either is ambiguous. */
  readonly #twice = new Set<string>()
  /** Whether a subschema below the root sets its own base URI. */
  #nestedBase = false
  readonly #root: SchemaLoc
  #patterns: Map<string, RegExp | undefined> | undefined

  constructor(root: unknown) {
    const resource: SchemaResource = { schema: root, pointer: '' }
    this.#root = { schema: root, pointer: '', base: resource }
  }

  /** The `pattern` compiled as ajv does (Unicode mode), once per source; `undefined` if invalid. */
  pattern(source: string): RegExp | undefined {
    const patterns = (this.#patterns ??= new Map())
    if (patterns.has(source)) return patterns.get(source)
    let regex: RegExp | undefined
    try {
      regex = new RegExp(source, 'u')
    } catch {
      regex = undefined
    }
    patterns.set(source, regex)
    return regex
  }

  /** The subschema at `loc` → `keyword` (one token: the common case of {@link child}). */
  at(loc: SchemaLoc, keyword: string): SchemaLoc | undefined {
    const schema = loc.schema
    if (!isSchemaObject(schema) || !Object.hasOwn(schema, keyword)) return undefined
    return this.#at(schema[keyword], appendToken(loc.pointer, keyword), loc.base)
  }

  /** The subschema at `loc` → `keyword` → `name` (a map entry or list index). */
  entry(loc: SchemaLoc, keyword: string, name: string | number): SchemaLoc | undefined {
    const schema = loc.schema
    if (!isSchemaObject(schema) || !Object.hasOwn(schema, keyword)) return undefined
    const container = schema[keyword]
    let value: unknown
    if (Array.isArray(container) && typeof name === 'number') value = container[name]
    else if (isSchemaObject(container) && Object.hasOwn(container, name)) value = container[name]
    else return undefined
    return this.#at(value, appendToken(appendToken(loc.pointer, keyword), name), loc.base)
  }

  /** The document root. */
  get root(): SchemaLoc {
    return this.#root
  }

  /** The subschema at `loc` → `tokens` (a keyword, then a name or index for maps and lists). */
  child(loc: SchemaLoc, ...tokens: Array<string | number>): SchemaLoc | undefined {
    let value: unknown = loc.schema
    let pointer = loc.pointer
    for (const token of tokens) {
      if (Array.isArray(value) && typeof token === 'number') value = value[token]
      else if (isSchemaObject(value) && Object.hasOwn(value, token)) value = value[token]
      else return undefined
      pointer = appendToken(pointer, token)
    }
    return this.#at(value, pointer, loc.base)
  }

  /** Resolves the `$ref` of the schema at `loc`. */
  resolveRef(loc: SchemaLoc): RefResolution {
    const ref = isSchemaObject(loc.schema) ? loc.schema.$ref : undefined
    if (typeof ref !== 'string') return { ok: false, message: '"$ref" must be a string' }
    const hash = ref.indexOf('#')
    const id = hash === -1 ? ref : ref.slice(0, hash)
    const fragment = hash === -1 ? '' : ref.slice(hash + 1)
    let resource: SchemaLoc
    if (id === '') {
      resource = this.#at(loc.base.schema, loc.base.pointer, loc.base)
    } else {
      if (this.#ids === undefined) {
        this.#ids = new Map()
        this.#index(this.#root, new Set())
      }
      if (this.#nestedBase) {
        return { ok: false, message: `"$ref" "${ref}" names an "$id" in a schema where a subschema sets its own base URI; resolving it needs base-URI resolution, which the proof does not do (use "#/$defs/...")` }
      }
      if (this.#twice.has(id)) return { ok: false, message: `"$ref" "${ref}" names an "$id" that two subschemas declare` }
      const found = this.#ids.get(id)
      if (found === undefined) return { ok: false, message: `"$ref" "${ref}" names no "$id" in this schema` }
      resource = found
    }
    if (fragment === '') return { ok: true, loc: resource }
    if (!fragment.startsWith('/')) return { ok: false, message: `"$ref" "${ref}" uses an anchor; only JSON Pointer fragments and "$id"s are supported` }
    let tokens: string[]
    try {
      tokens = parsePointer(decodeURIComponent(fragment))
    } catch {
      return { ok: false, message: `"$ref" "${ref}" is not a valid URI fragment` }
    }
    let value: unknown = resource.schema
    let pointer = resource.pointer
    let base = resource.base
    for (const token of tokens) {
      if (Array.isArray(value) && /^(0|[1-9][0-9]*)$/.test(token)) value = value[Number(token)]
      else if (isSchemaObject(value) && Object.hasOwn(value, token)) value = value[token]
      else return { ok: false, message: `"$ref" "${ref}" points at nothing` }
      pointer = appendPointer(pointer, token)
      if (resourceId(value) !== undefined) base = { schema: value, pointer }
    }
    if (value === undefined) return { ok: false, message: `"$ref" "${ref}" points at nothing` }
    return { ok: true, loc: { schema: value, pointer, base } }
  }

  #at(schema: unknown, pointer: string, base: SchemaResource): SchemaLoc {
    return { schema, pointer, base: resourceId(schema) !== undefined && pointer !== base.pointer ? { schema, pointer } : base }
  }

  #index(loc: SchemaLoc, seen: Set<unknown>): void {
    const schema = loc.schema
    if (!isSchemaObject(schema) || seen.has(schema)) return
    seen.add(schema)
    const id = resourceId(schema)
    if (id !== undefined) {
      if (this.#ids!.has(id)) this.#twice.add(id)
      else this.#ids!.set(id, loc)
      // A subschema below the root whose "$id" is a URI (not a plain name like TypeBox's "Node")
      // changes the base that names resolve against.
      if (loc.pointer !== '' && (id.includes(':') || id.includes('/'))) this.#nestedBase = true
    }
    for (const keyword of SCHEMA_KEYWORDS) {
      if (isSchemaObject(schema[keyword])) this.#index(this.child(loc, keyword)!, seen)
    }
    for (const keyword of SCHEMA_MAP_KEYWORDS) {
      const map = schema[keyword]
      if (!isSchemaObject(map)) continue
      for (const name of Object.keys(map)) this.#index(this.child(loc, keyword, name)!, seen)
    }
    for (const keyword of SCHEMA_LIST_KEYWORDS) {
      const list = schema[keyword]
      if (!Array.isArray(list)) continue
      for (let i = 0; i < list.length; i++) this.#index(this.child(loc, keyword, i)!, seen)
    }
  }
}
