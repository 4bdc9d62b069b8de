// Property: a sparse array (huge or small, empty or after a few dense elements) placed at any
// depth, under any keys (with "/", "~" and polluting names), in the input, the handler's record
// (compact and full calls) or a pre-call patch, is refused with the typed error of that position,
// naming the JSON Pointer of its first hole. A walk over the indices would time the test out.
import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { errorOf } from '../support/outcomes.js'

type Token = string | number

/** Where the array sits: keys and indices from the field `data`, the first hole's index, and how long the array is. */
const placement = fc.record({
  path: fc.array(fc.oneof(fc.constantFrom('a', 'a/b', '~0', 'x~1y', '__proto__', 'constructor', 'items'), fc.nat({ max: 2 })), { maxLength: 6 }),
  dense: fc.nat({ max: 3 }),
  length: fc.constantFrom(2 ** 32 - 1, 2 ** 26, 10),
})

const escape = (token: Token): string => String(token).replace(/~/g, '~0').replace(/\//g, '~1')

/** The value holding the sparse array at `path` (indices become arrays padded with nulls), and the pointer of its first hole from the value's root. */
function build({ path, dense, length }: { path: Token[]; dense: number; length: number }): { value: unknown; pointer: string } {
  const array: unknown[] = []
  for (let i = 0; i < dense; i++) array[i] = i
  array.length = Math.max(length, dense + 1)
  let value: unknown = array
  for (let i = path.length - 1; i >= 0; i--) {
    const token = path[i]!
    if (typeof token === 'number') {
      const items: unknown[] = new Array(token).fill(null)
      items.push(value)
      value = items
    } else {
      const record = {}
      Object.defineProperty(record, token, { value, enumerable: true, writable: true, configurable: true })
      value = record
    }
  }
  return { value, pointer: [...path, dense].map((token) => '/' + escape(token)).join('') }
}

function harness(record: () => unknown, patch?: () => unknown) {
  const calls: unknown[] = []
  const tool = defineTool({
    id: 'data__echo',
    description: 'Returns what the test gives it.',
    input: Type.Object({ data: Type.Optional(Type.Unknown()) }),
    output: { compact: Type.Object({ data: Type.Unknown() }), full: Type.Object({ data: Type.Unknown(), more: Type.Optional(Type.String()) }) },
    handler: (input) => (calls.push(input), record() as never),
  })
  const hooks = patch === undefined ? {} : { 'tool.pre_call': () => patch() as never }
  return { dispatcher: createDispatcher({ tools: [tool], hooks }), calls }
}

describe('a sparse array anywhere', () => {
  it('in the input: non_json_input at its first hole, and the handler never runs', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(placement, async (where) => {
        const { value, pointer } = build(where)
        const { dispatcher, calls } = harness(() => ({ data: null }))
        const error = errorOf(await dispatcher.invoke({ tool_id: 'data__echo', input: { data: value } }))
        expect(error).toMatchObject({ code: 'tool_invalid_input', reason: 'non_json_input', details: { pointer: `/data${pointer}`, problem: 'sparse_array' } })
        expect(calls).toEqual([])
      }),
      { numRuns: 150 },
    )
  })

  it('in the record, compact or full: output_schema_invalid at its first hole', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(placement, fc.constantFrom('compact', 'full'), async (where, view) => {
        const { dispatcher } = harness(() => ({ data: build(where).value }))
        const error = errorOf(await dispatcher.invoke({ tool_id: 'data__echo', input: { result_view: view } }))
        expect(error).toMatchObject({ code: 'tool_output_invalid', reason: 'output_schema_invalid', details: { pointer: `/data${build(where).pointer}`, problem: 'sparse_array' } })
      }),
      { numRuns: 150 },
    )
  })

  it('in a pre-call patch: hook_patch_invalid naming its first hole, and the handler never runs', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(placement, async (where) => {
        const { value, pointer } = build(where)
        const { dispatcher, calls } = harness(() => ({ data: null }), () => ({ tool_input: { data: value } }))
        const error = errorOf(await dispatcher.invoke({ tool_id: 'data__echo', input: {} }))
        expect(error).toMatchObject({ code: 'tool_hook_failed', reason: 'hook_patch_invalid', message: `tool "data__echo" pre-call hook returned an invalid patch: the patched tool_input is not plain JSON at "/data${pointer}"` })
        expect(calls).toEqual([])
      }),
      { numRuns: 150 },
    )
  })
})
