import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { compileProjector, proveViewSubset, type JsonSchema, type ViewViolation } from 'result-views'
import { HUGE_ARRAYS, HUGE_ARRAY_TIMEOUT_MS } from '../support/huge-arrays.js'
import { thrown } from '../support/outcomes.js'

/** Plain JSON copy, as `defineTool` hands schemas over (TypeBox's hidden keys dropped). */
const json = (schema: unknown): JsonSchema => JSON.parse(JSON.stringify(schema)) as JsonSchema

/** The violations of a pair, without messages: code and both pointers, in report order. */
function violations(compact: unknown, full: unknown): Array<Pick<ViewViolation, 'code' | 'compactPath' | 'fullPath'>> {
  const proof = proveViewSubset(json(compact), json(full))
  if (proof.ok) return []
  for (const v of proof.violations) expect(v.message.length).toBeGreaterThan(10)
  return proof.violations.map(({ code, compactPath, fullPath }) => ({ code, compactPath, fullPath }))
}

const v = (code: ViewViolation['code'], compactPath: string, fullPath: string) => ({ code, compactPath, fullPath })

describe('proveViewSubset: objects', () => {
  it('accepts a compact view that keeps some fields of the full one', () => {
    const full = Type.Object({ id: Type.String(), name: Type.String(), policy: Type.Object({ tools: Type.Array(Type.String()) }) })
    expect(proveViewSubset(json(Type.Object({ id: Type.String() }, { additionalProperties: false })), json(full))).toEqual({ ok: true })
  })

  it('accepts an open compact object: projection copies declared properties only', () => {
    expect(violations(Type.Object({ id: Type.String() }), Type.Object({ id: Type.String(), extra: Type.Number() }, { additionalProperties: false }))).toEqual([])
  })

  it('rejects a compact property the full view does not have, even when the full object is open', () => {
    expect(violations(Type.Object({ id: Type.String(), secret: Type.String() }), Type.Object({ id: Type.String() }))).toEqual([
      v('missing_in_full', '/properties/secret', '/properties/secret'),
    ])
  })

  it('rejects a property required in compact but optional in full', () => {
    expect(violations(Type.Object({ id: Type.String() }), Type.Object({ id: Type.Optional(Type.String()) }))).toEqual([
      v('required_optional_in_full', '/properties/id', '/properties/id'),
    ])
  })

  it('accepts a property optional in compact and required in full', () => {
    expect(violations(Type.Object({ id: Type.Optional(Type.String()) }), Type.Object({ id: Type.String() }))).toEqual([])
  })

  it('reports nested objects with pointers at their depth', () => {
    const compact = Type.Object({ session: Type.Object({ runtime: Type.Object({ generation: Type.Integer() }) }) })
    const full = Type.Object({ session: Type.Object({ runtime: Type.Object({ generation: Type.Optional(Type.Number()) }) }) })
    expect(violations(compact, full)).toEqual([
      v('required_optional_in_full', '/properties/session/properties/runtime/properties/generation', '/properties/session/properties/runtime/properties/generation'),
      v('type_wider', '/properties/session/properties/runtime/properties/generation', '/properties/session/properties/runtime/properties/generation'),
    ])
  })

  it('reports every violation of a pair together', () => {
    const compact = Type.Object({ a: Type.String(), b: Type.Integer(), c: Type.Null(), d: Type.Literal('x') })
    const full = Type.Object({ a: Type.Number(), b: Type.Optional(Type.Number()), d: Type.String() })
    expect(violations(compact, full)).toEqual([
      v('type_wider', '/properties/a', '/properties/a'),
      v('required_optional_in_full', '/properties/b', '/properties/b'),
      v('type_wider', '/properties/b', '/properties/b'),
      v('missing_in_full', '/properties/c', '/properties/c'),
      v('const_mismatch', '/properties/d', '/properties/d'),
    ])
  })

  it('reads full intersections (allOf) as the conjunction of their members', () => {
    const full = Type.Intersect([Type.Object({ id: Type.String() }), Type.Object({ name: Type.String(), extra: Type.Number() })])
    expect(violations(Type.Object({ id: Type.String(), name: Type.String() }), full)).toEqual([])
  })

  it('copies a map (one patternProperties entry) when the full view has the same pattern', () => {
    const compact = Type.Object({ labels: Type.Record(Type.String(), Type.String()) })
    expect(violations(compact, Type.Object({ labels: Type.Record(Type.String(), Type.String()) }))).toEqual([])
    expect(violations(compact, Type.Object({ labels: Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()])) }))).toEqual([
      v('nullable_wider', '/properties/labels/patternProperties/^.*$', '/properties/labels/patternProperties/^.*$/anyOf/1'),
    ])
    expect(violations(compact, Type.Object({ labels: Type.Object({ a: Type.String() }) }))).toEqual([
      v('missing_in_full', '/properties/labels/patternProperties/^.*$', '/properties/labels/patternProperties/^.*$'),
    ])
  })
})

