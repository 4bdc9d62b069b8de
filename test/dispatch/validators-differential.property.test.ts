import { Ajv, type ValidateFunction } from 'ajv'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, type Dispatcher, type JsonSchema } from 'result-views'

/**
 * The dispatcher decides validity with validators compiled per schema for speed: ajv's unrolled
 * `required` check unless a `required` lists "" (the unrolled check never enforces that key), and
 * ordinary property reads unless the schema names a property `Object.prototype` has. Whatever it
 * picks, its answer on the input, on a compact call (the handler's own record) and on a full call
 * (the record's copy) must be the strict one: ajv reporting every error (which enforces "" in
 * every mode) on own properties only. With `Object.prototype` polluted after the validators were
 * compiled, the answer is the documented one: own properties for schemas naming a property
 * `Object.prototype` has, ordinary reads for the others.
 */

const INHERITED = ['constructor', 'toString', 'valueOf', '__proto__'] as const
/** Property names of the schemas (`defineTool` refuses a `__proto__` property, so it is only ever an extra key of a value). */
const KEYS = ['', 'a', 'b', 'c', 'd', 'constructor', 'toString'] as const
const EXTRA_KEYS = [...KEYS, '__proto__'] as const
/** The keys polluted onto `Object.prototype` in the polluted runs. */
const POLLUTED = ['a', 'b', 'c', 'd'] as const

const strict = new Ajv({ strict: true, strictNumbers: true, allowUnionTypes: true, allErrors: true, ownProperties: true })
const ordinary = new Ajv({ strict: true, strictNumbers: true, allowUnionTypes: true, allErrors: true })
/** ajv stopping at the first error with its unrolled `required` check, which lets a missing "" key pass (ajv#2077). */
const unrolled = new Ajv({ strict: true, strictNumbers: true, allowUnionTypes: true, ownProperties: true })

/** Object schemas (open or closed) with "", inherited names and plain names, nested through properties, arrays and unions. */
const schemaArb: fc.Arbitrary<JsonSchema> = fc.letrec<{ node: JsonSchema; object: JsonSchema }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: fc.constantFrom<JsonSchema>({ type: 'string' }, { type: 'integer' }, { type: ['string', 'null'] }) },
    tie('object'),
    tie('object').map((items) => ({ type: 'array', items })),
    tie('object').map((object) => ({ anyOf: [object, { type: 'null' }] })),
  ),
  object: fc
    .tuple(fc.uniqueArray(fc.tuple(fc.oneof({ weight: 2, arbitrary: fc.constant('') }, fc.constantFrom(...KEYS)), fc.boolean(), tie('node')), { selector: ([key]) => key, maxLength: 3 }), fc.boolean())
    .map(([entries, open]) => {
      const properties: Record<string, JsonSchema> = {}
      for (const [key, , schema] of entries) Object.defineProperty(properties, key, { value: schema, enumerable: true, writable: true, configurable: true })
      const required = entries.filter(([, r]) => r).map(([key]) => key)
      return open ? { type: 'object', properties, required } : { type: 'object', properties, required, additionalProperties: false }
    }),
})).object

/** An own data property, whatever the key (`__proto__` included). */
function setOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

/** Values near a schema: mostly valid, sometimes a member missing, mistyped or extra; objects with `Object.prototype` or a null prototype. */
function valueArb(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const s = schema as { type?: unknown; properties?: Record<string, JsonSchema>; required?: string[]; items?: JsonSchema; anyOf?: JsonSchema[] }
  const wrong = fc.constantFrom<unknown>(1, 'x', null, true, [])
  if (s.anyOf !== undefined) return fc.oneof(valueArb(s.anyOf[0]!, depth + 1), fc.constant(null))
  if (s.type === 'string') return fc.oneof({ weight: 12, arbitrary: fc.string({ maxLength: 3 }) }, { weight: 1, arbitrary: wrong })
  if (s.type === 'integer') return fc.oneof({ weight: 12, arbitrary: fc.integer() }, { weight: 1, arbitrary: wrong })
  if (Array.isArray(s.type)) return fc.oneof(fc.string({ maxLength: 3 }), fc.constant(null), wrong)
  if (s.type === 'array') return depth > 4 ? fc.constant([]) : fc.array(valueArb(s.items!, depth + 1), { maxLength: 2 })
  const properties = s.properties ?? {}
  const required = new Set(s.required ?? [])
  const members = Object.keys(properties).map((key) =>
    fc.tuple(fc.constant(key), fc.double({ min: 0, max: 1, noNaN: true }), depth > 4 ? fc.constant({}) : valueArb(properties[key]!, depth + 1)),
  )
  return fc.tuple(fc.tuple(...members), fc.boolean(), fc.option(fc.constantFrom(...EXTRA_KEYS), { nil: undefined })).map(([chosen, nullPrototype, extra]) => {
    const out: object = nullPrototype ? Object.create(null) : {}
    for (const [key, roll, value] of chosen) if (roll < (required.has(key) ? 0.8 : 0.5)) setOwn(out, key, value)
    if (extra !== undefined && !Object.prototype.hasOwnProperty.call(out, extra)) setOwn(out, extra, 'extra')
    return out
  })
}

