import Type from 'typebox'
import { describe, expectTypeOf, it } from 'vitest'
import { defineTool, type SingleResultTool, type ViewedTool } from 'result-views'

const input = Type.Object({ id: Type.String() }, { additionalProperties: false })
const compact = Type.Object({ id: Type.String() }, { additionalProperties: false })
const full = Type.Object({ id: Type.String(), tags: Type.Optional(Type.Array(Type.String())) }, { additionalProperties: false })

describe('defineTool types', () => {
  it('returns ViewedTool for a view pair, even when the handler omits an optional field', () => {
    const tool = defineTool({ id: 't', description: 'd', input, output: { compact, full }, handler: (i) => ({ id: i.id }) })
    expectTypeOf(tool).toEqualTypeOf<ViewedTool>()
  })

  it('returns SingleResultTool for one output schema, with a typed handler input', () => {
    const tool = defineTool({
      id: 't',
      description: 'd',
      input,
      output: full,
      handler: (i) => {
        expectTypeOf(i).toEqualTypeOf<{ id: string }>()
        return { id: i.id }
      },
    })
    expectTypeOf(tool).toEqualTypeOf<SingleResultTool>()
  })

  it('types the handler result against the full view', () => {
    // @ts-expect-error: the full view requires `id` to be a string
    defineTool({ id: 't', description: 'd', input, output: { compact, full }, handler: () => ({ id: 1 }) })
  })
})