describe('proveViewSubset: types, integers and nullability', () => {
  it('accepts compact number for full integer, rejects compact integer for full number', () => {
    expect(violations(Type.Number(), Type.Integer())).toEqual([])
    expect(violations(Type.Integer(), Type.Number())).toEqual([v('type_wider', '', '')])
  })

  it('rejects a full type the compact view does not allow', () => {
    expect(violations(Type.String(), Type.Union([Type.String(), Type.Number()]))).toEqual([v('type_wider', '', '/anyOf/1')])
    expect(violations({ type: 'string' }, { type: ['string', 'boolean'] })).toEqual([v('type_wider', '', '')])
  })

  it('rejects full null where compact does not allow it, in each spelling', () => {
    const compact = Type.Object({ pr: Type.String() })
    expect(violations(compact, Type.Object({ pr: Type.Union([Type.String(), Type.Null()]) }))).toEqual([
      v('nullable_wider', '/properties/pr', '/properties/pr/anyOf/1'),
    ])
    expect(violations({ type: 'string' }, { type: ['string', 'null'] })).toEqual([v('nullable_wider', '', '')])
    expect(violations({ type: 'string' }, { type: 'string', nullable: true })).toEqual([v('nullable_wider', '', '')])
  })

  it('accepts a nullable compact view of a non-null or nullable full view', () => {
    const compact = Type.Object({ pr: Type.Union([Type.Object({ url: Type.String() }), Type.Null()]) })
    expect(violations(compact, Type.Object({ pr: Type.Object({ url: Type.String(), title: Type.String() }) }))).toEqual([])
    expect(violations(compact, Type.Object({ pr: Type.Union([Type.Object({ url: Type.String(), n: Type.Integer() }), Type.Null()]) }))).toEqual([])
    expect(violations({ type: ['string', 'null'] }, Type.Null())).toEqual([])
  })

  it('accepts an unconstrained compact position for anything', () => {
    expect(violations(Type.Object({ meta: Type.Unknown() }), Type.Object({ meta: Type.Object({ a: Type.Array(Type.String()) }) }))).toEqual([])
  })

  it('rejects a compact position that allows nothing (false)', () => {
    expect(violations({ type: 'object', properties: { x: false } }, { type: 'object', properties: { x: { type: 'string' } } })).toEqual([
      v('type_wider', '/properties/x', '/properties/x'),
    ])
  })
})

describe('proveViewSubset: literals and enums', () => {
  it('accepts equal literals and full literals listed by the compact enum', () => {
    expect(violations(Type.Literal('a'), Type.Literal('a'))).toEqual([])
    expect(violations(Type.Enum(['a', 'b', 'c']), Type.Literal('b'))).toEqual([])
    expect(violations(Type.Enum(['a', 'b', 'c']), Type.Union([Type.Literal('a'), Type.Literal('c')]))).toEqual([])
    expect(violations({ enum: [true, false] }, Type.Boolean())).toEqual([])
    expect(violations(Type.Union([Type.Literal(true), Type.Literal(false)]), Type.Boolean())).toEqual([])
  })

  it('rejects a compact const the full view does not pin', () => {
    expect(violations(Type.Literal('a'), Type.String())).toEqual([v('const_mismatch', '', '')])
    expect(violations(Type.Literal('a'), Type.Literal('b'))).toEqual([v('const_mismatch', '', '')])
    expect(violations(Type.Literal(true), Type.Boolean())).toEqual([v('const_mismatch', '', '')])
  })

  it('rejects a full enum wider than the compact one', () => {
    expect(violations(Type.Enum(['a', 'b']), Type.Enum(['a', 'b', 'c']))).toEqual([v('enum_wider', '', '')])
    expect(violations(Type.Union([Type.Literal('a'), Type.Literal('b')]), Type.Union([Type.Literal('a'), Type.Literal('b'), Type.Literal('c')]))).toEqual([
      v('enum_wider', '', '/anyOf/2'),
    ])
    expect(violations(Type.Enum(['a', 'b']), Type.String())).toEqual([v('enum_wider', '', '')])
  })

  it('checks each full literal against compact value keywords', () => {
    expect(violations({ type: 'string', pattern: '^[a-z]+$' }, { enum: ['ok', 'fine'] })).toEqual([])
    expect(violations({ type: 'string', pattern: '^[a-z]+$' }, { enum: ['ok', 'NOT'] })).toEqual([v('constraint_not_implied', '', '')])
    expect(violations({ type: 'integer', minimum: 1 }, { enum: [1, 2, 3] })).toEqual([])
  })
})

