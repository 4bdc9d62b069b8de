import type { JsonSchema } from 'result-views'
import { isRecord } from '../json/guards.js'
import { unescapePointerToken } from '../json/pointer.js'

/**
 * Which JSON Schema rule resolved a path segment (several, outermost first, when a segment goes
 * through a `$ref`, a union, ...):
 * - `properties`, `patternProperties`, `additionalProperties`: an object member;
 * - `items`, `prefixItems`, `additionalItems`: an array element (numeric segments only);
 * - `nullable`: a union of one schema with `null` (`anyOf`/`oneOf` with a `{type:'null'}` branch,
 *   `type: [..., 'null']`, OpenAPI `nullable: true`);
 * - `anyOf`, `oneOf`, `allOf`: a combinator;
 * - `$ref`: a reference (`#/$defs/X`, `#/definitions/X`, `#`, or an `$id` such as TypeBox
 *   `Cyclic`'s `{"$ref":"Node"}`).
 */
export type PathRule =
  | 'properties'
  | 'patternProperties'
  | 'additionalProperties'
  | 'items'
  | 'prefixItems'
  | 'additionalItems'
  | 'nullable'
  | 'anyOf'
  | 'oneOf'
  | 'allOf'
  | '$ref'

/**
 * Why a segment could not be proven (the schema is open there, `docs/loops.md` "What a reference is
 * checked against"):
 * - `additional_properties`: an object that allows members it does not list;
 * - `pattern_properties`: the member is matched by `patternProperties`, not listed;
 * - `object_without_properties`: `{ type: 'object' }` with no listed members;
 * - `additional_items`: an index past a tuple's listed items, not constrained;
 * - `empty_schema`: a schema that accepts any value (`{}`, `true`, annotations only);
 * - `unresolved_ref`: a `$ref` this resolver cannot follow.
 */
export type OpenReason =
  | 'additional_properties'
  | 'pattern_properties'
  | 'object_without_properties'
  | 'additional_items'
  | 'empty_schema'
  | 'unresolved_ref'

/** How one segment was resolved: the rules used and, when the schema is open there, why. */
export interface PathStep {
/** The path segment (a property name, or digits for an array index). */
  readonly segment: string
/** The schema keywords that admitted it, in the order they were followed. */
  readonly rules: readonly PathRule[]
/** Why it could not be proven, when the schema is open there. */
  readonly open?: OpenReason
}

/**
 * The answer of {@link resolveSchemaPath}:
 * - `resolved`: every segment is listed by the schema (in at least one union branch);
 * - `open`: the path is allowed but goes through an open part (`open_at` is the index of the first
 *   open segment): it cannot be proven; `available` lists (sorted) the members listed where it
 *   leaves what the schema lists (a near one may be what was meant);
 * - `missing`: the schema rules the path out at segment `missing_at`. `steps` are the resolved
 *   segments before it; `available` lists (sorted) the members listed there; `accepts_index` says
 *   an array is there (read it with a numeric segment).
 */
export type SchemaPathResolution =
  | { readonly status: 'resolved'; readonly steps: readonly PathStep[] }
  | { readonly status: 'open'; readonly steps: readonly PathStep[]; readonly open_at: number; readonly reason: OpenReason; readonly available: readonly string[] }
  | {
      readonly status: 'missing'
      readonly steps: readonly PathStep[]
      readonly missing_at: number
      readonly available: readonly string[]
      readonly accepts_index: boolean
    }

/** Most alternatives (union branches) followed at once; more are dropped, keeping proven ones first. */
const MAX_ALTERNATIVES = 64

/** Object keywords that make a schema without `type` an object schema. */
const OBJECT_KEYWORDS = ['properties', 'patternProperties', 'additionalProperties', 'required', 'unevaluatedProperties']
/** Array keywords that make a schema without `type` an array schema. */
const ARRAY_KEYWORDS = ['items', 'prefixItems', 'additionalItems']
/** Keywords that combine or reference other schemas. */
const APPLICATORS = ['$ref', 'anyOf', 'oneOf', 'allOf']
/** Keywords that constrain a value (anything else is an annotation or a definition container). */
const CONSTRAINTS = ['type', 'enum', 'const', 'nullable', ...OBJECT_KEYWORDS, ...ARRAY_KEYWORDS]

const INDEX = /^(0|[1-9][0-9]*)$/

/** One way a segment can be resolved. */
interface Alternative {
  readonly schema: unknown
  readonly rules: readonly PathRule[]
  readonly open?: OpenReason
}

/** What the schemas a segment is looked up in list there. */
interface MissingInfo {
  /** Members listed by the schemas that rule the segment out (closed objects). */
  readonly fields: Set<string>
  /** Members listed by every object schema the segment is looked up in, open ones included. */
  readonly listed: Set<string>
  acceptsIndex: boolean
}

