// Random compact/full schema pairs for the view proof's property tests.
//
// A full schema is generated as a small tree of nodes, then a compact one is derived from it:
// mostly by moves that keep it a subset (drop a property, widen a type, add null, grow an enum,
// loosen a bound, use `{}`), and now and then by a move that may break it (narrow a type, add a
// property the full view lacks, require an optional one, drop the null, untag a union, ...).
// Both are rendered to plain JSON Schema, with `$ref`/`$defs` indirections and recursive trees:
// trees whose children are an array of their own schema, and expression trees, recursive tagged
// unions referenced through a property (`arg: Expr | null`) or the items (`args: (Expr | null)[]`)
// of their own branch. `validSubsetPairArb` derives by the subset-keeping moves only.
import fc from 'fast-check'
import type { JsonSchema } from 'result-views'

type Scalar = string | number | boolean

/** A schema as the generator thinks of it. */
export type SchemaNode =
  | { k: 'string'; minLength?: number; maxLength?: number; pattern?: string; notConst?: string }
  | { k: 'integer'; minimum?: number; maximum?: number; format?: 'int32' }
  | { k: 'number'; minimum?: number; maximum?: number; exclusiveMaximum?: number; format?: 'int32' }
  | { k: 'boolean' }
  | { k: 'null' }
  | { k: 'literal'; value: Scalar }
  | { k: 'enum'; values: Scalar[] }
  | { k: 'nullable'; inner: SchemaNode; typeList: boolean }
  | { k: 'object'; props: Prop[]; open: boolean; viaRef: boolean }
  | { k: 'array'; items: SchemaNode; minItems?: number; maxItems?: number }
  | { k: 'tuple'; items: SchemaNode[] }
  | { k: 'tagged'; branches: Array<{ tag: string; props: Prop[] }> }
  | { k: 'scalars'; members: SchemaNode[]; oneOf?: boolean }
  | { k: 'record'; value: SchemaNode }
  | { k: 'tree'; extra: Prop[]; idType: 'string' | 'integer' }
  | { k: 'expr'; through: 'property' | 'items'; nullable: boolean; value: SchemaNode; extra: Prop[]; open: boolean }
  | { k: 'any' }

/** One declared property. */
export interface Prop {
  key: string
  node: SchemaNode
  required: boolean
}

/** A generated pair, as schemas and as the trees they were rendered from. */
export interface SchemaPair {
  compact: JsonSchema
  full: JsonSchema
  compactNode: SchemaNode
  fullNode: SchemaNode
}

// Includes keys that are hostile as object keys; `__proto__` is exercised by the value generator's extra keys.
const KEYS = ['id', 'name', 'state', 'count', 'items', 'constructor', 'prototype', 'toString', 'a/b', 'x~y']
const TAGS = ['alpha', 'beta', 'gamma', 'delta']
const PATTERNS = ['^[a-z]*$', '^s-']

const literalArb: fc.Arbitrary<Scalar> = fc.oneof(fc.constantFrom('a', 'b', 'c', 'on', 'off'), fc.integer({ min: -3, max: 3 }), fc.boolean())

const scalarArb: fc.Arbitrary<SchemaNode> = fc.oneof(
  fc.record({ k: fc.constant('string' as const), minLength: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }), maxLength: fc.option(fc.integer({ min: 4, max: 8 }), { nil: undefined }), pattern: fc.option(fc.constantFrom(...PATTERNS), { nil: undefined, freq: 4 }) }, { requiredKeys: ['k'] }),
  fc.record({ k: fc.constant('integer' as const), minimum: fc.option(fc.integer({ min: -5, max: 0 }), { nil: undefined }), maximum: fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }) }, { requiredKeys: ['k'] }),
  fc.record({ k: fc.constant('number' as const), minimum: fc.option(fc.constantFrom(-1.5, 0), { nil: undefined }), exclusiveMaximum: fc.option(fc.constantFrom(10, 99.5), { nil: undefined }) }, { requiredKeys: ['k'] }),
  fc.constant<SchemaNode>({ k: 'boolean' }),
  fc.constant<SchemaNode>({ k: 'null' }),
  literalArb.map((value): SchemaNode => ({ k: 'literal', value })),
  fc.uniqueArray(fc.constantFrom<Scalar>('a', 'b', 'c', 1, 2), { minLength: 1, maxLength: 4 }).map((values): SchemaNode => ({ k: 'enum', values })),
)

