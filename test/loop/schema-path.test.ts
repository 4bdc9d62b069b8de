import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import Type from 'typebox'
import { resolveSchemaPath } from 'result-views/loop'

const plain = <T>(schema: T): T => JSON.parse(JSON.stringify(schema)) as T

describe('resolveSchemaPath: objects', () => {
  const schema = plain(Type.Object({ a: Type.Object({ b: Type.String() }, { additionalProperties: false }) }, { additionalProperties: false }))

  it('resolves listed properties and names the rule of each segment', () => {
    expect(resolveSchemaPath(schema, ['a', 'b'])).toEqual({
      status: 'resolved',
      steps: [
        { segment: 'a', rules: ['properties'] },
        { segment: 'b', rules: ['properties'] },
      ],
    })
  })

  it('resolves the empty path to the root', () => {
    expect(resolveSchemaPath(schema, [])).toEqual({ status: 'resolved', steps: [] })
  })

  it('rules out a member a closed object does not list, naming the deepest valid segment and the fields there', () => {
    expect(resolveSchemaPath(schema, ['a', 'c', 'd'])).toEqual({
      status: 'missing',
      steps: [{ segment: 'a', rules: ['properties'] }],
      missing_at: 1,
      available: ['b'],
      accepts_index: false,
    })
  })

  it('rules out any member of a scalar', () => {
    expect(resolveSchemaPath(schema, ['a', 'b', 'length'])).toEqual({
      status: 'missing',
      steps: [
        { segment: 'a', rules: ['properties'] },
        { segment: 'b', rules: ['properties'] },
      ],
      missing_at: 2,
      available: [],
      accepts_index: false,
    })
  })

  it('reports an object open to unlisted members (TypeBox objects are open by default)', () => {
    expect(resolveSchemaPath(plain(Type.Object({ a: Type.String() })), ['x', 'y'])).toEqual({
      status: 'open',
      steps: [
        { segment: 'x', rules: ['additionalProperties'], open: 'additional_properties' },
        { segment: 'y', rules: [], open: 'empty_schema' },
      ],
      open_at: 0,
      reason: 'additional_properties',
      available: ['a'],
    })
  })

  it('lists the fields listed where an open path leaves them, across union branches and not past them', () => {
    const union = { anyOf: [{ type: 'object', properties: { b: {}, a: {} } }, { type: 'object', properties: { c: {} }, additionalProperties: false }] }
    expect(resolveSchemaPath(union, ['x'])).toMatchObject({ status: 'open', open_at: 0, available: ['a', 'b', 'c'] })
    const nested = { type: 'object', properties: { s: { type: 'object', properties: { id: {} } } }, additionalProperties: false }
    expect(resolveSchemaPath(nested, ['s', 'idd', 'deeper'])).toMatchObject({ status: 'open', open_at: 1, available: ['id'] })
    expect(resolveSchemaPath({ type: 'object' }, ['a'])).toMatchObject({ status: 'open', available: [] })
  })

  it('follows an additionalProperties schema as open, and can still rule out what it forbids', () => {
    const record = { type: 'object', additionalProperties: { type: 'object', properties: { n: { type: 'number' } }, additionalProperties: false } }
    expect(resolveSchemaPath(record, ['k', 'n'])).toEqual({
      status: 'open',
      steps: [
        { segment: 'k', rules: ['additionalProperties'], open: 'additional_properties' },
        { segment: 'n', rules: ['properties'] },
      ],
      open_at: 0,
      reason: 'additional_properties',
      available: [],
    })
    expect(resolveSchemaPath(record, ['k', 'm'])).toMatchObject({ status: 'missing', missing_at: 1, available: ['n'] })
  })

  it('reports patternProperties matches as open, and non-matching keys of a closed object as missing', () => {
    const schema = plain(Type.Record(Type.String({ pattern: '^x_' }), Type.Number()))
    const patterned = { type: 'object', patternProperties: { '^x_': { type: 'number' } }, additionalProperties: false }
    expect(resolveSchemaPath(patterned, ['x_1'])).toEqual({
      status: 'open',
      steps: [{ segment: 'x_1', rules: ['patternProperties'], open: 'pattern_properties' }],
      open_at: 0,
      reason: 'pattern_properties',
      available: [],
    })
    expect(resolveSchemaPath(patterned, ['y'])).toMatchObject({ status: 'missing', missing_at: 0, available: [] })
    expect(resolveSchemaPath(schema, ['x_any'])).toMatchObject({ status: 'open', reason: 'pattern_properties' })
    expect(resolveSchemaPath(schema, ['other'])).toMatchObject({ status: 'open', reason: 'additional_properties' })
  })

  it('reports { type: "object" } with no properties, {} and true as open', () => {
    expect(resolveSchemaPath({ type: 'object' }, ['a'])).toMatchObject({ status: 'open', open_at: 0, reason: 'object_without_properties' })
    expect(resolveSchemaPath({}, ['a'])).toMatchObject({ status: 'open', open_at: 0, reason: 'empty_schema' })
    expect(resolveSchemaPath({ description: 'anything' }, ['a'])).toMatchObject({ status: 'open', reason: 'empty_schema' })
    expect(resolveSchemaPath(true, ['a'])).toMatchObject({ status: 'open', reason: 'empty_schema' })
    expect(resolveSchemaPath(false, ['a'])).toMatchObject({ status: 'missing', missing_at: 0 })
  })

  it('treats enum and const of scalars as scalars', () => {
    expect(resolveSchemaPath({ enum: ['a', 'b'] }, ['x'])).toMatchObject({ status: 'missing', missing_at: 0, available: [] })
    expect(resolveSchemaPath({ const: { x: 1 } }, ['x'])).toMatchObject({ status: 'open', reason: 'empty_schema' })
  })
})