/** The document a path is resolved in: its root (for `#` refs) and its `$id`s. */
interface Context {
  readonly root: unknown
  readonly ids: ReadonlyMap<string, unknown>
}

/** A path position being followed: the schema and, once the path went through an open part, where. */
interface Candidate {
  readonly schema: unknown
  readonly open: { readonly at: number; readonly reason: OpenReason } | undefined
}

/**
 * Resolves an instance path (`['session', 'lineage', 'permission_policy', 'tools']`, numeric
 * segments index arrays) in a JSON Schema, saying which rule resolved each segment.
 * Handles `properties`, `patternProperties`, `additionalProperties`, arrays (`items`,
 * `prefixItems`, draft-07 tuples with `additionalItems`), nullable unions, `anyOf`/`oneOf`/`allOf`,
 * `type` arrays, and `$ref` to `#…` pointers or `$id`s (TypeBox `Cyclic`:
 * `{"$defs":{"Node":{…,"$id":"Node"}},"$ref":"Node"}`), recursive ones included.
 * A union resolves a segment when any branch does; an `allOf` rules a segment out when any member
 * does (a closed member forbids what it does not list).
 *
 * @param schema - a JSON Schema object (a TypeBox schema works: only its plain JSON keys are read), or a
 *   boolean schema.
 * @param path - the segments, e.g. from `'session.id'.split('.')`.
 */
export function resolveSchemaPath(schema: JsonSchema | object | boolean, path: readonly string[]): SchemaPathResolution {
  const context: Context = { root: schema, ids: collectIds(schema) }
  let candidates: Candidate[] = [{ schema, open: undefined }]
  const steps: PathStep[] = []
  const listed: ReadonlySet<string>[] = []
  for (const [at, segment] of path.entries()) {
    const missing: MissingInfo = { fields: new Set(), listed: new Set(), acceptsIndex: false }
    listed.push(missing.listed)
    const next: Array<Candidate & { readonly alternative: Alternative }> = []
    for (const candidate of candidates) {
      for (const alternative of step(candidate.schema, segment, context, new Set(), missing)) {
        const open = candidate.open ?? (alternative.open === undefined ? undefined : { at, reason: alternative.open })
        next.push({ schema: alternative.schema, open, alternative })
      }
    }
    if (next.length === 0) {
      return { status: 'missing', steps, missing_at: at, available: [...missing.fields].sort(), accepts_index: missing.acceptsIndex }
    }
    next.sort((a, b) => Number(a.open !== undefined) - Number(b.open !== undefined))
    const best = next[0]!
    steps.push(best.alternative.open === undefined ? { segment, rules: best.alternative.rules } : { segment, rules: best.alternative.rules, open: best.alternative.open })
    candidates = dedupe(next).slice(0, MAX_ALTERNATIVES)
  }
  const proven = candidates.find((candidate) => candidate.open === undefined)
  if (proven !== undefined) return { status: 'resolved', steps }
  const open = candidates[0]!.open!
  return { status: 'open', steps, open_at: open.at, reason: open.reason, available: [...listed[open.at]!].sort() }
}

/** The ways `segment` can be read from a value valid against `schema`; `[]` when none. */
function step(schema: unknown, segment: string, context: Context, refs: Set<unknown>, missing: MissingInfo): Alternative[] {
  if (schema === true) return [{ schema: true, rules: [], open: 'empty_schema' }]
  if (!isRecord(schema)) return []
  const parts = conjuncts(schema)
  if (parts.length === 0) return [{ schema: true, rules: [], open: 'empty_schema' }]
  if (parts.length === 1) return stepPart(parts[0]!, segment, context, refs, missing)
  return stepAll(parts, segment, context, refs, missing, [])
}

/**
 * The parts a schema is the conjunction of: its own constraints (if any), its `$ref`, each of
 * `anyOf` / `oneOf`, and its `allOf` members.
 */
function conjuncts(schema: Record<string, unknown>): Array<Record<string, unknown>> {
  const parts: Array<Record<string, unknown>> = []
  if (CONSTRAINTS.some((key) => has(schema, key))) {
    const own: Record<string, unknown> = {}
    for (const key of Object.keys(schema)) if (!APPLICATORS.includes(key)) own[key] = schema[key]
    parts.push(own)
  }
  if (typeof schema.$ref === 'string') parts.push({ $ref: schema.$ref })
  if (Array.isArray(schema.anyOf)) parts.push({ anyOf: schema.anyOf })
  if (Array.isArray(schema.oneOf)) parts.push({ oneOf: schema.oneOf })
  if (Array.isArray(schema.allOf)) parts.push({ allOf: schema.allOf })
  return parts
}