describe('proveViewSubset: value keywords', () => {
  it('accepts compact keywords implied by the full ones', () => {
    expect(violations({ type: 'string', minLength: 1, maxLength: 10 }, { type: 'string', minLength: 2, maxLength: 8 })).toEqual([])
    expect(violations({ type: 'string', pattern: '^s-', format: 'date-time' }, { type: 'string', pattern: '^s-', format: 'date-time' })).toEqual([])
    expect(violations({ type: 'number', minimum: 0, exclusiveMaximum: 10 }, { type: 'number', exclusiveMinimum: 0, maximum: 9.5 })).toEqual([])
    expect(violations({ type: 'integer', minimum: 1 }, { type: 'integer', exclusiveMinimum: 0 })).toEqual([])
    expect(violations({ type: 'number', multipleOf: 0.5 }, { type: 'number', multipleOf: 0.5 })).toEqual([])
  })

  it('rejects compact keywords the full ones do not imply', () => {
    expect(violations({ type: 'string', minLength: 3 }, { type: 'string', minLength: 1 })).toEqual([v('constraint_not_implied', '', '')])
    expect(violations({ type: 'string', pattern: '^a' }, { type: 'string', pattern: '^ab' })).toEqual([v('constraint_not_implied', '', '')])
    expect(violations({ type: 'string', format: 'email' }, { type: 'string' })).toEqual([v('constraint_not_implied', '', '')])
    expect(violations({ type: 'number', minimum: 0 }, { type: 'number', exclusiveMinimum: -1 })).toEqual([v('constraint_not_implied', '', '')])
    expect(violations({ type: 'number', multipleOf: 0.1 }, { type: 'number', multipleOf: 0.2 })).toEqual([v('constraint_not_implied', '', '')])
  })
})

describe('proveViewSubset: arrays', () => {
  it('proves items position by position', () => {
    const compact = Type.Object({ items: Type.Array(Type.Object({ id: Type.String() })) })
    expect(violations(compact, Type.Object({ items: Type.Array(Type.Object({ id: Type.String(), body: Type.String() })) }))).toEqual([])
    expect(violations(compact, Type.Object({ items: Type.Array(Type.Object({ id: Type.Integer() })) }))).toEqual([
      v('type_wider', '/properties/items/items/properties/id', '/properties/items/items/properties/id'),
    ])
  })

  it('handles tuples, and rejects full elements past a closed compact tuple', () => {
    const pair = Type.Tuple([Type.String(), Type.Number()])
    expect(violations(pair, Type.Tuple([Type.String(), Type.Integer()]))).toEqual([])
    expect(violations(pair, Type.Array(Type.String()))).toEqual([
      v('type_wider', '/items/1', '/items'),
      v('items_wider', '', ''),
      v('constraint_not_implied', '', ''),
    ])
  })

  it('requires minItems and maxItems to be implied', () => {
    expect(violations(Type.Array(Type.String(), { minItems: 1, maxItems: 5 }), Type.Array(Type.String(), { minItems: 1, maxItems: 3 }))).toEqual([])
    expect(violations(Type.Array(Type.String(), { minItems: 2 }), Type.Array(Type.String(), { minItems: 1 }))).toEqual([
      v('constraint_not_implied', '', ''),
    ])
  })

  it('accepts uniqueItems only when projection copies elements whole', () => {
    expect(violations(Type.Array(Type.String(), { uniqueItems: true }), Type.Array(Type.String(), { uniqueItems: true }))).toEqual([])
    const objects = (o: object) => Type.Array(Type.Object({ id: Type.String(), ...o }), { uniqueItems: true })
    expect(violations(objects({}), objects({ rev: Type.Integer() }))).toEqual([v('constraint_not_implied', '', '')])
  })
})

