// Random schema pairs for the contract verdicts' property tests, aimed at what containment reads
// and projection does not: closed objects, `additionalProperties` schemas, `patternProperties`
// beside closed objects, untagged unions of objects, and tuples. A schema is generated, then a
// second one is made from it by a few random edits (add or drop a property, require one, close or
// open an object, change `additionalProperties`, widen or narrow a leaf, add or drop a branch,
// edit one branch, or keep one branch of a union).
import fc from 'fast-check'
import type { JsonSchema } from 'result-views'

type Schema = Record<string, unknown>

const KEYS = ['a', 'b', 'c', 'xa', 'constructor']

const leafArb: fc.Arbitrary<Schema> = fc.constantFrom<Schema>(
  { type: 'string' },
  { type: 'string', maxLength: 3 },
  { type: 'integer' },
  { type: 'number' },
  { type: 'integer', minimum: 0 },
  { type: 'boolean' },
  { type: 'null' },
  { type: ['string', 'null'] },
  { const: 'a' },
  { enum: ['a', 'b'] },
  { enum: ['a', 'b', 1] },
  {},
)

const additionalArb: fc.Arbitrary<unknown> = fc.oneof(fc.constant(undefined), fc.constant(false), fc.constant(true), leafArb)

function objectArb(value: fc.Arbitrary<Schema>): fc.Arbitrary<Schema> {
  return fc
    .record({
      properties: fc.uniqueArray(fc.tuple(fc.constantFrom(...KEYS), value), { selector: ([k]) => k, maxLength: 3 }),
      required: fc.subarray(KEYS, { maxLength: 2 }),
      additional: additionalArb,
      pattern: fc.option(leafArb, { nil: undefined, freq: 3 }),
    })
    .map(({ properties, required, additional, pattern }) => {
      const declared = properties.map(([k]) => k)
      const schema: Schema = { type: 'object', properties: Object.fromEntries(properties) }
      const req = required.filter((k) => declared.includes(k))
      if (req.length > 0) schema.required = req
      if (additional !== undefined) schema.additionalProperties = additional
      // A declared key matching the pattern would need both schemas: keep the pattern off them.
      if (pattern !== undefined && !declared.some((k) => k.startsWith('x'))) schema.patternProperties = { '^x': pattern }
      return schema
    })
}

/** A schema of the grammar above. */
export const contractSchemaArb: fc.Arbitrary<Schema> = fc.letrec<{ node: Schema }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafArb,
    objectArb(tie('node')),
    fc.array(objectArb(leafArb), { minLength: 2, maxLength: 3 }).map((branches): Schema => ({ anyOf: branches })),
    tie('node').map((items): Schema => ({ type: 'array', items })),
    fc.array(leafArb, { minLength: 1, maxLength: 2 }).map((items): Schema => ({ type: 'array', items, additionalItems: false })),
    fc.tuple(tie('node'), fc.boolean()).map(([inner, list]): Schema => (list ? { anyOf: [inner, { type: 'null' }] } : inner)),
  ),
})).node

/**
 * A record holding an expression tree: `Expr`, a recursive union in `$defs` referenced through a
 * property (`arg: Expr | null`, or `arg?: Expr`) or the items (`args: (Expr | null)[]`) of its own
 * branch, beside a literal branch whose leaf and extra fields vary.
 */
export const recursiveContractSchemaArb: fc.Arbitrary<Schema> = fc
  .record({
    through: fc.constantFrom('property', 'items'), nullable: fc.boolean(), open: fc.boolean(),
    value: leafArb, extra: fc.option(leafArb, { nil: undefined }), note: fc.option(leafArb, { nil: undefined }),
  })
  .map(({ through, nullable, open, value, extra, note }): Schema => {
    const ref = { $ref: '#/$defs/Expr' }
    const child = nullable ? { anyOf: [ref, { type: 'null' }] } : ref
    const closed = open ? {} : { additionalProperties: false }
    const recursive = through === 'property'
      ? { type: 'object', properties: { op: { const: 'neg' }, arg: child }, required: nullable ? ['op', 'arg'] : ['op'], ...closed }
      : { type: 'object', properties: { op: { const: 'sum' }, args: { type: 'array', items: child, maxItems: 3 } }, required: ['op', 'args'], ...closed }
    const literal = { type: 'object', properties: { op: { const: 'lit' }, value, ...(extra === undefined ? {} : { c: extra }) }, required: ['op', 'value'], ...closed }
    return { $defs: { Expr: { anyOf: [recursive, literal] } }, type: 'object', properties: { expr: ref, ...(note === undefined ? {} : { a: note }) }, required: ['expr'] }
  })

