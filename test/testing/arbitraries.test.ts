import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import Type, { type TSchema } from 'typebox'
import { Ajv } from 'ajv'
import formatsModule from 'ajv-formats'
import type { JsonSchema } from 'result-views'
import {
  isSchemaArbitraryError,
  jsonSchemaArbitrary,
  SchemaArbitraryError,
  SUPPORTED_FORMATS,
} from 'result-views/testing'

type FormatsPlugin = (ajv: Ajv) => Ajv
const addFormats = (formatsModule as unknown as { default?: FormatsPlugin }).default ?? (formatsModule as unknown as FormatsPlugin)

/** A validator in its own ajv instance, as the library validates (strict: false, allErrors, ajv-formats). */
function validatorOf(schema: JsonSchema | TSchema): (value: unknown) => boolean {
  const ajv = new Ajv({ strict: false, allErrors: true })
  addFormats(ajv)
  const validate = ajv.compile(schema)
  return (value) => validate(value) === true
}

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

const Node = Type.Cyclic({
  Node: Type.Object({ value: Type.Number(), children: Type.Array(Type.Ref('Node')) }),
}, 'Node')

const sessionStatus = Type.Object({
  session_id: Type.String({ minLength: 1 }),
  state: Type.Union([Type.Literal('idle'), Type.Literal('running'), Type.Literal('failed')]),
  started_at: Type.String({ format: 'date-time' }),
  turns: Type.Integer({ minimum: 0 }),
  error: Type.Optional(Type.Union([Type.Null(), Type.Object({ code: Type.String(), message: Type.String() })])),
  tags: Type.Array(Type.String(), { maxItems: 3 }),
}, { additionalProperties: false })

