import fc from 'fast-check'
import Type from 'typebox'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createDispatcher, defineTool, type Dispatcher, type InvokeOutcome, type JsonSchema } from 'result-views'
import { jsonSchemaArbitrary } from 'result-views/testing'
import { layout, RECORD_OPTIONS, satisfiable, withTag } from '../support/value-layout.js'

/**
 * A full call copies the handler's record with a copy compiled from the full schema. It must
 * give exactly what the generic copy gives (used where `new Function` is blocked): the same
 * result, key order included, or the same error with the same pointer.
 */

const KEYS = ['a', 'b', 'c', 'constructor', 'x y', '0']

/** Full schemas: objects (open and closed) with typed scalars, nested objects, arrays, nullable objects, tagged unions and open positions. */
const schemaArb: fc.Arbitrary<JsonSchema> = fc.letrec<{ node: JsonSchema; object: JsonSchema }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<JsonSchema>({ type: 'string' }, { type: 'integer' }, { type: 'number' }, { type: 'boolean' }, { type: ['string', 'null'] }, {}, { type: 'object' }, { type: 'array', items: { type: 'string' } }),
    tie('object'),
    tie('object').map((items) => ({ type: 'array', items })),
    tie('object').map((object) => ({ anyOf: [object, { type: 'null' }] })),
    fc.tuple(tie('object'), tie('object')).map(([a, b]) => ({ anyOf: [a, b] })),
    // Tagged unions (a required literal `kind`), nullable or not.
    fc.tuple(tie('object'), tie('object'), fc.boolean()).map(([a, b, nullable]) => ({
      anyOf: [withTag(a, 'one'), withTag(b, 2), ...(nullable ? [{ type: 'null' }] : [])],
    })),
  ),
  object: fc
    .tuple(fc.uniqueArray(fc.tuple(fc.constantFrom(...KEYS), fc.boolean(), tie('node')), { selector: ([key]) => key, maxLength: 5 }), fc.boolean())
    .map(([entries, open]) => {
      const properties: Record<string, JsonSchema> = {}
      for (const [key, , schema] of entries) properties[key] = schema
      const required = entries.filter(([, r]) => r).map(([key]) => key)
      return open ? { type: 'object', properties, required } : { type: 'object', properties, required, additionalProperties: false }
    }),
})).object


const compactOf = { type: 'object', properties: {} } as JsonSchema

/** Two dispatchers over the same schemas: one copies full records with compiled code, one generically. */
function bothCopies(full: JsonSchema, record: () => unknown): { compiled: Dispatcher; generic: Dispatcher } {
  const tool = () => defineTool({ id: 't', description: 'd', input: Type.Object({}), output: { compact: compactOf, full } as never, handler: record as never })
  const compiled = createDispatcher({ tools: [tool()] })
  const generic = createDispatcher({ tools: [tool()] })
  return { compiled, generic }
}


/** The outcome as plain data: the result's layout (key order included), or the error's code, reason and details. */
function view(outcome: InvokeOutcome): unknown {
  if (outcome.status === 'ok') return { layout: layout(outcome.result.structured), preview: outcome.result.preview }
  if (outcome.status === 'error') return { code: outcome.error.code, reason: outcome.error.reason, details: outcome.error.details }
  return outcome.status
}

/** Variants of a record: as generated, keys of every object reversed, and one value replaced by something odd. */
function variants(record: unknown, odd: unknown, at: number): unknown[] {
  const children = (v: unknown): string[] => (typeof v === 'object' && v !== null ? Object.keys(v) : [])
  const size = (v: unknown): number => 1 + children(v).reduce((n, k) => n + size((v as Record<string, unknown>)[k]), 0)
  const rebuild = (v: unknown, leaf: (v: unknown, index: number) => unknown, reverse: boolean): unknown => {
    let count = 0
    const walk = (x: unknown): unknown => {
      const replaced = leaf(x, count++)
      if (replaced !== x) return replaced
      if (Array.isArray(x)) return x.map(walk)
      if (typeof x !== 'object' || x === null) return x
      const keys = children(x)
      const out: Record<string, unknown> = {}
      for (const k of reverse ? keys.reverse() : keys) Object.defineProperty(out, k, { value: walk((x as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true })
      return out
    }
    return walk(v)
  }
  const target = at % size(record)
  // A hidden (non-enumerable) toJSON on the root: not a key, but JSON.stringify would call it.
  const hidden = rebuild(record, (x) => x, false)
  if (typeof hidden === 'object' && hidden !== null) Object.defineProperty(hidden, 'toJSON', { value: () => 1 })
  return [record, rebuild(record, (x) => x, true), rebuild(record, (x, i) => (i === target ? odd : x), false), hidden]
}

class Instance {
  field = 1
}

describe('the compiled full-record copy', () => {
  it('refuses a hidden toJSON on an object or an array it reads field by field, as the generic copy does', async () => {
    const full = Type.Object({ a: Type.Object({ b: Type.String() }), list: Type.Array(Type.Object({ c: Type.Integer() })) })
    const hide = <T extends object>(value: T): T => Object.defineProperty(value, 'toJSON', { value: () => 1 })
    for (const [record, pointer] of [
      [{ a: hide({ b: 'x' }), list: [] }, '/a'],
      [{ a: { b: 'x' }, list: hide([{ c: 1 }]) }, '/list'],
      [{ a: { b: 'x' }, list: [hide({ c: 1 })] }, '/list/0'],
    ] as const) {
      const dispatcher = createDispatcher({ tools: [defineTool({ id: 't', description: 'd', input: Type.Object({}), output: { compact: compactOf, full } as never, handler: () => record })] })
      expect(view(await dispatcher.invoke({ tool_id: 't', input: { result_view: 'full' } }))).toEqual({
        code: 'tool_output_invalid',
        reason: 'output_schema_invalid',
        details: { pointer, problem: 'to_json' },
      })
    }
  })

  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('copies exactly as the generic copy, valid records and odd ones alike', async () => {
    const cases = schemaArb
      .filter((schema) => satisfiable(schema))
      .chain((schema) => fc.tuple(fc.constant(schema), jsonSchemaArbitrary(schema, RECORD_OPTIONS)))
    const odd = fc.constantFrom<unknown>(undefined, NaN, -0, 'a\ud800', [1, , 3], new Date(0), new Instance(), Object.create(null), { toJSON: () => 1 }, () => 1)
    await fc.assert(
      fc.asyncProperty(cases, odd, fc.nat(), async ([schema, generated], value, at) => {
        let current: unknown
        const { compiled, generic } = bothCopies(schema, () => current)
        // Validators compile on a compact call; the generic dispatcher's copy then compiles (once,
        // on its first full call) with code generation blocked, so it is the generic copy.
        await generic.invoke({ tool_id: 't', input: {} })
        vi.stubGlobal('Function', () => {
          throw new EvalError('code generation from strings disallowed')
        })
        try {
          await generic.invoke({ tool_id: 't', input: { result_view: 'full' } })
        } finally {
          vi.unstubAllGlobals()
        }
        for (const record of variants(generated, value, at)) {
          current = record
          const full = { tool_id: 't', input: { result_view: 'full' } }
          expect(view(await compiled.invoke(full))).toEqual(view(await generic.invoke(full)))
        }
      }),
      { numRuns: 80 },
    )
  })
})