describe('resolveSchemaPath: arrays', () => {
  const list = plain(Type.Object({ items: Type.Array(Type.Object({ name: Type.String() }, { additionalProperties: false })) }, { additionalProperties: false }))

  it('resolves numeric segments through items', () => {
    expect(resolveSchemaPath(list, ['items', '12', 'name'])).toEqual({
      status: 'resolved',
      steps: [
        { segment: 'items', rules: ['properties'] },
        { segment: '12', rules: ['items'] },
        { segment: 'name', rules: ['properties'] },
      ],
    })
  })

  it('rules out non-numeric segments on an array and says it takes an index', () => {
    for (const segment of ['first', '01', '-1', 'length']) {
      expect(resolveSchemaPath(list, ['items', segment])).toEqual({
        status: 'missing',
        steps: [{ segment: 'items', rules: ['properties'] }],
        missing_at: 1,
        available: [],
        accepts_index: true,
      })
    }
  })

  it('resolves draft-07 tuples (TypeBox Tuple) by position and rules out indexes past additionalItems: false', () => {
    const tuple = plain(Type.Tuple([Type.String(), Type.Object({ n: Type.Number() }, { additionalProperties: false })]))
    expect(resolveSchemaPath(tuple, ['1', 'n'])).toEqual({
      status: 'resolved',
      steps: [
        { segment: '1', rules: ['items'] },
        { segment: 'n', rules: ['properties'] },
      ],
    })
    expect(resolveSchemaPath(tuple, ['2'])).toEqual({ status: 'missing', steps: [], missing_at: 0, available: [], accepts_index: true })
  })

  it('resolves 2020-12 prefixItems and follows items past them', () => {
    const schema = { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'object', properties: { z: { type: 'number' } } } }
    expect(resolveSchemaPath(schema, ['0'])).toEqual({ status: 'resolved', steps: [{ segment: '0', rules: ['prefixItems'] }] })
    expect(resolveSchemaPath(schema, ['5', 'z'])).toEqual({
      status: 'resolved',
      steps: [
        { segment: '5', rules: ['items'] },
        { segment: 'z', rules: ['properties'] },
      ],
    })
    expect(resolveSchemaPath({ type: 'array', prefixItems: [{ type: 'string' }] }, ['3'])).toMatchObject({ status: 'open', reason: 'additional_items' })
    expect(resolveSchemaPath({ type: 'array', prefixItems: [{ type: 'string' }], items: false }, ['3'])).toMatchObject({ status: 'missing', accepts_index: true })
  })

  it('treats an array without items as open', () => {
    expect(resolveSchemaPath({ type: 'array' }, ['0', 'x'])).toMatchObject({ status: 'open', open_at: 0, reason: 'empty_schema' })
  })
})