/** Schemas the generator must produce only valid values for, by what they hold. */
const validityFixtures: Record<string, JsonSchema | TSchema> = {
  'closed object with optional integer': Type.Object({ a: Type.String(), b: Type.Optional(Type.Integer({ minimum: 0, maximum: 9 })) }, { additionalProperties: false }),
  'open object (extra keys allowed)': Type.Object({ a: Type.Boolean() }),
  'object with additionalProperties schema': { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: { type: 'integer', minimum: 10 } },
  'union of null, literal and number': Type.Union([Type.Null(), Type.Literal('x'), Type.Number()]),
  'enum': Type.Enum(['alpha', 'beta', 3]),
  'literal number': Type.Literal(7),
  'array with bounds and unique items': Type.Array(Type.Integer({ minimum: 0, maximum: 5 }), { minItems: 2, maxItems: 4, uniqueItems: true }),
  'tuple (draft-07 items array)': Type.Tuple([Type.String(), Type.Number()]),
  'draft-07 tuple with closed rest': { type: 'array', items: [{ type: 'boolean' }, { type: 'null' }], additionalItems: false },
  'draft-07 tuple with open rest': { type: 'array', items: [{ type: 'string', const: 'head' }], additionalItems: { type: 'integer' }, minItems: 1, uniqueItems: true },
  'record (patternProperties)': Type.Record(Type.String(), Type.Number()),
  'cyclic tree (Type.Cyclic)': Node,
  'session status record': sessionStatus,
  'ref to #/$defs': { $defs: { Point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'], additionalProperties: false } }, type: 'array', items: { $ref: '#/$defs/Point' } },
  'recursive ref via #/$defs': { $defs: { List: { type: 'object', properties: { head: { type: 'integer' }, tail: { anyOf: [{ type: 'null' }, { $ref: '#/$defs/List' }] } }, required: ['head', 'tail'] } }, $ref: '#/$defs/List' },
  'type array string|null': { type: ['string', 'null'], maxLength: 3 },
  'empty schema (any JSON)': {},
  'number bounds, exclusive and multipleOf': { type: 'object', properties: {
    ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    step: { type: 'number', multipleOf: 0.25, minimum: -2, maximum: 2 },
    even: { type: 'integer', multipleOf: 2, exclusiveMinimum: 10, maximum: 20 },
    tenth: { type: 'number', multipleOf: 0.1, minimum: 0, maximum: 10 },
  }, required: ['ratio', 'step', 'even', 'tenth'] },
  'strings: length, pattern, formats': { type: 'object', properties: {
    code: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{2,4}$' },
    name: { type: 'string', minLength: 2, maxLength: 5 },
    ...Object.fromEntries(SUPPORTED_FORMATS.map((format) => [format, { type: 'string', format }])),
    custom: { type: 'string', format: 'ticket-id', pattern: '^T[0-9]+$' },
  }, required: ['code', 'name', ...SUPPORTED_FORMATS, 'custom'] },
  'oneOf with overlapping branches': { oneOf: [{ type: 'number' }, { type: 'integer' }] },
  'oneOf of open objects': { oneOf: [
    { type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] },
    { type: 'object', properties: { size: { type: 'integer' } }, required: ['size'] },
  ] },
  'boolean subschemas': { type: 'object', properties: { always: true, never: false }, required: ['always'] },
  'keyword inferred without type': { properties: { a: { minimum: 1 } }, required: ['a'] },
}

describe('jsonSchemaArbitrary', () => {
  for (const [name, schema] of Object.entries(validityFixtures)) {
    for (const [form, fixture] of [['TypeBox/JS object', schema], ['JSON round-trip', json(schema)]] as const) {
      it(`generates only ajv-valid values: ${name} (${form})`, () => {
        const validate = validatorOf(json(fixture))
        fc.assert(fc.property(jsonSchemaArbitrary(fixture), (value) => {
          if (!validate(value)) throw new Error(`invalid value ${JSON.stringify(value)}`)
        }), { numRuns: 300, seed: 7 })
      })
    }
  }

  it('omits optional properties sometimes and includes them sometimes', () => {
    const samples = fc.sample(jsonSchemaArbitrary(validityFixtures['closed object with optional integer']!), { numRuns: 300, seed: 1 }) as Array<Record<string, unknown>>
    expect(samples.some((record) => 'b' in record)).toBe(true)
    expect(samples.some((record) => !('b' in record))).toBe(true)
    expect(samples.every((record) => Object.keys(record).every((key) => key === 'a' || key === 'b'))).toBe(true)
  })

  it('adds extra keys to open objects, valid under additionalProperties', () => {
    const samples = fc.sample(jsonSchemaArbitrary(validityFixtures['object with additionalProperties schema']!), { numRuns: 300, seed: 2 }) as Array<Record<string, unknown>>
    const extras = samples.flatMap((record) => Object.keys(record).filter((key) => key !== 'id'))
    expect(extras.length).toBeGreaterThan(20)
    const open = fc.sample(jsonSchemaArbitrary(Type.Object({ a: Type.Boolean() })), { numRuns: 300, seed: 3 }) as Array<Record<string, unknown>>
    expect(open.some((record) => Object.keys(record).length > 1)).toBe(true)
  })

  it('generates __proto__ as an own key without changing the prototype', () => {
    const samples = fc.sample(jsonSchemaArbitrary({ type: 'object', additionalProperties: { type: 'integer' } }), { numRuns: 1000, seed: 4 }) as object[]
    const polluted = samples.filter((record) => Object.prototype.hasOwnProperty.call(record, '__proto__'))
    expect(polluted.length).toBeGreaterThan(0)
    for (const record of polluted) expect(Object.getPrototypeOf(record)).toBe(Object.prototype)
  })

  it('recurses into Type.Cyclic schemas and stops at maxDepth', () => {
    const depthOf = (node: { children: unknown[] }): number =>
      1 + Math.max(0, ...node.children.map((child) => depthOf(child as { children: unknown[] })))
    const depths = fc.sample(jsonSchemaArbitrary(Node, { maxDepth: 3 }), { numRuns: 500, seed: 5 }).map((node) => depthOf(node as { children: unknown[] }))
    expect(Math.max(...depths)).toBe(3)
    expect(Math.min(...depths)).toBe(1)
  })

  it('matches exactly one oneOf branch (never an integer for oneOf [number, integer])', () => {
    const samples = fc.sample(jsonSchemaArbitrary({ oneOf: [{ type: 'number' }, { type: 'integer' }] }), { numRuns: 300, seed: 6 })
    expect(samples.every((value) => typeof value === 'number' && !Number.isInteger(value))).toBe(true)
  })

  it('returns fresh copies of enum/const values', () => {
    const arbitrary = jsonSchemaArbitrary({ const: { nested: [1] } })
    const [first, second] = fc.sample(arbitrary, { numRuns: 2, seed: 8 }) as Array<{ nested: number[] }>
    expect(first).toEqual({ nested: [1] })
    expect(first).not.toBe(second)
  })

  it('compiles the schema once: sampling does not read the schema again', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }
    const arbitrary = jsonSchemaArbitrary(schema)
    ;(schema.properties.a as { type: string }).type = 'boolean'
    expect(fc.sample(arbitrary, { numRuns: 20, seed: 9 }).every((record) => typeof (record as { a: unknown }).a === 'string')).toBe(true)
  })
})

