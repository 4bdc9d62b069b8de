import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { describeTool, defineTool } from 'result-views'
import { measureCatalog } from 'result-views/mcp'
import { exampleTools } from '../../examples/tools/catalog.js'
import { noteTool, skillTool } from '../support/tools.js'

const utf8 = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).length

describe('measureCatalog', () => {
  it('measures the three surfaces as UTF-8 JSON bytes of one array entry per tool', () => {
    const tools = exampleTools()
    const descriptors = tools.map(describeTool)
    expect(measureCatalog(tools)).toEqual({
      discovery_bytes: utf8(descriptors),
      mcp_bytes: utf8(descriptors.map((d) => ({ name: d.tool_id, description: d.description, inputSchema: d.input_schema }))),
      model_bytes: utf8(descriptors.map((d) => ({ name: d.tool_id, description: d.description, input_schema: d.input_schema }))),
    })
  })

  it('gives the same figures for tools and for their descriptors, mixed or not', () => {
    const tools = [noteTool(), skillTool()]
    const [note, skill] = tools
    expect(measureCatalog(tools.map(describeTool))).toEqual(measureCatalog(tools))
    expect(measureCatalog([describeTool(note!), skill!])).toEqual(measureCatalog(tools))
  })

  it('counts bytes, not UTF-16 code units', () => {
    const make = (description: string) =>
      defineTool({ id: 'x', description, input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })
    const ascii = measureCatalog([make('ee')])
    const accented = measureCatalog([make('éé')])
    const emoji = measureCatalog([make('🙂')])
    for (const key of ['discovery_bytes', 'mcp_bytes', 'model_bytes'] as const) {
      expect(accented[key] - ascii[key]).toBe(2)
      expect(emoji[key] - ascii[key]).toBe(2)
    }
  })

  it('counts both views in discovery but no output schema in the MCP and model projections', () => {
    const viewed = noteTool()
    const { discovery_bytes, mcp_bytes, model_bytes } = measureCatalog([viewed])
    const descriptor = describeTool(viewed)
    expect(discovery_bytes).toBeGreaterThan(utf8(descriptor.output_views!.full.schema) + utf8(descriptor.output_views!.compact.schema))
    expect(mcp_bytes).toBeLessThan(discovery_bytes - utf8(descriptor.output_views))
    expect(model_bytes).toBe(mcp_bytes + 1) // "input_schema" is one byte longer than "inputSchema"
  })

  it('is additive: a catalog costs the sum of its tools plus the array separators', () => {
    const all = [noteTool(), skillTool(), ...exampleTools()]
    fc.assert(
      fc.property(fc.subarray(all, { minLength: 1 }), (tools) => {
        const whole = measureCatalog(tools)
        const parts = tools.map((t) => measureCatalog([t]))
        for (const key of ['discovery_bytes', 'mcp_bytes', 'model_bytes'] as const) {
          // each single-tool array adds "[" and "]"; the joined array adds one "," between tools
          expect(whole[key]).toBe(parts.reduce((sum, p) => sum + p[key] - 2, 0) + 2 + (tools.length - 1))
        }
      }),
    )
  })

  it('measures an empty catalog as three empty arrays', () => {
    expect(measureCatalog([])).toEqual({ discovery_bytes: 2, mcp_bytes: 2, model_bytes: 2 })
  })
})