/** A union at the root, as an input schema of a lock may have one: objects, scalars and `{}` mixed. */
export const unionRootSchemaArb: fc.Arbitrary<Schema> = fc
  .array(fc.oneof(leafArb, objectArb(leafArb)), { minLength: 2, maxLength: 3 })
  .map((branches): Schema => ({ anyOf: branches }))

/** One random edit of a schema (deep: it may land on any nested schema, a `$defs` entry included). */
function edit(schema: Schema): fc.Arbitrary<Schema> {
  const nested: Array<[string, string | undefined]> = []
  if (typeof schema.$defs === 'object' && schema.$defs !== null) for (const key of Object.keys(schema.$defs)) nested.push(['$defs', key])
  if (typeof schema.properties === 'object' && schema.properties !== null) for (const key of Object.keys(schema.properties)) nested.push(['properties', key])
  if (typeof schema.items === 'object' && schema.items !== null && !Array.isArray(schema.items)) nested.push(['items', undefined])
  if (Array.isArray(schema.anyOf)) for (let i = 0; i < schema.anyOf.length; i++) nested.push(['anyOf', String(i)])
  const here = fc.oneof(
    leafArb,
    fc.constant({ ...schema, additionalProperties: false }),
    additionalArb.map((a): Schema => {
      const out = { ...schema }
      if (a === undefined) delete out.additionalProperties
      else out.additionalProperties = a
      return out
    }),
    fc.constantFrom(...KEYS).chain((key) => leafArb.map((leaf): Schema => ({ ...schema, properties: { ...(schema.properties as object), [key]: leaf } }))),
    fc.constantFrom(...KEYS).map((key): Schema => ({ ...schema, required: [...new Set([...((schema.required as string[]) ?? []), key])] })),
    fc.constant({ ...schema, required: undefined }).map((s) => JSON.parse(JSON.stringify(s)) as Schema),
    fc.constant<Schema>({ anyOf: [schema, { type: 'null' }] }),
    fc.constant<Schema>(Array.isArray(schema.anyOf) && schema.anyOf.length > 1 ? { anyOf: schema.anyOf.slice(1) } : schema),
    // A union replaced by one of its branches (a release that settles on one variant).
    Array.isArray(schema.anyOf) ? fc.constantFrom(...(schema.anyOf as Schema[])) : fc.constant(schema),
  )
  if (nested.length === 0) return here
  return fc.oneof(
    here,
    fc.constantFrom(...nested).chain(([keyword, key]) => {
      const child = (key === undefined ? schema[keyword] : (schema[keyword] as Record<string, unknown>)[key]) as Schema
      return edit(child).map((changed): Schema => {
        if (key === undefined) return { ...schema, [keyword]: changed }
        if (Array.isArray(schema[keyword])) return { ...schema, [keyword]: (schema[keyword] as Schema[]).map((b, i) => (String(i) === key ? changed : b)) }
        return { ...schema, [keyword]: { ...(schema[keyword] as object), [key]: changed } }
      })
    }),
  )
}

/** A schema of `schemas` and one made from it by up to three edits (sometimes none). */
export function editedPairsOf(schemas: fc.Arbitrary<Schema>): fc.Arbitrary<{ readonly a: JsonSchema; readonly b: JsonSchema }> {
  return schemas.chain((a) =>
    fc.integer({ min: 0, max: 3 }).chain((count) => {
      let b: fc.Arbitrary<Schema> = fc.constant(a)
      for (let i = 0; i < count; i++) b = b.chain(edit)
      return b.map((edited) => ({ a: a as JsonSchema, b: edited as JsonSchema }))
    }),
  )
}

/** A schema and one made from it by up to three edits (sometimes none). */
export const editedPairArb: fc.Arbitrary<{ readonly a: JsonSchema; readonly b: JsonSchema }> = editedPairsOf(contractSchemaArb)
