import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import Type from 'typebox'
import { canonicalJson, compileProjector, defineTool, isJsonValueError, type JsonSchema, type OmitWhen, type Projector, type ViewedTool } from 'result-views'
import { jsonSchemaArbitrary } from 'result-views/testing'
import { layout, RECORD_OPTIONS, satisfiable, withTag } from '../support/value-layout.js'

/**
 * The typed projector (one function generated per compact schema, handing odd records back) and
 * the general one it hands back to (child objects inlined up to a depth, one literal when every
 * key is present, positions that allow no object or array stripped in place) must give exactly
 * what the plain loop gives where `new Function` is blocked: same keys, same order, same values,
 * or the same error.
 */

const KEYS = ['a', 'b', 'c', 'kind', 'constructor', '__proto__', 'x y']
const TAGS = ['one', 'two', 3, true, null]

/**
 * Object schemas nested up to 6 deep (deeper than the projectors inline), with typed scalar,
 * enum, array, nullable, tagged-union, tuple, pattern and open positions.
 */
const schemaArb: fc.Arbitrary<JsonSchema> = fc.letrec<{ node: JsonSchema; object: JsonSchema }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<JsonSchema>(
      { type: 'string' },
      { type: 'integer' },
      { type: 'number' },
      { type: 'boolean' },
      { type: 'null' },
      { enum: ['x', 2] },
      { const: 's' },
      {},
      { type: 'object' },
      { type: ['string', 'null'] },
      { type: 'array', items: { type: 'string' } },
      { type: 'array', items: [{ type: 'string' }], additionalItems: false },
      { type: 'object', patternProperties: { '^p': { type: 'integer' } } },
      { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      false as unknown as JsonSchema,
    ),
    tie('object'),
    tie('object').map((items) => ({ type: 'array', items })),
    tie('object').map((object) => ({ anyOf: [object, { type: 'null' }] })),
    tie('object').map((object) => ({ ...(object as object), type: ['object', 'array', 'null'], items: { type: 'integer' } })),
    fc.tuple(tie('object'), tie('object'), fc.subarray(TAGS, { minLength: 2, maxLength: 2 })).map(([a, b, [ta, tb]]) => ({
      anyOf: [withTag(a, ta), withTag(b, tb)],
    })),
  ),
  object: fc
    .uniqueArray(fc.tuple(fc.constantFrom(...KEYS.filter((k) => k !== 'kind')), fc.boolean(), tie('node')), { selector: ([key]) => key, maxLength: 5 })
    .map((entries) => {
      const properties: Record<string, JsonSchema> = {}
      for (const [key, , schema] of entries) Object.defineProperty(properties, key, { value: schema, enumerable: true, writable: true, configurable: true })
      return { type: 'object', properties, required: entries.filter(([, required]) => required).map(([key]) => key) }
    }),
})).object