/** Whether any key or string of the schema is a name `Object.prototype` answers for (unpolluted). */
function namesInherited(value: unknown): boolean {
  if (typeof value === 'string') return (INHERITED as readonly string[]).includes(value)
  if (typeof value !== 'object' || value === null) return false
  return Object.entries(value).some(([key, child]) => (INHERITED as readonly string[]).includes(key) || namesInherited(child))
}

/** A reference validator, compiled afresh (ajv caches by identity: the schema is removed again at once). */
function compiled(ajv: Ajv, schema: JsonSchema): ValidateFunction {
  const validate = ajv.compile(schema as object)
  ajv.removeSchema(schema as object)
  return validate
}

/** The judgement of a reference validator on one value. */
function judge(ajv: Ajv, schema: JsonSchema, value: unknown): boolean {
  return compiled(ajv, schema)(value)
}

const plainCopy = (value: unknown): unknown => JSON.parse(JSON.stringify(value))

/** One dispatcher whose tools take `value` as input (`in`), and return it as a record (`out`, compact and full). */
function dispatcherFor(schema: JsonSchema, value: () => unknown): Dispatcher {
  const open = { type: 'object' } as JsonSchema
  const compact = { type: 'object', properties: {} } as JsonSchema
  return createDispatcher({
    tools: [
      defineTool({ id: 'in', description: 'd', input: schema as never, output: open as never, handler: () => ({}) }),
      defineTool({ id: 'out', description: 'd', input: { type: 'object' } as never, output: { compact, full: schema } as never, handler: value as never }),
    ],
  })
}

/** What the three calls of the dispatcher say of `value`: valid or not, on the input, the compact record and the full record. */
async function verdicts(dispatcher: Dispatcher, value: unknown): Promise<{ input: boolean; compact: boolean; full: boolean }> {
  const status = async (tool_id: string, input: unknown, refused: string): Promise<boolean> => {
    const outcome = await dispatcher.invoke({ tool_id, input })
    if (outcome.status === 'ok') return true
    expect(outcome).toMatchObject({ status: 'error', error: { code: refused } })
    return false
  }
  return {
    input: await status('in', value, 'tool_invalid_input'),
    compact: await status('out', {}, 'tool_output_invalid'),
    full: await status('out', { result_view: 'full' }, 'tool_output_invalid'),
  }
}

const cases = schemaArb.chain((schema) => fc.tuple(fc.constant(schema), valueArb(schema)))

describe('the validators the dispatcher picks per schema', () => {
  it('answer as strict ajv (every error, own properties) on inputs, compact records and full records', async () => {
    let emptyKeyRefusals = 0
    await fc.assert(
      fc.asyncProperty(cases, async ([schema, value]) => {
        const expected = judge(strict, schema, value)
        const dispatcher = dispatcherFor(schema, () => value)
        expect(await verdicts(dispatcher, value)).toEqual({ input: expected, compact: expected, full: expected })
        if (!expected && judge(unrolled, schema, value)) emptyKeyRefusals++
      }),
      { numRuns: 400, seed: 2077 },
    )
    // The generators reach the case the loop is there for: a value the unrolled check lets pass without its "" key.
    expect(emptyKeyRefusals).toBeGreaterThanOrEqual(3)
  })

  it('with Object.prototype polluted after compiling, read own properties where the schema names an inherited one, ordinary properties elsewhere', async () => {
    let seenInherited = 0
    await fc.assert(
      fc.asyncProperty(cases, async ([schema, value]) => {
        const dispatcher = dispatcherFor(schema, () => value)
        // Compiles every validator (and the record copy) before the pollution.
        await verdicts(dispatcher, value)
        // Compiled before the pollution too, as the dispatcher's are.
        const reference = compiled(namesInherited(schema) ? strict : ordinary, schema)
        // The input and the full record are judged on their plain copies (objects with
        // Object.prototype); the compact record as the handler returned it.
        const copy = plainCopy(value)
        for (const key of POLLUTED) Object.defineProperty(Object.prototype, key, { value: 'polluted', enumerable: false, writable: true, configurable: true })
        let got
        let expected
        try {
          got = await verdicts(dispatcher, value)
          expected = { input: reference(copy), compact: reference(value), full: reference(copy) }
        } finally {
          for (const key of POLLUTED) delete (Object.prototype as Record<string, unknown>)[key]
        }
        expect(got).toEqual(expected)
        const unpolluted = judge(strict, schema, value)
        if (got.compact !== unpolluted || got.full !== unpolluted) seenInherited++
      }),
      { numRuns: 150, seed: 2077 },
    )
    // The pollution is seen (a missing "a" read through Object.prototype): the two references differ on these cases.
    expect(seenInherited).toBeGreaterThan(0)
  })
})
