// A schema the draft-07 meta-schema refuses fails every call the same way, not only the first:
// ajv caches a schema before its meta-schema check throws, so a second compile on the shared
// instance used to succeed, run the handler, and answer concurrent first calls with
// `schema_invalid` instead of `schema_compile_failed`.
import { createDispatcher, defineTool, type JsonSchema } from 'result-views'
import { describe, expect, it } from 'vitest'

const closed = (properties: Record<string, unknown>): JsonSchema => ({ type: 'object', properties, additionalProperties: false }) as JsonSchema
const good = (): JsonSchema => closed({ a: { type: 'string' } })

interface Case {
  readonly name: string
  readonly input: () => JsonSchema
  readonly output: () => JsonSchema
  readonly message: string
  /** Whether the handler runs: an output schema is compiled when the record is checked, after it. */
  readonly runsHandler: boolean
}

const cases: Case[] = [
  {
    name: 'input schema (shared instance)',
    input: () => closed({ a: { type: 'string', minLength: -1 } }),
    output: good,
    message: 'tool "probe__meta" input schema cannot be compiled: schema is invalid: data/properties/a/minLength must be >= 0',
    runsHandler: false,
  },
  {
    name: 'output schema (shared instance)',
    input: good,
    output: () => closed({ a: { type: 'string', maxLength: 1.5 } }),
    message: 'tool "probe__meta" output schema cannot be compiled: schema is invalid: data/properties/a/maxLength must be integer',
    runsHandler: true,
  },
  {
    name: 'input schema naming a property Object.prototype has (own-property instance)',
    input: () => closed({ a: { type: 'string', minLength: -1 }, constructor: { type: 'string' } }),
    output: good,
    message: 'tool "probe__meta" input schema cannot be compiled: schema is invalid: data/properties/a/minLength must be >= 0',
    runsHandler: false,
  },
  {
    name: 'input schema with an $id in $defs (an instance of its own)',
    input: () => ({ ...closed({ a: { type: 'string', minLength: -1 } }), $defs: { Node: { $id: 'Node', type: 'string' } } }) as JsonSchema,
    output: good,
    message: 'tool "probe__meta" input schema cannot be compiled: schema is invalid: data/properties/a/minLength must be >= 0',
    runsHandler: false,
  },
]

function probe(testCase: Case) {
  let runs = 0
  const tool = defineTool({
    id: 'probe__meta',
    description: 'meta-schema probe',
    input: testCase.input(),
    output: testCase.output(),
    handler: () => {
      runs += 1
      return { a: 'x' }
    },
  })
  const call = async (dispatcher = createDispatcher({ tools: [tool] })) => {
    const outcome = await dispatcher.invoke({ tool_id: 'probe__meta', input: { a: 'x' } })
    return outcome.status === 'error' ? { code: outcome.error.code, reason: outcome.error.reason, message: outcome.error.message } : { status: outcome.status }
  }
  return { tool, call, runs: () => runs }
}

describe.each(cases)('a meta-invalid $name', (testCase) => {
  const runsFor = (calls: number) => (testCase.runsHandler ? calls : 0)
  const expected = { code: 'tool_execution_failed', reason: 'schema_compile_failed', message: testCase.message }

  it('fails five calls in a row on one dispatcher, its handler never run for an input schema', async () => {
    const { call, runs, tool } = probe(testCase)
    const dispatcher = createDispatcher({ tools: [tool] })
    for (let index = 0; index < 5; index += 1) expect(await call(dispatcher)).toEqual(expected)
    expect(runs()).toBe(runsFor(5))
  })

  it('fails 200 concurrent first calls alike', async () => {
    const { call, runs, tool } = probe(testCase)
    const dispatcher = createDispatcher({ tools: [tool] })
    const outcomes = await Promise.all(Array.from({ length: 200 }, () => call(dispatcher)))
    expect(outcomes).toEqual(Array.from({ length: 200 }, () => expected))
    expect(runs()).toBe(runsFor(200))
  })

  it('fails alike on several dispatchers sharing the tool, and on a second tool with an equal schema', async () => {
    const first = probe(testCase)
    const dispatchers = Array.from({ length: 4 }, () => createDispatcher({ tools: [first.tool] }))
    for (const dispatcher of dispatchers) expect(await first.call(dispatcher)).toEqual(expected)
    const second = probe(testCase)
    expect(await Promise.all([second.call(), second.call(), first.call()])).toEqual([expected, expected, expected])
    expect(first.runs() + second.runs()).toBe(runsFor(7))
  })
})