describe('jsonSchemaArbitrary errors', () => {
  const thrown = (run: () => unknown): SchemaArbitraryError => {
    try {
      run()
    } catch (error) {
      expect(isSchemaArbitraryError(error)).toBe(true)
      expect(error).toBeInstanceOf(TypeError)
      const { problem, pointer, message, problems } = error as SchemaArbitraryError
      // The one problem says the same as the fields: a UsageError like every misuse error.
      expect(problems).toEqual([{ path: pointer, code: problem, message: expect.any(String) }])
      expect(message).toContain(problems[0]!.message)
      return error as SchemaArbitraryError
    }
    throw new Error('expected a SchemaArbitraryError')
  }

  it('names an unsupported keyword and its JSON Pointer (TypeBox Intersect → allOf)', () => {
    const schema = Type.Object({ inner: Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })]) })
    const error = thrown(() => jsonSchemaArbitrary(schema))
    expect(error.code).toBe('schema_arbitrary_unsupported')
    expect(error.problem).toBe('unsupported_keyword')
    expect(error.keyword).toBe('allOf')
    expect(error.pointer).toBe('/properties/inner/allOf')
    expect(error.message).toContain('"allOf"')
    expect(error.message).toContain('/properties/inner/allOf')
  })

  it.each([
    ['not', { not: { type: 'string' } }, '/not'],
    ['propertyNames', { type: 'object', propertyNames: { pattern: '^a' } }, '/propertyNames'],
    ['minProperties', { type: 'object', properties: { x: { type: 'object', minProperties: 1 } } }, '/properties/x/minProperties'],
    ['contains', { type: 'array', items: { type: 'array', contains: { const: 1 } } }, '/items/contains'],
    ['prefixItems', { type: 'array', prefixItems: [{ type: 'string' }] }, '/prefixItems'],
    ['if', { $defs: { X: { if: { type: 'string' } } }, $ref: '#/$defs/X' }, '/$defs/X/if'],
  ])('throws for %s', (keyword, schema, pointer) => {
    const error = thrown(() => jsonSchemaArbitrary(schema))
    expect(error.keyword).toBe(keyword)
    expect(error.pointer).toBe(pointer)
  })

  it('throws for an unknown format without a pattern, an unresolved $ref and anyOf beside type', () => {
    expect(thrown(() => jsonSchemaArbitrary({ type: 'string', format: 'color' })).keyword).toBe('format')
    expect(thrown(() => jsonSchemaArbitrary({ $ref: '#/$defs/Missing' })).problem).toBe('unresolved_ref')
    const combination = thrown(() => jsonSchemaArbitrary({ type: 'object', anyOf: [{ required: ['a'] }] }))
    expect(combination.problem).toBe('unsupported_combination')
    expect(combination.pointer).toBe('/type')
  })

  it('throws unsatisfiable for a required property that recurses without end', () => {
    const schema = Type.Cyclic({ Loop: Type.Object({ next: Type.Ref('Loop') }) }, 'Loop')
    expect(thrown(() => jsonSchemaArbitrary(schema)).problem).toBe('unsatisfiable')
  })
})