const propsArb = (node: fc.Arbitrary<SchemaNode>, maxLength = 4): fc.Arbitrary<Prop[]> =>
  fc.uniqueArray(fc.record({ key: fc.constantFrom(...KEYS), node, required: fc.boolean() }), { selector: (p) => p.key, maxLength })

/** A full schema tree. */
export const fullNodeArb: fc.Arbitrary<SchemaNode> = fc.letrec<{ node: SchemaNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalarArb,
    fc.record({ k: fc.constant('nullable' as const), inner: tie('node'), typeList: fc.boolean() }) as fc.Arbitrary<SchemaNode>,
    fc.record({ k: fc.constant('object' as const), props: propsArb(tie('node')), open: fc.boolean(), viaRef: fc.boolean() }),
    fc.record({ k: fc.constant('array' as const), items: tie('node'), minItems: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }), maxItems: fc.option(fc.integer({ min: 2, max: 4 }), { nil: undefined }) }, { requiredKeys: ['k', 'items'] }),
    fc.record({ k: fc.constant('tuple' as const), items: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    fc.record({
      k: fc.constant('tagged' as const),
      branches: fc.uniqueArray(fc.record({ tag: fc.constantFrom(...TAGS), props: propsArb(tie('node'), 3) }), { selector: (b) => b.tag, minLength: 2, maxLength: 3 }),
    }),
    fc.uniqueArray(scalarArb, { selector: (n) => n.k, minLength: 2, maxLength: 3 }).map((members): SchemaNode => ({ k: 'scalars', members })),
    fc.record({ k: fc.constant('record' as const), value: tie('node') }),
    fc.record({ k: fc.constant('tree' as const), extra: propsArb(scalarArb, 2), idType: fc.constantFrom('string' as const, 'integer' as const) }),
    fc.record({
      k: fc.constant('expr' as const), through: fc.constantFrom('property' as const, 'items' as const), nullable: fc.boolean(),
      value: scalarArb, extra: propsArb(scalarArb, 2), open: fc.boolean(),
    }),
    fc.constant<SchemaNode>({ k: 'any' }),
  ),
})).node.filter((node) => node.k !== 'any')

/** Chance, out of 100, that one derivation step may break the subset relation. */
const BREAK = 6

/**
 * A compact schema tree derived from a full one; `breakChance` (out of 100, per step) is the
 * chance of a move that may break the subset relation, 0 for subset-keeping moves only.
 */
export function deriveCompact(full: SchemaNode, breakChance = BREAK): fc.Arbitrary<SchemaNode> {
  const derive = (node: SchemaNode): fc.Arbitrary<SchemaNode> => deriveCompact(node, breakChance)
  return fc.integer({ min: 0, max: 99 }).chain((roll): fc.Arbitrary<SchemaNode> => {
    if (roll < breakChance) return breakNode(full, derive)
    const step = roll - breakChance
    if (step < 4 && full.k !== 'tree' && full.k !== 'expr') return fc.constant<SchemaNode>({ k: 'any' })
    if (step < 8 && full.k !== 'nullable' && full.k !== 'any') {
      return derive(full).map((inner): SchemaNode => ({ k: 'nullable', inner, typeList: false }))
    }
    return widen(full, derive, breakChance)
  })
}