describe('proveViewSubset: $ref, $defs and recursion', () => {
  it('resolves #/$defs references on both sides', () => {
    const compact = { $defs: { Id: { type: 'string' } }, type: 'object', properties: { id: { $ref: '#/$defs/Id' } }, required: ['id'] }
    const full = { $defs: { Ident: { type: 'integer' } }, type: 'object', properties: { id: { $ref: '#/$defs/Ident' } }, required: ['id'] }
    expect(violations(compact, full)).toEqual([v('type_wider', '/$defs/Id', '/$defs/Ident')])
  })

  it('proves recursive TypeBox Cyclic schemas coinductively', () => {
    const tree = (extra: object) => Type.Cyclic({ Node: Type.Object({ id: Type.String(), children: Type.Array(Type.Ref('Node')), ...extra }) }, 'Node')
    expect(violations(tree({}), tree({ body: Type.String() }))).toEqual([])
    const badCompact = Type.Cyclic({ Node: Type.Object({ id: Type.Integer(), children: Type.Array(Type.Ref('Node')) }) }, 'Node')
    expect(violations(badCompact, tree({}))).toEqual([v('type_wider', '/$defs/Node/properties/id', '/$defs/Node/properties/id')])
  })

  it('follows a recursive compact view into a full view that nests without refs', () => {
    const compact = Type.Cyclic({ Node: Type.Object({ id: Type.String(), next: Type.Optional(Type.Ref('Node')) }) }, 'Node')
    const full = Type.Object({ id: Type.String(), next: Type.Optional(Type.Object({ id: Type.String(), rev: Type.Integer() }, { additionalProperties: false })) })
    // The compact view can hold next.next; the full view has no such field, so the pair is rejected.
    expect(violations(compact, full)).toEqual([v('missing_in_full', '/$defs/Node/properties/next', '/properties/next/properties/next')])
    const deeper = Type.Object({ id: Type.String(), next: Type.Optional(Type.Object({ id: Type.String(), next: Type.Object({ id: Type.Number() }) })) })
    expect(violations(compact, deeper)).toEqual([
      v('type_wider', '/$defs/Node/properties/id', '/properties/next/properties/next/properties/id'),
      v('missing_in_full', '/$defs/Node/properties/next', '/properties/next/properties/next/properties/next'),
    ])
  })

  it('rejects references that do not resolve, and ref cycles through no property', () => {
    expect(violations({ $ref: '#/$defs/Nope' }, { type: 'string' })).toEqual([v('unresolved_ref', '/$ref', '')])
    expect(violations({ type: 'string' }, { $ref: 'Nope' })).toEqual([v('unresolved_ref', '', '/$ref')])
    expect(violations({ $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } }, $ref: '#/$defs/A' }, { type: 'string' })).toEqual([
      v('unresolved_ref', '/$defs/A', ''),
    ])
  })
})

