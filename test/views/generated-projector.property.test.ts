import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { canonicalJson, compileProjector, isJsonValueError, type JsonSchema, type Projector } from 'result-views'

/**
 * The generated projector (child objects inlined up to a depth, one literal when every key is
 * present, positions that allow no object or array stripped in place) must give exactly what the
 * plain loop gives where `new Function` is blocked: same keys, same order, same values.
 */

const KEYS = ['a', 'b', 'c', 'constructor', '__proto__', 'x y']

/** Object schemas nested up to 6 deep (deeper than the projector inlines), with scalar, array, union and open positions. */
const schemaArb: fc.Arbitrary<JsonSchema> = fc.letrec<{ node: JsonSchema; object: JsonSchema }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<JsonSchema>({ type: 'string' }, { type: 'integer' }, {}, { type: 'object' }, { type: ['string', 'null'] }),
    tie('object'),
    tie('object').map((items) => ({ type: 'array', items })),
    tie('object').map((object) => ({ anyOf: [object, { type: 'null' }] })),
  ),
  object: fc
    .uniqueArray(fc.tuple(fc.constantFrom(...KEYS), fc.boolean(), tie('node')), { selector: ([key]) => key, maxLength: 5 })
    .map((entries) => {
      const properties: Record<string, JsonSchema> = {}
      for (const [key, , schema] of entries) Object.defineProperty(properties, key, { value: schema, enumerable: true, writable: true, configurable: true })
      return { type: 'object', properties, required: entries.filter(([, required]) => required).map(([key]) => key) }
    }),
})).object

/** Records: nested objects with the schema keys and others, scalars, arrays, null and undefined. */
const recordArb: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('s', 1, 2.5, true, null, undefined),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS, 'extra'), tie('value'), { maxKeys: 6 }),
  ),
})).value

/** What a projection gives: the layout of its result, or the code, problem and pointer it throws. */
function outcome(project: () => unknown): unknown {
  try {
    return { layout: layout(project()) }
  } catch (error) {
    const { code, problem, pointer } = error as { code?: unknown; problem?: unknown; pointer?: unknown }
    return { thrown: { code, problem, pointer } }
  }
}

/** The generated projector of a schema, and the loop compiled where `new Function` is blocked. */
function bothVariants(schema: JsonSchema): { generated: Projector; looped: Projector } {
  const generated = compileProjector(schema)
  vi.stubGlobal('Function', () => {
    throw new EvalError('code generation from strings disallowed')
  })
  try {
    return { generated, looped: compileProjector(schema) }
  } finally {
    vi.unstubAllGlobals()
  }
}

describe('generated projector', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('projects exactly as the loop used where code generation is blocked', () => {
    fc.assert(
      fc.property(schemaArb, fc.array(recordArb, { minLength: 1, maxLength: 4 }), (schema, records) => {
        const { generated, looped } = bothVariants(schema)
        for (const record of records) {
          // Both give the same result, or both refuse the same non-JSON value (an `undefined` in
          // a position copied whole) with the same error.
          const a = outcome(() => generated(record))
          const b = outcome(() => looped(record))
          expect(a).toEqual(b)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('returns plain JSON or throws JsonValueError, whatever it is given, in both variants', () => {
    const values = fc.anything({
      withBoxedValues: true,
      withMap: true,
      withSet: true,
      withDate: true,
      withNullPrototype: true,
      withSparseArray: true,
      withTypedArray: true,
      withBigInt: true,
      withObjectString: true,
      key: fc.constantFrom(...KEYS, 'extra', 'a\ud800'),
      stringUnit: 'binary',
    })
    const anything = fc.oneof(values, fc.constantFrom(NaN, Infinity, 'x\udc00', [undefined], { a: [1, , 2] }, { a: new Date(0) }))
    fc.assert(
      fc.property(schemaArb, anything, (schema, value) => {
        const { generated, looped } = bothVariants(schema)
        for (const project of [generated, looped]) {
          let out: unknown
          try {
            out = project(value)
          } catch (error) {
            expect(isJsonValueError(error)).toBe(true)
            continue
          }
          // canonicalJson throws for anything that is not plain JSON.
          expect(() => canonicalJson(out)).not.toThrow()
        }
      }),
      { numRuns: 1000 },
    )
  })

  it('checks a scalar exactly as the loop does: one leaf check, inlined or called, on every kind of value', () => {
    // Scalar positions of a declared property, an inlined child and a union: the generated code
    // inlines the leaf check there, the loop calls it; both must accept and refuse the same values.
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        s: { type: ['string', 'number', 'boolean', 'null'] },
        inner: { type: 'object', properties: { t: {} , u: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } },
      },
    }
    const { generated, looped } = bothVariants(schema)
    const scalar = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constantFrom(null, undefined, NaN, Infinity, -Infinity, -0, '\ud800', 'a\udfff', '\ud83d\ude80', 10n, Symbol('s'), () => 1),
    )
    fc.assert(
      fc.property(scalar, scalar, scalar, (s, t, u) => {
        for (const record of [{ s }, { inner: { t, u } }]) expect(outcome(() => generated(record))).toEqual(outcome(() => looped(record)))
        const accepted = outcome(() => generated({ s })) as { thrown?: unknown }
        const json = s === undefined || s === null || typeof s === 'boolean' || (typeof s === 'number' && Number.isFinite(s)) || (typeof s === 'string' && (s as string & { isWellFormed(): boolean }).isWellFormed())
        expect(accepted.thrown === undefined).toBe(json)
      }),
      { numRuns: 2000 },
    )
  })

  it('keeps the key order (required keys first) when every key is present, nested objects included', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        opt: { type: 'string' },
        req: { type: 'string' },
        inner: { type: 'object', properties: { y: { type: 'integer' }, x: { type: 'integer' } }, required: ['x'] },
      },
      required: ['req', 'inner'],
    }
    const out = compileProjector(schema)({ opt: 'o', req: 'r', inner: { y: 2, x: 1, z: 3 }, extra: 1 })
    expect(keyOrder(out)).toEqual(['req', 'inner', 'inner.x', 'inner.y', 'opt'])
  })

  it('strips an object or array where only scalars are allowed, inlined children included', () => {
    const schema: JsonSchema = { type: 'object', properties: { inner: { type: 'object', properties: { s: { type: 'string' } } } } }
    expect(compileProjector(schema)({ inner: { s: { leak: 1 } } })).toStrictEqual({ inner: { s: {} } })
    expect(compileProjector(schema)({ inner: { s: ['leak'] } })).toStrictEqual({ inner: { s: [] } })
  })
})

/**
 * A value as plain data that `toEqual` compares exactly: each object or array as its prototype
 * and its own entries in enumeration order (so `__proto__` and `constructor` keys are data too).
 */
function layout(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value === undefined ? { undefined: true } : value
  const proto = Object.getPrototypeOf(value)
  return {
    proto: proto === Object.prototype ? 'object' : proto === Array.prototype ? 'array' : 'other',
    entries: Object.keys(value).map((key) => [key, layout((value as Record<string, unknown>)[key])]),
  }
}

/** Every key path of a value, in enumeration order. */
function keyOrder(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return []
  const out: string[] = []
  for (const key of Object.keys(value)) {
    const path = Array.isArray(value) ? `${prefix}${key}` : prefix + key
    if (!Array.isArray(value)) out.push(path)
    out.push(...keyOrder((value as Record<string, unknown>)[key], `${path}.`))
  }
  return out
}