function widen(full: SchemaNode, deriveCompact: (node: SchemaNode) => fc.Arbitrary<SchemaNode>, breakChance: number): fc.Arbitrary<SchemaNode> {
  const deriveProps = (props: readonly Prop[]) => derivePropsWith(props, deriveCompact, breakChance)
  switch (full.k) {
    case 'string':
      return fc.constantFrom<SchemaNode>(full, { k: 'string' }, { ...full, minLength: undefined }, { ...full, pattern: undefined })
    case 'integer':
      return fc.constantFrom<SchemaNode>(full, { k: 'number' }, { k: 'integer', minimum: full.minimum }, { k: 'number', maximum: full.maximum })
    case 'number':
      return fc.constantFrom<SchemaNode>(full, { k: 'number' })
    case 'literal':
      return fc.constantFrom<SchemaNode>(full, { k: 'enum', values: [full.value, 'zz'] }, { k: typeof full.value === 'number' ? 'number' : typeof full.value === 'boolean' ? 'boolean' : 'string' } as SchemaNode)
    case 'enum':
      return fc.constantFrom<SchemaNode>(full, { k: 'enum', values: [...full.values, 'zz'] })
    case 'boolean':
    case 'null':
    case 'any':
      return fc.constant(full)
    case 'nullable':
      return deriveCompact(full.inner).map((inner): SchemaNode => ({ ...full, inner }))
    case 'object':
      return fc.tuple(deriveProps(full.props), fc.boolean(), fc.boolean()).map(([props, open, viaRef]): SchemaNode => ({ k: 'object', props, open, viaRef }))
    case 'array':
      return deriveCompact(full.items).map((items): SchemaNode => ({ k: 'array', items, minItems: full.minItems === undefined ? undefined : 0 }))
    case 'tuple':
      return fc.tuple(...full.items.map(deriveCompact)).map((items): SchemaNode => ({ k: 'tuple', items }))
    case 'tagged':
      return fc.tuple(...full.branches.map((b) => deriveProps(b.props).map((props) => ({ tag: b.tag, props })))).map((branches): SchemaNode => ({ k: 'tagged', branches }))
    case 'scalars':
      return fc.tuple(...full.members.map(deriveCompact)).map((members): SchemaNode => ({ k: 'scalars', members }))
    case 'record':
      return deriveCompact(full.value).map((value): SchemaNode => ({ k: 'record', value }))
    case 'tree':
      return deriveProps(full.extra).map((extra): SchemaNode => ({ k: 'tree', extra, idType: full.idType }))
    case 'expr':
      // The recursion keeps its shape (a required `Expr | null`, or an optional `Expr`: either
      // change would narrow it); the leaf and the other fields widen.
      return fc.tuple(deriveCompact(full.value), deriveProps(full.extra), fc.boolean())
        .map(([value, extra, open]): SchemaNode => ({ ...full, value: value.k === 'any' ? full.value : value, extra, open }))
  }
}

function derivePropsWith(props: readonly Prop[], deriveCompact: (node: SchemaNode) => fc.Arbitrary<SchemaNode>, breakChance: number): fc.Arbitrary<Prop[]> {
  const kept = props.map((p) =>
    fc.tuple(fc.integer({ min: 0, max: 99 }), deriveCompact(p.node)).map(([roll, node]): Prop | undefined => {
      if (roll < 25) return undefined
      if (roll < breakChance + 25 && !p.required) return { key: p.key, node, required: true }
      return { key: p.key, node, required: p.required && roll % 3 !== 0 }
    }),
  )
  return fc.tuple(fc.tuple(...kept), fc.integer({ min: 0, max: 99 })).map(([list, roll]) => {
    const out = list.filter((p): p is Prop => p !== undefined)
    if (roll < breakChance) {
      const free = KEYS.find((key) => !props.some((p) => p.key === key))
      if (free !== undefined) out.push({ key: free, node: { k: 'string' }, required: false })
    }
    return out
  })
}

/** A derivation step that may break the subset relation. */
function breakNode(full: SchemaNode, deriveCompact: (node: SchemaNode) => fc.Arbitrary<SchemaNode>): fc.Arbitrary<SchemaNode> {
  switch (full.k) {
    case 'number':
      // A numeric format binds numbers as a bound does (the judge uses ajv-formats).
      return fc.constantFrom<SchemaNode>({ k: 'integer' }, { k: 'number', format: 'int32' })
    case 'string':
      // `not` inside a string may land in a union branch (through the nullable wrapper).
      return fc.constantFrom<SchemaNode>({ k: 'string', minLength: (full.minLength ?? 0) + 2 }, { k: 'string', pattern: '^[a-z]*$' }, { k: 'integer' }, { k: 'string', notConst: 'a' })
    case 'integer':
      return fc.constantFrom<SchemaNode>({ k: 'integer', minimum: (full.minimum ?? -10) + 3 }, { k: 'integer', format: 'int32' })
    case 'scalars':
      // oneOf with an unconstrained branch: every value matches it, so none matches exactly one.
      return fc.constantFrom<SchemaNode>({ k: 'scalars', members: [...full.members, { k: 'any' }], oneOf: true }, { k: 'scalars', members: full.members, oneOf: true })
    case 'enum':
      return fc.constant<SchemaNode>({ k: 'enum', values: full.values.slice(1).length > 0 ? full.values.slice(1) : ['zz'] })
    case 'boolean':
      return fc.constant<SchemaNode>({ k: 'literal', value: true })
    case 'nullable':
      return deriveCompact(full.inner)
    case 'tagged':
      return fc.constantFrom<SchemaNode>(
        { k: 'tagged', branches: full.branches.slice(1) },
        { k: 'scalars', members: full.branches.map((b): SchemaNode => ({ k: 'object', props: b.props, open: true, viaRef: false })) },
      )
    case 'array':
      return deriveCompact(full.items).map((items): SchemaNode => ({ k: 'array', items, minItems: (full.minItems ?? 0) + 1 }))
    case 'tree':
      return fc.constant<SchemaNode>({ ...full, idType: full.idType === 'string' ? 'integer' : 'string' })
    case 'expr':
      // Change the recursion (drop the null, or require the child), narrow the leaf, or recurse the other way.
      return fc.constantFrom<SchemaNode>(
        { ...full, nullable: !full.nullable },
        { ...full, value: { k: 'string', minLength: 1 } },
        { ...full, through: full.through === 'property' ? 'items' : 'property' },
      )
    default:
      return fc.constant<SchemaNode>({ k: 'string', minLength: 1 })
  }
}

