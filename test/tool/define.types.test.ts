import Type from 'typebox'
import { describe, expectTypeOf, it } from 'vitest'
import { defineTool, type SingleResultTool, type Tool, type ToolInput, type ToolRecord, type View, type ViewedTool } from 'result-views'

const input = Type.Object({ id: Type.String() }, { additionalProperties: false })
const compact = Type.Object({ id: Type.String() }, { additionalProperties: false })
const full = Type.Object({ id: Type.String(), tags: Type.Optional(Type.Array(Type.String())) }, { additionalProperties: false })

describe('defineTool types', () => {
  it('returns ViewedTool for a view pair, even when the handler omits an optional field', () => {
    const tool = defineTool({ id: 't', description: 'd', input, output: { compact, full }, handler: (i) => ({ id: i.id }) })
    expectTypeOf(tool).toEqualTypeOf<ViewedTool<typeof input, typeof compact, typeof full>>()
    expectTypeOf(tool).toExtend<ViewedTool>()
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
    expectTypeOf(tool).toEqualTypeOf<SingleResultTool<typeof input, typeof full>>()
    expectTypeOf(tool).toExtend<SingleResultTool>()
  })

  it('keeps the schema types through a catalog: typed tools fit Tool[] and DispatcherOptions', () => {
    const viewed = defineTool({ id: 'v', description: 'd', input, output: { compact, full }, handler: (i) => ({ id: i.id }) })
    const single = defineTool({ id: 's', description: 'd', input, output: full, handler: (i) => ({ id: i.id }) })
    expectTypeOf([viewed, single]).toExtend<readonly Tool[]>()
    expectTypeOf<ToolInput<typeof viewed>>().toEqualTypeOf<{ id: string } & { readonly result_view?: View }>()
    expectTypeOf<ToolInput<typeof single>>().toEqualTypeOf<{ id: string }>()
    expectTypeOf<ToolRecord<typeof viewed>>().toEqualTypeOf<{ id: string }>()
    expectTypeOf<ToolRecord<typeof viewed, 'full'>>().toEqualTypeOf<{ id: string; tags?: string[] }>()
    expectTypeOf<ToolRecord<typeof single, 'full'>>().toEqualTypeOf<{ id: string; tags?: string[] }>()
    // A tool whose schemas are not known statically reads as unknown.
    expectTypeOf<ToolInput<Tool>>().toBeUnknown()
  })

  it('types the handler result against the full view', () => {
    // @ts-expect-error: the full view requires `id` to be a string
    defineTool({ id: 't', description: 'd', input, output: { compact, full }, handler: () => ({ id: 1 }) })
  })
})