/** Records: nested objects with the schema keys and others, scalars (lone surrogates included), arrays, tags, null and undefined. */
const recordArb: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('s', 'x', 'a\ud800', 1, 2, 2.5, -0, 3, true, false, null, undefined, 'one', 'two', NaN),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS, 'extra', 'p1'), tie('value'), { maxKeys: 6 }),
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

  it('projects records valid under the schema (the typed code runs to its end) exactly as the loop', () => {
    // Valid records take the typed path all the way; one odd value planted in a copy sends it back
    // to the general projector at that point. Both must match the loop.
    const cases = schemaArb
      .filter((schema) => satisfiable(schema))
      .chain((schema) => fc.tuple(fc.constant(schema), fc.array(jsonSchemaArbitrary(schema, RECORD_OPTIONS), { minLength: 1, maxLength: 3 })))
    fc.assert(
      fc.property(cases, fc.constantFrom<unknown>(undefined, NaN, 'odd', 7, null, [], {}, new Date(0)), fc.nat(), ([schema, records], odd, at) => {
        const { generated, looped } = bothVariants(schema)
        for (const record of records) {
          expect(outcome(() => generated(record))).toEqual(outcome(() => looped(record)))
          const planted = plant(record, odd, at)
          expect(outcome(() => generated(planted))).toEqual(outcome(() => looped(planted)))
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
          // canonicalJson throws for anything that is not plain JSON; strings are taken as they
          // are in a projection, so their lone surrogates are made well-formed first.
          expect(() => canonicalJson(wellFormed(out))).not.toThrow()
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
        // Results take strings as they are (lone surrogates included): docs/views.md "What the caller receives".
        const json = s === undefined || s === null || typeof s === 'boolean' || (typeof s === 'number' && Number.isFinite(s)) || typeof s === 'string'
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


describe('value-dependent rules (omitWhen) in both projectors', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  /**
   * Schemas of the differential tests with some of their optional property paths as rules, as a
   * tool whose compact and full views are that schema: the tool whose projector is generated, and
   * the same definition compiled where `new Function` is blocked (the projector compiles on the
   * first compact projection).
   */
  const ruled = schemaArb
    .map((schema) => ({ schema, paths: optionalPaths(schema, '', 0) }))
    .filter(({ paths }) => paths.length > 0)
    .chain(({ schema, paths }) => fc.tuple(fc.constant(schema), fc.subarray(paths, { minLength: 1 })))
    .map(([schema, paths]) => ({ schema, paths, tools: bothTools(schema, paths) }))
    .filter(({ tools }) => tools !== undefined)

  it('the generated projector and the loop give the same record or the same error, rules applied', () => {
    fc.assert(
      fc.property(ruled, fc.array(recordArb, { minLength: 1, maxLength: 4 }), ({ tools }, records) => {
        const { generated, looped } = tools!
        for (const record of records) expect(outcome(() => generated.project(record, 'compact'))).toEqual(outcome(() => looped.project(record, 'compact')))
      }),
      { numRuns: 120 },
    )
  })

  it('on valid records both agree, and the rules only ever drop their own properties from the plain projection', () => {
    const cases = ruled
      .filter(({ schema }) => satisfiable(schema))
      .chain((c) => fc.tuple(fc.constant(c), fc.array(jsonSchemaArbitrary(c.schema, RECORD_OPTIONS), { minLength: 1, maxLength: 3 })))
    let omitted = 0
    let kept = 0
    fc.assert(
      fc.property(cases, ([{ schema, paths, tools }, records]) => {
        const { generated, looped } = tools!
        const plain = compileProjector(schema)
        for (const record of records) {
          const out = generated.project(record, 'compact')
          expect(layout(out)).toEqual(layout(looped.project(record, 'compact')))
          const whole = plain(record)
          const dropped = droppedAt(whole, out, '')
          for (const pointer of dropped) expect(paths.some((path) => matchesRule(path, pointer))).toBe(true)
          omitted += dropped.length
          kept += countAt(out, paths)
        }
      }),
      { numRuns: 120 },
    )
    // Both outcomes of the rules were exercised.
    expect(omitted).toBeGreaterThan(0)
    expect(kept).toBeGreaterThan(0)
  })
})

/** A rule that answers by value, so that both outcomes occur: omit when the value's JSON has an even length. */
const byValue = (value: unknown): boolean => JSON.stringify(value).length % 2 === 0

/** Pointers (with `*` for array items) of the optional properties of an object schema, at most 3 tokens deep. */
function optionalPaths(schema: unknown, prefix: string, depth: number): string[] {
  if (typeof schema !== 'object' || schema === null || depth > 3) return []
  const s = schema as { properties?: Record<string, unknown>; required?: string[]; items?: unknown; anyOf?: unknown[] }
  const paths: string[] = []
  if (Array.isArray(s.anyOf)) {
    // Through a union only when no branch requires what the path names (rules on tags are refused).
    for (const branch of s.anyOf) paths.push(...optionalPaths(branch, prefix, depth))
  }
  if (s.properties !== undefined) {
    for (const key of Object.keys(s.properties)) {
      const token = key.replaceAll('~', '~0').replaceAll('/', '~1')
      if (!(s.required ?? []).includes(key)) paths.push(`${prefix}/${token}`)
      paths.push(...optionalPaths(s.properties[key], `${prefix}/${token}`, depth + 1))
    }
  }
  if (typeof s.items === 'object' && s.items !== null && !Array.isArray(s.items)) paths.push(...optionalPaths(s.items, `${prefix}/*`, depth + 1))
  return [...new Set(paths)]
}

/** The tool of a schema with rules at `paths`, generated and looped; `undefined` when defineTool refuses the pair or a path. */
function bothTools(schema: JsonSchema, paths: readonly string[]): { generated: ViewedTool; looped: ViewedTool } | undefined {
  const omitWhen: OmitWhen = Object.fromEntries(paths.map((path) => [path, byValue]))
  const define = (): ViewedTool =>
    defineTool({ id: 'ruled', description: 'd', input: Type.Object({}), output: { compact: schema as never, full: schema as never }, omitWhen, handler: () => ({}) as never })
  let generated: ViewedTool
  let looped: ViewedTool
  try {
    generated = define()
    looped = define()
  } catch {
    return undefined
  }
  compileBy(generated)
  vi.stubGlobal('Function', () => {
    throw new EvalError('code generation from strings disallowed')
  })
  try {
    compileBy(looped)
  } finally {
    vi.unstubAllGlobals()
  }
  return { generated, looped }
}

/** Compiles a tool's projector by projecting `undefined` (no record: what it answers does not matter). */
function compileBy(tool: ViewedTool): void {
  try {
    tool.project(undefined, 'compact')
  } catch {
    // Only the compilation matters here.
  }
}

/** Pointers of the properties `whole` has and `part` lacks (where both are objects), everything else equal. */
function droppedAt(whole: unknown, part: unknown, pointer: string): string[] {
  if (typeof whole !== 'object' || whole === null) {
    expect(part).toEqual(whole)
    return []
  }
  expect(typeof part === 'object' && part !== null && Array.isArray(part) === Array.isArray(whole)).toBe(true)
  const a = whole as Record<string, unknown>
  const b = part as Record<string, unknown>
  const dropped: string[] = []
  for (const key of Object.keys(a)) {
    const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`
    if (!Object.hasOwn(b, key)) dropped.push(at)
    else dropped.push(...droppedAt(a[key], b[key], at))
  }
  expect(Object.keys(b).every((key) => Object.hasOwn(a, key))).toBe(true)
  return dropped
}

/** Whether a concrete pointer (`/items/3/x`) is one a rule path (`/items/*\/x`) names. */
function matchesRule(path: string, pointer: string): boolean {
  const rule = path.split('/')
  const at = pointer.split('/')
  return rule.length === at.length && rule.every((token, i) => token === at[i] || (token === '*' && /^\d+$/.test(at[i]!)))
}

/** How many properties at rule paths a record still has (rules that kept their property). */
function countAt(record: unknown, paths: readonly string[]): number {
  let count = 0
  const walk = (value: unknown, pointer: string): void => {
    if (typeof value !== 'object' || value === null) return
    for (const key of Object.keys(value)) {
      const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`
      if (!Array.isArray(value) && paths.some((path) => matchesRule(path, at))) count++
      walk((value as Record<string, unknown>)[key], at)
    }
  }
  walk(record, '')
  return count
}

/** A deep copy of `record` with one of its values (the `at`-th in walk order, modulo their count) replaced by `odd`. */
function plant(record: unknown, odd: unknown, at: number): unknown {
  const children = (value: unknown): string[] => (typeof value === 'object' && value !== null ? Object.keys(value) : [])
  const size = (value: unknown): number => 1 + children(value).reduce((n, key) => n + size((value as Record<string, unknown>)[key]), 0)
  const target = at % size(record)
  let count = 0
  const walk = (value: unknown): unknown => {
    if (count++ === target) return odd
    if (Array.isArray(value)) return value.map(walk)
    if (typeof value !== 'object' || value === null) return value
    const out: Record<string, unknown> = {}
    for (const key of children(value)) Object.defineProperty(out, key, { value: walk((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true })
    return out
  }
  return walk(record)
}

/** The value with every string and key made well-formed; anything that is not JSON stays as it is. */
function wellFormed(value: unknown): unknown {
  const fix = (s: string): string => (s as string & { toWellFormed(): string }).toWellFormed()
  if (typeof value === 'string') return fix(value)
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map(wellFormed)
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) Object.defineProperty(out, fix(key), { value: wellFormed((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true })
  return out
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