/** A full schema and a compact one derived from it. */
export const schemaPairArb: fc.Arbitrary<SchemaPair> = fullNodeArb.chain((fullNode) =>
  deriveCompact(fullNode).map((compactNode) => ({ fullNode, compactNode, full: render(fullNode), compact: render(compactNode) })),
)

/** An expression tree at the root or under a property of the root object, and one derived from it. */
export const recursiveUnionPairArb: fc.Arbitrary<SchemaPair> = recursiveUnionPairs(BREAK)

/** {@link recursiveUnionPairArb} with this chance of a breaking move per step (0: subset-keeping moves only). */
export function recursiveUnionPairs(breakChance: number): fc.Arbitrary<SchemaPair> {
  return fc
    .tuple(fullNodeArb, fullNodeArb, fc.boolean())
    .chain(([a, b, nested]) => {
      const leaf = (node: SchemaNode): SchemaNode => (node.k === 'expr' ? node.value : node.k === 'any' ? { k: 'number' } : node)
      return fc.record({
        through: fc.constantFrom('property' as const, 'items' as const), nullable: fc.boolean(), open: fc.boolean(),
        extra: fc.constant<Prop[]>(nested ? [] : [{ key: 'note', node: leaf(b), required: false }]),
      }).map((tree): SchemaNode => {
        const expr: SchemaNode = { k: 'expr', value: leaf(a), ...tree }
        return nested ? { k: 'object', props: [{ key: 'expr', node: expr, required: true }, { key: 'id', node: leaf(b), required: false }], open: false, viaRef: false } : expr
      })
    })
    .chain((fullNode) => deriveCompact(fullNode, breakChance).map((compactNode) => ({ fullNode, compactNode, full: render(fullNode), compact: render(compactNode) })))
}

/** A full schema and a compact one derived from it by subset-keeping moves only. */
export const validSubsetPairArb: fc.Arbitrary<SchemaPair> = fullNodeArb.chain((fullNode) =>
  deriveCompact(fullNode, 0).map((compactNode) => ({ fullNode, compactNode, full: render(fullNode), compact: render(compactNode) })),
)

/** An object with the given own keys, `__proto__` included, as JSON.parse would make it. */
function objectOf(entries: ReadonlyArray<readonly [string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of entries) Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true })
  return out
}