/** One conjunct: a `$ref`, a union, an `allOf`, or plain constraints. */
function stepPart(part: Record<string, unknown>, segment: string, context: Context, refs: Set<unknown>, missing: MissingInfo): Alternative[] {
  if (typeof part.$ref === 'string') return stepRef(part.$ref, segment, context, refs, missing)
  if (Array.isArray(part.anyOf)) return stepUnion(part.anyOf, 'anyOf', segment, context, refs, missing)
  if (Array.isArray(part.oneOf)) return stepUnion(part.oneOf, 'oneOf', segment, context, refs, missing)
  if (Array.isArray(part.allOf)) {
    const members = part.allOf.filter((member) => member !== true && !(isRecord(member) && conjuncts(member).length === 0))
    if (members.length === 0) return [{ schema: true, rules: ['allOf'], open: 'empty_schema' }]
    return stepAll(members, segment, context, refs, missing, ['allOf'])
  }
  return stepConstraints(part, segment, missing)
}

function stepRef(ref: string, segment: string, context: Context, refs: Set<unknown>, missing: MissingInfo): Alternative[] {
  const target = resolveRef(ref, context)
  if (target === undefined) return [{ schema: true, rules: ['$ref'], open: 'unresolved_ref' }]
  // A reference back to a schema already entered for this segment adds nothing (recursion).
  if (refs.has(target)) return []
  const inner = new Set(refs).add(target)
  return prefix('$ref', step(target, segment, context, inner, missing))
}

function stepUnion(branches: unknown[], rule: 'anyOf' | 'oneOf', segment: string, context: Context, refs: Set<unknown>, missing: MissingInfo): Alternative[] {
  const nonNull = branches.filter((branch) => !isNullSchema(branch))
  const label: PathRule = nonNull.length === 1 && nonNull.length < branches.length ? 'nullable' : rule
  return prefix(label, nonNull.flatMap((branch) => step(branch, segment, context, refs, missing)))
}

/**
 * A conjunction: ruled out when any member rules the segment out; otherwise proven when any member
 * lists it. The value then has to satisfy what every member says there.
 */
function stepAll(members: unknown[], segment: string, context: Context, refs: Set<unknown>, missing: MissingInfo, rules: PathRule[]): Alternative[] {
  const results = members.map((member) => step(member, segment, context, refs, missing))
  if (results.some((alternatives) => alternatives.length === 0)) return []
  const lead = results.map((alternatives) => alternatives.find((a) => a.open === undefined)).find((a) => a !== undefined)
  const schemas = results.map((alternatives) => (alternatives.length === 1 ? alternatives[0]!.schema : { anyOf: alternatives.map((a) => a.schema) }))
  const schema = schemas.length === 1 ? schemas[0] : { allOf: schemas }
  if (lead !== undefined) return [{ schema, rules: [...rules, ...lead.rules] }]
  const first = results[0]![0]!
  return [{ schema, rules: [...rules, ...first.rules], open: first.open ?? 'empty_schema' }]
}

/** Plain constraints: `type` (or the keywords that imply it), object and array members. */
function stepConstraints(schema: Record<string, unknown>, segment: string, missing: MissingInfo): Alternative[] {
  const types = typesOf(schema)
  const nullable = schema.nullable === true || (types !== undefined && types.includes('null') && types.length > 1)
  const alternatives: Alternative[] = []
  const objectish = types === undefined ? OBJECT_KEYWORDS.some((key) => has(schema, key)) : types.includes('object')
  const arrayish = types === undefined ? ARRAY_KEYWORDS.some((key) => has(schema, key)) : types.includes('array')
  if (objectish) alternatives.push(...stepObject(schema, segment, missing))
  if (arrayish) alternatives.push(...stepArray(schema, segment, missing))
  if (types === undefined && !objectish && !arrayish && acceptsAnyValue(schema)) {
    alternatives.push({ schema: true, rules: [], open: 'empty_schema' })
  }
  return nullable ? prefix('nullable', alternatives) : alternatives
}

function stepObject(schema: Record<string, unknown>, segment: string, missing: MissingInfo): Alternative[] {
  const properties = isRecord(schema.properties) ? schema.properties : {}
  if (has(properties, segment)) return [{ schema: properties[segment], rules: ['properties'] }]
  for (const key of Object.keys(properties)) missing.listed.add(key)
  if (isRecord(schema.patternProperties)) {
    for (const pattern of Object.keys(schema.patternProperties)) {
      if (matches(pattern, segment)) return [{ schema: schema.patternProperties[pattern], rules: ['patternProperties'], open: 'pattern_properties' }]
    }
  }
  const additional = has(schema, 'additionalProperties') ? schema.additionalProperties : schema.unevaluatedProperties
  if (additional === false) {
    for (const key of Object.keys(properties)) missing.fields.add(key)
    return []
  }
  if (isRecord(additional)) return [{ schema: additional, rules: ['additionalProperties'], open: 'additional_properties' }]
  const listsMembers = Object.keys(properties).length > 0 || isRecord(schema.patternProperties)
  return listsMembers
    ? [{ schema: true, rules: ['additionalProperties'], open: 'additional_properties' }]
    : [{ schema: true, rules: [], open: 'object_without_properties' }]
}