describe('proveViewSubset: unions', () => {
  const A = Type.Object({ kind: Type.Literal('a'), x: Type.String() })
  const B = Type.Object({ kind: Type.Literal('b'), y: Type.Number() })
  const fullA = Type.Object({ kind: Type.Literal('a'), x: Type.String(), debug: Type.Boolean() })
  const fullB = Type.Object({ kind: Type.Literal('b'), y: Type.Integer(), trace: Type.Array(Type.String()) })

  it('accepts an object union discriminated by a required literal tag that maps one-to-one', () => {
    expect(violations(Type.Union([A, B]), Type.Union([fullA, fullB]))).toEqual([])
    expect(violations(Type.Union([A, B]), Type.Union([fullB, fullA]))).toEqual([])
  })

  it('rejects an object union with no tag', () => {
    const compact = Type.Union([Type.Object({ x: Type.String() }), Type.Object({ y: Type.Number() })])
    expect(violations(compact, Type.Object({ x: Type.String() }))).toEqual([v('union_not_discriminated', '', '')])
  })

  it('rejects a tag that is optional in the compact branches', () => {
    const compact = Type.Union([
      Type.Object({ kind: Type.Optional(Type.Literal('a')), x: Type.String() }),
      Type.Object({ kind: Type.Optional(Type.Literal('b')), y: Type.Number() }),
    ])
    expect(violations(compact, Type.Union([fullA, fullB]))).toEqual([v('union_not_discriminated', '', '/anyOf/0')])
  })

  it('rejects a tag that does not map one-to-one onto the full branches', () => {
    // Two full branches carry the same tag.
    expect(violations(Type.Union([A, B]), Type.Union([fullA, Type.Object({ kind: Type.Literal('a'), x: Type.String() }), fullB]))).toEqual([
      v('union_tag_ambiguous', '', '/anyOf/1/properties/kind'),
    ])
    // One full branch carries the tags of two compact branches.
    const both = Type.Object({ kind: Type.Union([Type.Literal('a'), Type.Literal('b')]), x: Type.String(), y: Type.Number() })
    expect(violations(Type.Union([A, B]), both)).toEqual([v('union_tag_ambiguous', '', '/properties/kind')])
    // The full branch does not require the tag.
    expect(violations(Type.Union([A, B]), Type.Object({ kind: Type.Optional(Type.Literal('a')), x: Type.String() }))).toEqual([
      v('union_tag_ambiguous', '', '/properties/kind'),
    ])
    // A compact branch no full branch corresponds to.
    expect(violations(Type.Union([A, B]), fullA)).toEqual([v('missing_in_full', '/anyOf/1', '')])
    // A full branch whose tag selects no compact branch.
    const fullC = Type.Object({ kind: Type.Literal('c') })
    expect(violations(Type.Union([A, B]), Type.Union([fullA, fullB, fullC]))).toEqual([v('union_branch_unmatched', '', '/anyOf/2/properties/kind')])
  })

  it('proves each tagged branch against its counterpart', () => {
    const badB = Type.Object({ kind: Type.Literal('b'), y: Type.Number(), z: Type.String() })
    expect(violations(Type.Union([A, badB]), Type.Union([fullA, fullB]))).toEqual([v('missing_in_full', '/anyOf/1/properties/z', '/anyOf/1/properties/z')])
  })

  it('proves every branch of a full union against a non-union compact view', () => {
    const compact = Type.Object({ id: Type.String() })
    expect(violations(compact, Type.Union([Type.Object({ id: Type.String(), a: Type.Number() }), Type.Object({ id: Type.String() })]))).toEqual([])
    expect(violations(compact, Type.Union([Type.Object({ id: Type.String() }), Type.Object({ id: Type.Number() })]))).toEqual([
      v('type_wider', '/properties/id', '/anyOf/1/properties/id'),
    ])
  })

  it('accepts scalar unions branch by branch', () => {
    expect(violations(Type.Union([Type.String(), Type.Integer()]), Type.Union([Type.Literal('x'), Type.Integer({ minimum: 0 })]))).toEqual([])
    expect(violations(Type.Union([Type.String(), Type.Integer()]), Type.Number())).toEqual([v('type_wider', '/anyOf/1', '')])
  })

  it('rejects overlapping oneOf branches', () => {
    expect(violations({ oneOf: [{ type: 'string' }, { type: 'string', minLength: 1 }] }, { type: 'string' })).toEqual([
      v('unsupported_keyword', '/oneOf', ''),
    ])
    expect(violations({ oneOf: [{ type: 'string' }, { type: 'null' }] }, { type: ['string', 'null'] })).toEqual([])
  })
})

describe('proveViewSubset: unsupported keywords', () => {
  it('rejects compact keywords it cannot reason about, with their pointers', () => {
    expect(violations({ type: 'object', properties: { a: { not: { type: 'null' } } } }, { type: 'object', properties: { a: { type: 'string' } } })).toEqual([
      v('unsupported_keyword', '/properties/a/not', '/properties/a'),
    ])
    expect(violations(Type.Intersect([Type.Object({ a: Type.String() })]), Type.Object({ a: Type.String() }))).toEqual([v('unsupported_keyword', '/allOf', '')])
    expect(violations({ type: 'array', prefixItems: [{ type: 'string' }] }, { type: 'array' })).toEqual([v('unsupported_keyword', '/prefixItems', '')])
    expect(violations({ type: 'object', minProperties: 1 }, { type: 'object' })).toEqual([v('unsupported_keyword', '/minProperties', '')])
    expect(violations({ type: 'string', if: { minLength: 1 }, then: { pattern: 'x' } }, { type: 'string' })).toEqual([
      v('unsupported_keyword', '/if', ''),
      v('unsupported_keyword', '/then', ''),
    ])
    expect(violations({ $defs: { S: { type: 'string' } }, $ref: '#/$defs/S', minLength: 2 }, { type: 'string' })).toEqual([v('unsupported_keyword', '/minLength', '')])
  })

  it('ignores annotations and x- extensions', () => {
    expect(violations({ type: 'string', description: 'd', title: 't', examples: ['a'], 'x-internal': true }, { type: 'string' })).toEqual([])
  })

  it('rejects a property that matches the compact pattern too', () => {
    const compact = { type: 'object', properties: { a: { type: 'string' } }, patternProperties: { '^a': { type: 'string' } } }
    expect(violations(compact, compact)).toEqual([v('unsupported_keyword', '/patternProperties', '')])
  })
})