describe('resolveSchemaPath: unions and intersections', () => {
  it('resolves through a nullable union (TypeBox Union with Null)', () => {
    const schema = plain(Type.Object({ pr: Type.Union([Type.Object({ url: Type.String() }, { additionalProperties: false }), Type.Null()]) }, { additionalProperties: false }))
    expect(resolveSchemaPath(schema, ['pr', 'url'])).toEqual({
      status: 'resolved',
      steps: [
        { segment: 'pr', rules: ['properties'] },
        { segment: 'url', rules: ['nullable', 'properties'] },
      ],
    })
    expect(resolveSchemaPath(schema, ['pr', 'number'])).toMatchObject({ status: 'missing', missing_at: 1, available: ['url'] })
  })

  it('resolves through type arrays with null and OpenAPI nullable', () => {
    const typeArray = { type: ['object', 'null'], properties: { a: { type: 'string' } }, additionalProperties: false }
    expect(resolveSchemaPath(typeArray, ['a'])).toEqual({ status: 'resolved', steps: [{ segment: 'a', rules: ['nullable', 'properties'] }] })
    const openApi = { type: 'object', nullable: true, properties: { a: { type: 'string' } }, additionalProperties: false }
    expect(resolveSchemaPath(openApi, ['a'])).toEqual({ status: 'resolved', steps: [{ segment: 'a', rules: ['nullable', 'properties'] }] })
  })

  it('resolves a member any branch of anyOf / oneOf lists, and lists every branch field when none does', () => {
    const a = { type: 'object', properties: { kind: { const: 'a' }, x: { type: 'string' } }, additionalProperties: false }
    const b = { type: 'object', properties: { kind: { const: 'b' }, y: { type: 'string' } }, additionalProperties: false }
    for (const rule of ['anyOf', 'oneOf'] as const) {
      expect(resolveSchemaPath({ [rule]: [a, b] }, ['y'])).toEqual({ status: 'resolved', steps: [{ segment: 'y', rules: [rule, 'properties'] }] })
      expect(resolveSchemaPath({ [rule]: [a, b] }, ['z'])).toEqual({ status: 'missing', steps: [], missing_at: 0, available: ['kind', 'x', 'y'], accepts_index: false })
    }
  })

  it('prefers a branch that proves the member over an open branch', () => {
    const schema = { anyOf: [{ type: 'object' }, { type: 'object', properties: { x: { type: 'string' } }, additionalProperties: false }] }
    expect(resolveSchemaPath(schema, ['x'])).toEqual({ status: 'resolved', steps: [{ segment: 'x', rules: ['anyOf', 'properties'] }] })
    expect(resolveSchemaPath(schema, ['w'])).toMatchObject({ status: 'open', reason: 'object_without_properties' })
  })

  it('keeps open branches as alternatives at the next segment (sound: an open branch may hold the member)', () => {
    const schema = {
      anyOf: [
        { type: 'object', properties: { x: { type: 'object', properties: {}, additionalProperties: false } }, additionalProperties: false },
        { type: 'object' },
      ],
    }
    expect(resolveSchemaPath(schema, ['x', 'y'])).toMatchObject({ status: 'open', open_at: 0 })
  })

  it('resolves allOf (TypeBox Intersect) through the member that lists the field', () => {
    const schema = plain(Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.Object({ c: Type.String() }, { additionalProperties: false }) })]))
    expect(resolveSchemaPath(schema, ['b', 'c'])).toEqual({
      status: 'resolved',
      steps: [
        { segment: 'b', rules: ['allOf', 'properties'] },
        { segment: 'c', rules: ['allOf', 'properties'] },
      ],
    })
  })

  it('rules a member out when a closed allOf member does not list it', () => {
    const schema = { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }, { type: 'object', properties: { b: { type: 'string' } } }] }
    expect(resolveSchemaPath(schema, ['b'])).toEqual({ status: 'missing', steps: [], missing_at: 0, available: ['a'], accepts_index: false })
  })

  it('combines local keywords with anyOf as a conjunction', () => {
    const schema = { type: 'object', properties: { kind: { type: 'string' } }, anyOf: [{ properties: { a: { type: 'string' } } }] }
    expect(resolveSchemaPath(schema, ['kind'])).toEqual({ status: 'resolved', steps: [{ segment: 'kind', rules: ['properties'] }] })
    expect(resolveSchemaPath(schema, ['a'])).toEqual({ status: 'resolved', steps: [{ segment: 'a', rules: ['anyOf', 'properties'] }] })
    const closed = { type: 'object', properties: { kind: { type: 'string' } }, additionalProperties: false, anyOf: [{ properties: { a: { type: 'string' } } }] }
    expect(resolveSchemaPath(closed, ['a'])).toMatchObject({ status: 'missing', available: ['kind'] })
  })
})