function stepArray(schema: Record<string, unknown>, segment: string, missing: MissingInfo): Alternative[] {
  if (!INDEX.test(segment)) {
    missing.acceptsIndex = true
    return []
  }
  const index = Number(segment)
  const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined
  if (tuple === undefined) {
    if (schema.items === false) return noIndex(missing)
    if (isRecord(schema.items)) return [{ schema: schema.items, rules: ['items'] }]
    return [{ schema: true, rules: ['items'], open: 'empty_schema' }]
  }
  const tupleRule: PathRule = Array.isArray(schema.prefixItems) ? 'prefixItems' : 'items'
  if (index < tuple.length) return [{ schema: tuple[index], rules: [tupleRule] }]
  const restRule: PathRule = tupleRule === 'prefixItems' ? 'items' : 'additionalItems'
  const rest = tupleRule === 'prefixItems' ? schema.items : schema.additionalItems
  if (rest === false) return noIndex(missing)
  if (isRecord(rest)) return [{ schema: rest, rules: [restRule] }]
  return [{ schema: true, rules: [restRule], open: 'additional_items' }]
}

function noIndex(missing: MissingInfo): Alternative[] {
  missing.acceptsIndex = true
  return []
}

/** A schema with no `type` and no object/array keywords: anything unless `enum`/`const` rule objects out. */
function acceptsAnyValue(schema: Record<string, unknown>): boolean {
  const values = has(schema, 'const') ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined
  return values === undefined || values.some((value) => typeof value === 'object' && value !== null)
}

function typesOf(schema: Record<string, unknown>): string[] | undefined {
  if (typeof schema.type === 'string') return [schema.type]
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === 'string')
  return undefined
}

function isNullSchema(schema: unknown): boolean {
  return isRecord(schema) && (schema.type === 'null' || (has(schema, 'const') && schema.const === null && schema.type === undefined))
}

function prefix(rule: PathRule, alternatives: Alternative[]): Alternative[] {
  return alternatives.map((a) => (a.open === undefined ? { schema: a.schema, rules: [rule, ...a.rules] } : { schema: a.schema, rules: [rule, ...a.rules], open: a.open }))
}

/** Candidates with distinct schemas, keeping the first (proven ones come first). */
function dedupe(candidates: Candidate[]): Candidate[] {
  const seen = new Set<unknown>()
  const out: Candidate[] = []
  for (const candidate of candidates) {
    if (seen.has(candidate.schema)) continue
    seen.add(candidate.schema)
    out.push({ schema: candidate.schema, open: candidate.open })
  }
  return out
}

/** Follows a `$ref`: `#`, `#/json/pointer`, an `$id`, or `<$id>#/pointer`. `undefined` when it cannot. */
function resolveRef(ref: string, context: Context): unknown {
  const hash = ref.indexOf('#')
  const base = hash === -1 ? ref : ref.slice(0, hash)
  const fragment = hash === -1 ? '' : ref.slice(hash + 1)
  const document = base === '' ? context.root : context.ids.get(base)
  if (document === undefined) return undefined
  if (fragment === '') return document
  if (!fragment.startsWith('/')) return context.ids.get(fragment)
  let node: unknown = document
  for (const raw of fragment.slice(1).split('/')) {
    const token = decodeToken(raw)
    if (token === undefined || !isRecord(node) && !Array.isArray(node)) return undefined
    const container = node as Record<string, unknown>
    if (!has(container, token)) return undefined
    node = container[token]
  }
  return node
}

function decodeToken(raw: string): string | undefined {
  try {
    return unescapePointerToken(decodeURIComponent(raw))
  } catch {
    return undefined
  }
}

const idCache = new WeakMap<object, ReadonlyMap<string, unknown>>()

/** Every `$id` in the document (and `#anchor`-less plain names, as TypeBox uses them), mapped to its schema. */
function collectIds(root: unknown): ReadonlyMap<string, unknown> {
  if (!isRecord(root)) return new Map()
  const cached = idCache.get(root)
  if (cached !== undefined) return cached
  const ids = new Map<string, unknown>()
  const seen = new Set<unknown>()
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return
    seen.add(node)
    if (!Array.isArray(node) && typeof (node as Record<string, unknown>).$id === 'string') {
      const id = (node as Record<string, unknown>).$id as string
      if (!ids.has(id)) ids.set(id, node)
    }
    for (const child of Object.values(node)) visit(child)
  }
  visit(root)
  idCache.set(root, ids)
  return ids
}

function matches(pattern: string, key: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(key)
  } catch {
    return false
  }
}

function has(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key)
}