describe('proveViewSubset: arguments and limits', () => {
  it('throws a TypeError when either argument is not a schema (an object or a boolean)', () => {
    for (const [compact, full] of [
      [{}, 5],
      [{}, null],
      [{}, [{}]],
      ['x', {}],
      [undefined, {}],
    ]) {
      expect(() => proveViewSubset(compact as JsonSchema, full as JsonSchema)).toThrow(TypeError)
      expect(() => proveViewSubset(compact as JsonSchema, full as JsonSchema)).toThrow(
        expect.objectContaining({ name: 'UsageError', code: 'schema_argument_invalid', problems: [expect.objectContaining({ path: '', code: 'not_a_schema' })] }),
      )
    }
    expect(proveViewSubset(true, {})).toEqual({ ok: true })
  })

  it('names full unions too large to split, instead of leaving only the widened reasons', () => {
    const full = { anyOf: Array.from({ length: 300 }, (_, i) => ({ const: `v${i}` })) }
    const found = violations({ type: 'string' }, full)
    expect(found).toContainEqual({ code: 'unsupported_keyword', compactPath: '', fullPath: '/anyOf' })
    // Below the limit the same union is proven.
    expect(violations({ type: 'string' }, { anyOf: full.anyOf.slice(0, 200) })).toEqual([])
    // An unconstrained compact position never reads the full union at all.
    expect(violations({}, full)).toEqual([])
  })
})

describe('proveViewSubset and compileProjector: schemas the call stack cannot follow', () => {
  it('throw a TypeError (never a RangeError) for a cycle of JavaScript objects or very deep nesting', () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} }
    ;(cyclic.properties as Record<string, unknown>).self = cyclic
    let deep: Record<string, unknown> = { type: 'string' }
    for (let i = 0; i < 20_000; i++) deep = { type: 'object', properties: { a: deep } }
    for (const schema of [cyclic, deep]) {
      expect(() => proveViewSubset(schema as JsonSchema, schema as JsonSchema)).toThrow(TypeError)
      expect(() => compileProjector(schema as JsonSchema)).toThrow(TypeError)
      // Both check the schema is plain JSON first: a cycle, or nesting past 5,000 levels.
      expect(() => proveViewSubset(schema as JsonSchema, schema as JsonSchema)).toThrow(
        expect.objectContaining({ code: 'schema_argument_invalid', problems: [expect.objectContaining({ code: 'schema_not_json' })] }),
      )
      expect(() => compileProjector(schema as JsonSchema)).toThrow(
        expect.objectContaining({ code: 'schema_argument_invalid', problems: [expect.objectContaining({ code: 'schema_not_json' })] }),
      )
    }
  })
})