describe('resolveSchemaPath: references', () => {
  it('follows #/$defs and #/definitions pointers', () => {
    const schema = {
      $defs: { Inner: { type: 'object', properties: { v: { type: 'number' } }, additionalProperties: false } },
      definitions: { 'a/b': { type: 'object', properties: { w: { type: 'number' } }, additionalProperties: false } },
      type: 'object',
      properties: { inner: { $ref: '#/$defs/Inner' }, other: { $ref: '#/definitions/a~1b' } },
      additionalProperties: false,
    }
    expect(resolveSchemaPath(schema, ['inner', 'v'])).toEqual({
      status: 'resolved',
      steps: [
        { segment: 'inner', rules: ['properties'] },
        { segment: 'v', rules: ['$ref', 'properties'] },
      ],
    })
    expect(resolveSchemaPath(schema, ['other', 'w'])).toMatchObject({ status: 'resolved' })
    expect(resolveSchemaPath(schema, ['inner', 'x'])).toMatchObject({ status: 'missing', missing_at: 1, available: ['v'] })
  })

  it('follows a TypeBox Cyclic schema ($ref to an $id) through any depth of recursion', () => {
    const Node = plain(Type.Cyclic({ Node: Type.Object({ id: Type.String(), children: Type.Array(Type.Ref('Node')) }, { additionalProperties: false }) }, 'Node'))
    expect(Node).toMatchObject({ $ref: 'Node', $defs: { Node: { $id: 'Node' } } })
    expect(resolveSchemaPath(Node, ['children', '0', 'children', '3', 'id'])).toEqual({
      status: 'resolved',
      steps: [
        { segment: 'children', rules: ['$ref', 'properties'] },
        { segment: '0', rules: ['items'] },
        { segment: 'children', rules: ['$ref', 'properties'] },
        { segment: '3', rules: ['items'] },
        { segment: 'id', rules: ['$ref', 'properties'] },
      ],
    })
    expect(resolveSchemaPath(Node, ['children', '0', 'name'])).toMatchObject({ status: 'missing', missing_at: 2, available: ['children', 'id'] })
  })

  it('resolves any path depth in a recursive schema (property)', () => {
    const Node = plain(Type.Cyclic({ Node: Type.Object({ id: Type.String(), next: Type.Optional(Type.Ref('Node')) }, { additionalProperties: false }) }, 'Node'))
    fc.assert(
      fc.property(fc.nat({ max: 40 }), (depth) => {
        const path = [...Array.from({ length: depth }, () => 'next'), 'id']
        const resolution = resolveSchemaPath(Node, path)
        expect(resolution.status).toBe('resolved')
        expect(resolveSchemaPath(Node, [...path.slice(0, -1), 'nope']).status).toBe('missing')
      }),
    )
  })

  it('terminates on a reference cycle with no structure, and on a union that refers to itself', () => {
    expect(resolveSchemaPath({ $defs: { A: { $ref: '#/$defs/A' } }, $ref: '#/$defs/A' }, ['x'])).toMatchObject({ status: 'missing', missing_at: 0 })
    const selfUnion = { $defs: { A: { anyOf: [{ $ref: '#/$defs/A' }, { type: 'object', properties: { x: { type: 'string' } }, additionalProperties: false }] } }, $ref: '#/$defs/A' }
    expect(resolveSchemaPath(selfUnion, ['x'])).toEqual({ status: 'resolved', steps: [{ segment: 'x', rules: ['$ref', 'anyOf', 'properties'] }] })
  })

  it('reports a reference it cannot follow as open', () => {
    expect(resolveSchemaPath({ $ref: 'https://example.com/other.json' }, ['x'])).toMatchObject({ status: 'open', reason: 'unresolved_ref' })
    expect(resolveSchemaPath({ $ref: '#/$defs/Missing' }, ['x'])).toMatchObject({ status: 'open', reason: 'unresolved_ref' })
  })

  it('resolves "#" to the document root', () => {
    const schema = { type: 'object', properties: { self: { $ref: '#' }, v: { type: 'number' } }, additionalProperties: false }
    expect(resolveSchemaPath(schema, ['self', 'self', 'v'])).toMatchObject({ status: 'resolved' })
  })
})

describe('resolveSchemaPath: totality', () => {
  it('never throws on arbitrary JSON schemas and paths (property)', () => {
    const segment = fc.oneof(fc.constantFrom('a', 'b', '0', '1', 'items', '$ref'), fc.string({ maxLength: 4 }))
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), fc.array(segment, { maxLength: 6 }), (schema, path) => {
        const value = typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? schema : typeof schema === 'boolean' ? schema : {}
        const resolution = resolveSchemaPath(value as Record<string, unknown>, path)
        expect(['resolved', 'open', 'missing']).toContain(resolution.status)
      }),
    )
  })
})
