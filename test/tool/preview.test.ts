import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, type InvokeOutcome } from 'result-views'

/** The documented default preview: the record's JSON, cut after 200 characters with `…`. */
function cutJson(value: unknown): string {
  const text = JSON.stringify(value)
  return text.length <= 200 ? text : text.slice(0, 200) + '…'
}

function echoDispatcher() {
  let record: unknown
  const tool = defineTool({ id: 'echo', description: 'returns what it is given', input: Type.Object({}), output: Type.Unknown(), handler: () => record })
  const dispatcher = createDispatcher({ tools: [tool] })
  return async (value: unknown): Promise<InvokeOutcome> => {
    record = value
    return dispatcher.invoke({ tool_id: 'echo', input: {} })
  }
}

function previewOf(outcome: InvokeOutcome): string {
  if (outcome.status !== 'ok') throw new Error(`expected a result, got ${JSON.stringify(outcome)}`)
  return outcome.result.preview
}

describe('default preview', () => {
  const echo = echoDispatcher()

  it('is the JSON text of the result cut after 200 characters, for any JSON value', async () => {
    // Full Unicode strings (surrogate pairs included, which a cut may split), keys that need
    // escaping, nesting: the bounded writer must agree with JSON.stringify on every one.
    const values = fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' })
    await fc.assert(
      fc.asyncProperty(values, async (value) => {
        expect(previewOf(await echo(value))).toBe(cutJson(value))
      }),
      { numRuns: 500 },
    )
  })

  it('agrees with JSON.stringify at every cut position of strings that need escaping', async () => {
    const unit = fc.constantFrom('a', '"', '\\', '\n', '\u0001', '😀', 'é', '\u2028')
    const text = fc.array(unit, { minLength: 150, maxLength: 260 }).map((units) => units.join(''))
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 60 }), text, async (pad, value) => {
        const record = { [('k' as string).repeat(pad + 1)]: value, after: [value, 1, null, true] }
        expect(previewOf(await echo(record))).toBe(cutJson(record))
      }),
      { numRuns: 300 },
    )
  })

  it('writes declared property names exactly, escapes included, at every cut', async () => {
    // Names the schema declares are written from literals made once per tool: check them
    // against JSON.stringify where the cut falls inside or right after a name.
    const names = ['id', 'a"b', 'back\\slash', 'line\nbreak', '😀', 'x'.repeat(190), '\u2028']
    const properties = Object.fromEntries(names.map((name) => [name, Type.Optional(Type.Unknown())]))
    let record: unknown
    const tool = defineTool({ id: 'declared', description: 'd', input: Type.Object({}), output: Type.Object(properties), handler: () => record as never })
    const dispatcher = createDispatcher({ tools: [tool] })
    const value = fc.jsonValue({ maxDepth: 2, stringUnit: 'binary' })
    const records = fc.tuple(fc.string({ maxLength: 200 }), fc.dictionary(fc.constantFrom(...names, 'other'), value, { maxKeys: 5 }))
    await fc.assert(
      fc.asyncProperty(records, async ([pad, fields]) => {
        record = { pad, ...fields, nested: fields }
        expect(previewOf(await dispatcher.invoke({ tool_id: 'declared', input: {} }))).toBe(cutJson(record))
      }),
      { numRuns: 500 },
    )
  })

  it('writes only the start of a large result', async () => {
    const big = { items: Array.from({ length: 100_000 }, (_, i) => ({ i, name: `item-${i}` })), note: 'x'.repeat(1_000_000) }
    const preview = previewOf(await echo(big))
    expect(preview).toBe(cutJson(big))
    expect(preview).toHaveLength(201)
  })

  it('keeps short results whole, without an ellipsis', async () => {
    for (const value of [{}, [], null, 0, -0, 1e21, 'x', { a: [] }, { '': { '': '' } }]) {
      expect(previewOf(await echo(value))).toBe(JSON.stringify(value))
    }
  })
})

describe("a tool's preview never costs the result", () => {
  const make = (preview: (record: { id: string }) => unknown, sensitive: string[] = []) =>
    createDispatcher({
      tools: [
        defineTool({
          id: 'p',
          description: 'd',
          input: Type.Object({ secret: Type.Optional(Type.String()) }),
          output: Type.Object({ id: Type.String() }),
          sensitiveInputFields: sensitive,
          preview: preview as never,
          handler: () => ({ id: 'r1' }),
        }),
      ],
    })

  it.each([
    ['throws', () => { throw new Error('preview boom') }],
    ['returns a number', () => 5],
    ['returns an object', (r: { id: string }) => ({ shown: r.id })],
    ['returns a promise', async () => 'late'],
  ])('falls back to the default preview when it %s', async (_name, preview) => {
    const outcome = await make(preview, ['secret']).invoke({ tool_id: 'p', input: { secret: 'sk-live-123456' } })
    expect(outcome).toMatchObject({ status: 'ok', result: { structured: { id: 'r1' }, preview: '{"id":"r1"}' } })
  })
})

describe("a tool's own preview", () => {
  it("a tool's own preview never changes the result, and a label that is not well-formed falls back", async () => {
    const Full = Type.Object({ id: Type.String(), n: Type.Number() })
    const meddle = (r: Record<string, unknown>) => {
      r.n = NaN
      r.when = new Date(0)
      r.id = '\ud800'
      return 'label \udc00'
    }
    const dispatcher = createDispatcher({
      tools: [
        defineTool({ id: 'v', description: 'd', input: Type.Object({}), output: { compact: Type.Object({ id: Type.String() }), full: Full }, handler: () => ({ id: 'a', n: 1 }), preview: meddle as never }),
        defineTool({ id: 's', description: 'd', input: Type.Object({}), output: Full, handler: () => ({ id: 'a', n: 1 }), preview: meddle as never }),
      ],
    })
    for (const [tool_id, input, structured] of [
      ['v', {}, { id: 'a' }],
      ['v', { result_view: 'full' }, { id: 'a', n: 1 }],
      ['s', {}, { id: 'a', n: 1 }],
    ] as const) {
      const outcome = await dispatcher.invoke({ tool_id, input })
      if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome))
      expect(outcome.result.structured).toEqual(structured)
      expect(outcome.result.preview).toBe(JSON.stringify(structured))
    }
  })
})
