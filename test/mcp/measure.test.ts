import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { describeTool, defineTool } from 'result-views'
import { isMcpOptionsError, measureCatalog, toMcpTool, type McpOptionsError } from 'result-views/mcp'
import { exampleTools } from '../../examples/tools/catalog.js'
import { noteTool, skillTool } from '../support/tools.js'

const utf8 = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).length

/** The MCP annotations of a descriptor, by docs/mcp.md's table. */
const hintsOf = (d: { read_only?: boolean; risk?: string }) => (d.read_only ? { readOnlyHint: true } : { readOnlyHint: false, destructiveHint: d.risk !== 'write' })

/** Bytes the `annotations` member adds to one MCP listing entry: `,"annotations":{…}`. */
const annotationBytes = (d: { read_only?: boolean; risk?: string }): number => utf8({ annotations: hintsOf(d) }) - 2 + 1

/** A token counter for exact figures: one token per character. */
const perCharacter = (text: string): number => text.length

describe('measureCatalog', () => {
  it('measures the three surfaces as UTF-8 JSON bytes of one array entry per tool, and their tokens', () => {
    const tools = exampleTools()
    const descriptors = tools.map(describeTool)
    const texts = {
      discovery: JSON.stringify(descriptors),
      mcp: JSON.stringify(descriptors.map((d) => ({ name: d.tool_id, description: d.description, inputSchema: d.input_schema, annotations: hintsOf(d) }))),
      model: JSON.stringify(descriptors.map((d) => ({ name: d.tool_id, description: d.description, input_schema: d.input_schema }))),
    }
    expect(measureCatalog(tools, { countTokens: perCharacter })).toEqual({
      discovery_bytes: utf8(descriptors),
      mcp_bytes: utf8(JSON.parse(texts.mcp)),
      model_bytes: utf8(JSON.parse(texts.model)),
      discovery_tokens: texts.discovery.length,
      mcp_tokens: texts.mcp.length,
      model_tokens: texts.model.length,
    })
  })

  it('counts tokens with gpt-tokenizer (o200k) by default: fewer tokens than bytes, more than zero', () => {
    const size = measureCatalog(exampleTools())
    for (const surface of ['discovery', 'mcp', 'model'] as const) {
      const tokens = size[`${surface}_tokens`]!
      expect(tokens).toBeGreaterThan(0)
      expect(tokens).toBeLessThan(size[`${surface}_bytes`] / 2)
    }
    // The model-facing projection differs from the MCP listing by one key and the annotations: fewer tokens.
    expect(size.model_tokens!).toBeLessThan(size.mcp_tokens!)
  })

  it('counts special-token text such as <|endoftext|> as ordinary text instead of throwing (regression: gpt-tokenizer refuses it by default)', () => {
    const make = (description: string) => defineTool({ id: 'x', description, input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })
    const empty = measureCatalog([make('')])
    const special = measureCatalog([make('<|endoftext|>')])
    // As text it is several tokens ("<", "|", "endo", ...); as the special token it would be one.
    expect(special.mcp_tokens! - empty.mcp_tokens!).toBeGreaterThanOrEqual(3)
  })

  it('measures bytes only with tokens: false', () => {
    const size = measureCatalog([noteTool()], { tokens: false })
    expect(Object.keys(size).sort()).toEqual(['discovery_bytes', 'mcp_bytes', 'model_bytes'])
  })

  it('refuses a countTokens that throws or answers anything but a non-negative integer, and bad options (McpOptionsError)', () => {
    const bad: unknown[] = [() => -1, () => 1.5, () => Number.NaN, () => '3', () => Promise.resolve(3), () => { throw new Error('boom') }, 'not a function']
    for (const countTokens of bad) {
      let thrown: unknown
      try {
        measureCatalog([noteTool()], { countTokens: countTokens as (text: string) => number })
      } catch (error) {
        thrown = error
      }
      expect(isMcpOptionsError(thrown), String(countTokens)).toBe(true)
      expect((thrown as Error).message).toMatch(/^measureCatalog options are invalid \(1 problem\):\n  - \/countTokens: countTokens/)
    }
    expect(() => measureCatalog([noteTool()], { tokens: 'no' as unknown as boolean })).toThrow(/tokens must be a boolean/)
    expect(() => measureCatalog([noteTool()], null as never)).toThrow(/options must be an object/)
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
    // "input_schema" is one byte longer than "inputSchema"; the model projection has no annotations.
    expect(model_bytes).toBe(mcp_bytes + 1 - annotationBytes(descriptor))
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
    expect(measureCatalog([], { countTokens: perCharacter })).toEqual({ discovery_bytes: 2, mcp_bytes: 2, model_bytes: 2, discovery_tokens: 2, mcp_tokens: 2, model_tokens: 2 })
  })
})

describe('measureCatalog argument checks (McpOptionsError, code mcp_options_invalid)', () => {
  const problemsOf = (run: () => unknown): Array<{ path: string; code: string; message: string }> => {
    try {
      run()
    } catch (error) {
      expect(isMcpOptionsError(error)).toBe(true)
      expect(error).toMatchObject({ code: 'mcp_options_invalid' })
      expect((error as Error).message.startsWith('measureCatalog tools is invalid (')).toBe(true)
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

  it('strips $schema from model_bytes as from mcp_bytes, so model_bytes = mcp_bytes + one byte per tool - the annotations', () => {
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
    expect(size.model_bytes).toBe(size.mcp_bytes + 1 - annotationBytes(d))
    const catalog = [...exampleTools(), dialected, noteTool(), skillTool()]
    const all = measureCatalog(catalog)
    expect(all.model_bytes).toBe(all.mcp_bytes + catalog.length - catalog.map(describeTool).reduce((sum, t) => sum + annotationBytes(t), 0))
  })
})
