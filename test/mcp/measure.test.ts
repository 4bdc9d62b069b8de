import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { describeTool, defineTool } from 'result-views'
import { isMcpOptionsError, measureCatalog, toMcpTool, type McpOptionsError } from 'result-views/mcp'
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

describe('measureCatalog argument checks (McpOptionsError, code mcp_options_invalid)', () => {
  const problemsOf = (run: () => unknown): Array<{ path: string; code: string; message: string }> => {
    try {
      run()
    } catch (error) {
      expect(isMcpOptionsError(error)).toBe(true)
      expect(error).toMatchObject({ code: 'mcp_options_invalid' })
      expect((error as Error).message.startsWith('measureCatalog tools is invalid: ')).toBe(true)
      return [...(error as McpOptionsError).problems]
    }
    throw new Error('expected measureCatalog to throw')
  }

  it('refuses a non-array argument', () => {
    for (const bad of [null, undefined, {}, 'tools', 3]) {
      expect(problemsOf(() => measureCatalog(bad as never))).toEqual([{ path: '', code: 'invalid_catalog', message: 'tools must be an array of tools from defineTool or tool descriptors' }])
    }
  })

  it('names every entry that is neither a defined tool nor a descriptor, by index', () => {
    const note = noteTool()
    const lookalike = { ...note } // copies fields but not the defineTool brand
    const entries = [note, {}, null, lookalike, { tool_id: 'x', description: 'd', input_schema: [] }, undefined]
    expect(problemsOf(() => measureCatalog(entries as never))).toEqual(
      [1, 2, 3, 4, 5].map((i) => ({ path: `/${i}`, code: 'not_a_tool', message: `tools[${i}] must be a tool from defineTool or a tool descriptor (tool_id, description, input_schema)` })),
    )
  })

  it('rejects a tool_id given twice, whether as tool or descriptor', () => {
    const note = noteTool()
    expect(problemsOf(() => measureCatalog([note, skillTool(), describeTool(note)]))).toEqual([{ path: '/2', code: 'duplicate_tool_id', message: 'tools[2] repeats tool_id "notes__read" of tools[0]' }])
  })

  it('strips $schema from model_bytes as from mcp_bytes, so model_bytes = mcp_bytes + one byte per tool', () => {
    const dialect = 'http://json-schema.org/draft-07/schema#'
    const dialected = defineTool({
      id: 'docs__validate',
      description: 'Validate.',
      input: Type.Object({ pair: Type.Tuple([Type.String(), Type.Number()]) }, { $schema: dialect }),
      output: Type.Object({}),
      handler: () => ({}),
    })
    const size = measureCatalog([dialected])
    const d = describeTool(dialected)
    const listed = toMcpTool(d).inputSchema
    expect(JSON.stringify(listed)).not.toContain(dialect)
    expect(size.model_bytes).toBe(utf8([{ name: d.tool_id, description: d.description, input_schema: listed }]))
    expect(size.model_bytes).toBe(size.mcp_bytes + 1)
    const catalog = [...exampleTools(), dialected, noteTool(), skillTool()]
    const all = measureCatalog(catalog)
    expect(all.model_bytes).toBe(all.mcp_bytes + catalog.length)
  })
})