/** Renders a tree to plain JSON Schema; `$defs` collects the indirections and recursive trees. */
export function render(node: SchemaNode): JsonSchema {
  const defs: Array<readonly [string, unknown]> = []
  const root = renderNode(node, defs, true)
  if (defs.length === 0) return root
  return objectOf([...Object.entries(root), ['$defs', objectOf([...(isObject(root.$defs) ? Object.entries(root.$defs) : []), ...defs])]])
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function renderNode(node: SchemaNode, defs: Array<readonly [string, unknown]>, root = false): JsonSchema {
  const sub = (n: SchemaNode) => renderNode(n, defs)
  switch (node.k) {
    case 'string':
      return strip({ type: 'string', minLength: node.minLength, maxLength: node.maxLength, pattern: node.pattern, not: node.notConst === undefined ? undefined : { const: node.notConst } })
    case 'integer':
      return strip({ type: 'integer', minimum: node.minimum, maximum: node.maximum, format: node.format })
    case 'number':
      return strip({ type: 'number', minimum: node.minimum, maximum: node.maximum, exclusiveMaximum: node.exclusiveMaximum, format: node.format })
    case 'boolean':
    case 'null':
      return { type: node.k }
    case 'literal':
      return { type: typeof node.value === 'number' ? 'number' : typeof node.value, const: node.value }
    case 'enum':
      return { enum: node.values }
    case 'any':
      return {}
    case 'nullable': {
      const inner = sub(node.inner)
      if (node.typeList && typeof inner.type === 'string' && inner.type !== 'null' && inner.const === undefined) return { ...inner, type: [inner.type, 'null'] }
      return { anyOf: [inner, { type: 'null' }] }
    }
    case 'object': {
      const schema = objectSchema(node.props, node.open, defs)
      if (!node.viaRef) return schema
      const name = `D${defs.length}`
      defs.push([name, schema])
      return { $ref: `#/$defs/${name}` }
    }
    case 'array':
      return strip({ type: 'array', items: sub(node.items), minItems: node.minItems, maxItems: node.maxItems })
    case 'tuple':
      return { type: 'array', items: node.items.map(sub), additionalItems: false, minItems: node.items.length }
    case 'tagged':
      return {
        anyOf: node.branches.map((b) =>
          objectSchema([{ key: 'kind', node: { k: 'literal', value: b.tag }, required: true }, ...b.props.filter((p) => p.key !== 'kind')], true, defs)),
      }
    case 'scalars':
      return node.oneOf === true ? { oneOf: node.members.map(sub) } : { anyOf: node.members.map(sub) }
    case 'record':
      return { type: 'object', patternProperties: { '^.*$': sub(node.value) } }
    case 'tree': {
      const props: Prop[] = [
        { key: 'id', node: { k: node.idType }, required: true },
        { key: 'children', node: { k: 'any' }, required: true },
        ...node.extra.filter((p) => p.key !== 'id' && p.key !== 'children'),
      ]
      const name = `Tree${defs.length}`
      const ref = root ? name : `#/$defs/${name}`
      const schema = objectSchema(props, true, defs) as Record<string, unknown>
      ;(schema.properties as Record<string, unknown>).children = { type: 'array', items: { $ref: ref }, maxItems: 3 }
      if (root) {
        // TypeBox Cyclic: {"$defs":{"Tree":{...,"$id":"Tree"}},"$ref":"Tree"}.
        defs.push([name, { ...schema, $id: name }])
        return { $ref: name }
      }
      defs.push([name, schema])
      return { $ref: ref }
    }
    case 'expr': {
      const name = `Expr${defs.length}`
      // Reserved now, so that names stay unique while the branches render their own definitions.
      const entry: [string, unknown] = [name, undefined]
      defs.push(entry)
      const ref = { $ref: `#/$defs/${name}` }
      const child = node.nullable ? { anyOf: [ref, { type: 'null' }] } : ref
      const recursive = node.through === 'property'
        ? objectOf([['type', 'object'], ['properties', { op: { type: 'string', const: 'neg' }, arg: child }], ['required', node.nullable ? ['op', 'arg'] : ['op']], ...closed(node.open)])
        : objectOf([['type', 'object'], ['properties', { op: { type: 'string', const: 'sum' }, args: { type: 'array', items: child, maxItems: 3 } }], ['required', ['op', 'args']], ...closed(node.open)])
      const literal = objectSchema([
        { key: 'op', node: { k: 'literal', value: 'lit' }, required: true },
        { key: 'value', node: node.value, required: true },
        ...node.extra.filter((p) => p.key !== 'op' && p.key !== 'value'),
      ], node.open, defs)
      entry[1] = { anyOf: [recursive, literal] }
      return ref
    }
  }
}

function closed(open: boolean): Array<readonly [string, unknown]> {
  return open ? [] : [['additionalProperties', false]]
}

function objectSchema(props: readonly Prop[], open: boolean, defs: Array<readonly [string, unknown]>): JsonSchema {
  const required = props.filter((p) => p.required).map((p) => p.key)
  return strip({
    type: 'object',
    properties: objectOf(props.map((p) => [p.key, renderNode(p.node, defs)] as const)),
    required: required.length > 0 ? required : undefined,
    additionalProperties: open ? undefined : false,
  })
}

function strip(schema: Record<string, unknown>): JsonSchema {
  return objectOf(Object.entries(schema).filter(([, value]) => value !== undefined))
}