// Found by the second break-it review (each was accepted, and some record projected to a value
// the compact schema rejects).
describe('proveViewSubset: soundness regressions', () => {
  const codes = (compact: unknown, full: unknown) => violations(compact, full).map((x) => x.code)

  it('reports keywords it cannot read inside a compact union branch, as it does outside one', () => {
    expect(codes({ anyOf: [{ type: 'string', not: { const: 'x' } }, { type: 'null' }] }, { type: ['string', 'null'] })).toContain('unsupported_keyword')
    expect(codes({ anyOf: [{ allOf: [{ type: 'string' }] }, { type: 'null' }] }, { type: ['string', 'null', 'number'] })).toContain('unsupported_keyword')
    const minProps = { anyOf: [{ type: 'object', properties: { a: {} }, minProperties: 2 }, { type: 'null' }] }
    expect(codes(minProps, { anyOf: [{ type: 'object' }, { type: 'null' }] })).toContain('unsupported_keyword')
  })

  it('refuses a compact oneOf with an unconstrained branch beside others (a value would match two)', () => {
    for (const compact of [{ oneOf: [{}, { type: 'string' }] }, { oneOf: [true, { type: 'string' }] }, { oneOf: [{}, {}] }, { type: 'object', properties: { a: { oneOf: [{ anyOf: [{}, { type: 'number' }] }, { type: 'string' }] } } }]) {
      expect(codes(compact, { type: ['string', 'object'] })).toContain('unsupported_keyword')
    }
    // anyOf with an unconstrained branch accepts everything, as before.
    expect(violations({ anyOf: [{}, { type: 'string' }] }, { type: 'string' })).toEqual([])
  })

  it('checks a numeric format (int32, int64, float, double) as it checks a string format', () => {
    expect(codes({ type: 'number', format: 'int32' }, { type: 'number' })).toEqual(['constraint_not_implied'])
    expect(codes({ type: 'integer', format: 'int64' }, { type: 'integer' })).toEqual(['constraint_not_implied'])
    expect(codes({ type: 'number', format: 'int32' }, { enum: [1e12] })).toEqual(['constraint_not_implied'])
    expect(violations({ type: 'number', format: 'int32' }, { type: 'number', format: 'int32' })).toEqual([])
  })

  it('refuses a named $ref where a subschema sets its own base URI, or two subschemas declare the name', () => {
    const nestedBase = {
      $id: 'http://a.example/root.json',
      type: 'object',
      properties: { v: { $ref: 'node.json' } },
      $defs: { mine: { $id: 'node.json', type: 'number' }, other: { $id: 'http://b.example/dir/', $defs: { n: { $id: 'node.json', type: 'string' } } } },
    }
    expect(codes(nestedBase, { type: 'object', properties: { v: { type: 'number' } } })).toContain('unresolved_ref')
    const twice = { type: 'object', properties: { v: { $ref: 'Node' } }, $defs: { a: { $id: 'Node', type: 'number' }, b: { $id: 'Node', type: 'string' } } }
    expect(codes(twice, { type: 'object', properties: { v: { type: 'number' } } })).toContain('unresolved_ref')
    // TypeBox's plain names still resolve.
    const Node = Type.Cyclic({ Node: Type.Object({ id: Type.String(), next: Type.Optional(Type.Ref('Node')) }) }, 'Node')
    expect(violations(Node, Node)).toEqual([])
  })

  it('reports a compact problem where the full view never reaches (so the projector never refuses a proven schema)', () => {
    const compact = { type: 'array', items: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'array', items: { type: 'number' } }] } }
    expect(violations(compact, { type: 'array', maxItems: 0 })).toEqual([v('union_not_discriminated', '/items', '')])
  })

  it('throws a TypeError for objects that are not plain schemas (Date, Map, class instances)', () => {
    for (const bad of [new Date(0), new Map(), new (class Schema {})()]) {
      expect(() => proveViewSubset({}, bad as unknown as JsonSchema)).toThrow(TypeError)
      expect(() => proveViewSubset(bad as unknown as JsonSchema, {})).toThrow(TypeError)
    }
    expect(proveViewSubset(Object.create(null) as JsonSchema, {})).toEqual({ ok: true })
  })
})

describe.each(HUGE_ARRAYS)('proveViewSubset and compileProjector: a schema holding $name', ({ make }) => {
  it('is schema_not_json at its first hole, in either argument (regression: the proof walked 2 ** 32 - 1 indices of `required`)', { timeout: HUGE_ARRAY_TIMEOUT_MS }, () => {
    const sparse = (): JsonSchema => ({ type: 'object', required: make() as string[], properties: {} })
    const problem = (which: string) => ({
      code: 'schema_argument_invalid',
      message: `proveViewSubset: the ${which} schema is not plain JSON at "/required/0": value at "/required/0" is not plain JSON: a hole in an array`,
      problems: [expect.objectContaining({ path: '/required/0', code: 'schema_not_json' })],
    })
    expect(thrown(() => proveViewSubset(sparse(), { type: 'object' }))).toMatchObject(problem('compact'))
    expect(thrown(() => proveViewSubset({ type: 'object' }, sparse()))).toMatchObject(problem('full'))
    expect(thrown(() => compileProjector({ type: 'object', properties: { a: { enum: make() } } } as JsonSchema))).toMatchObject({
      code: 'schema_argument_invalid',
      problems: [expect.objectContaining({ path: '/properties/a/enum/0', code: 'schema_not_json' })],
    })
  })
})
