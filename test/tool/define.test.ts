import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { ToolDefinitionError, defineTool, isToolDefinitionError, type UsageProblem } from 'result-views'
import { NoteCompact, NoteFull } from '../support/tools.js'

const input = Type.Object({ id: Type.String() }, { additionalProperties: false })
const handler = () => ({ id: 'n', title: 't', body: 'b' })

function problemsOf(definition: unknown): UsageProblem[] {
  try {
    defineTool(definition as Parameters<typeof defineTool>[0])
  } catch (error) {
    expect(isToolDefinitionError(error)).toBe(true)
    expect((error as ToolDefinitionError).code).toBe('tool_definition_invalid')
    return [...(error as ToolDefinitionError).problems]
  }
  throw new Error('expected defineTool to throw')
}

describe('defineTool', () => {
  it('returns a frozen viewed tool with plain JSON copies of its schemas', () => {
    const tool = defineTool({ id: 'notes__read', description: 'd', input, output: { compact: NoteCompact, full: NoteFull }, handler, risk: 'read' })
    expect(tool.kind).toBe('viewed')
    expect(Object.isFrozen(tool)).toBe(true)
    expect(Object.isFrozen(tool.output.compact)).toBe(true)
    expect(tool.output.full).toEqual(JSON.parse(JSON.stringify(NoteFull)))
    expect(tool.output.full).not.toBe(NoteFull)
    expect(tool.origin).toBe('native')
    expect(tool.readOnly).toBe(true)
    expect(tool.inputErrorCode).toBe('tool_invalid_input')
  })

  it('returns a single-result tool for one output schema', () => {
    const tool = defineTool({ id: 'skills__view', description: 'd', input, output: NoteFull, handler })
    expect(tool.kind).toBe('single')
  })

  it('projects with the compiled projector: full returns the record, compact a new record', () => {
    const tool = defineTool({ id: 'notes__read', description: 'd', input, output: { compact: NoteCompact, full: NoteFull }, handler })
    const record = { id: 'n', title: 't', body: 'b' }
    expect(tool.project(record, 'full')).toBe(record)
    expect(tool.project(record, 'compact')).toEqual({ id: 'n', title: 't' })
  })

  it('rejects a compact view that is not a subset of the full view, with pointers into both', () => {
    const compact = Type.Object({ id: Type.String(), secret: Type.String() }, { additionalProperties: false })
    const problems = problemsOf({ id: 'x', description: 'd', input, output: { compact, full: NoteFull }, handler })
    expect(problems).toHaveLength(1)
    expect(problems[0]!.path).toBe('/output/compact/properties/secret')
    expect(problems[0]!.message).toContain('/output/full')
  })

  it('rejects result_view declared by a native tool, and allows it for extension and mcp tools', () => {
    const withView = Type.Object({ result_view: Type.String() })
    const problems = problemsOf({ id: 'x', description: 'd', input: withView, output: { compact: NoteCompact, full: NoteFull }, handler })
    expect(problems).toEqual([
      expect.objectContaining({ path: '/input/properties/result_view', code: 'result_view_declared' }),
      expect.objectContaining({ path: '/input/required', code: 'result_view_declared' }),
    ])
    expect(problemsOf({ id: 'x', description: 'd', input: withView, output: NoteFull, handler }).map((p) => p.code)).toEqual(['result_view_declared', 'result_view_declared'])
    for (const origin of ['extension', 'mcp'] as const) {
      expect(defineTool({ id: 'x', description: 'd', origin, input: withView, output: NoteFull, handler }).origin).toBe(origin)
    }
  })

  it.each([
    ['a required entry', { type: 'object', required: ['result_view'] }, '/input/required'],
    ['a matching patternProperties pattern', { type: 'object', patternProperties: { '^res': { type: 'number' } } }, '/input/patternProperties/^res'],
    ['an allOf branch', { type: 'object', allOf: [{ properties: { result_view: { type: 'number' } } }] }, '/input/allOf/0/properties/result_view'],
    ['propertyNames', { type: 'object', propertyNames: { maxLength: 3 } }, '/input/propertyNames'],
    ['maxProperties', { type: 'object', maxProperties: 1 }, '/input/maxProperties'],
  ])('rejects a native input schema that claims result_view through %s', (_name, input, path) => {
    expect(problemsOf({ id: 'x', description: 'd', input, output: { compact: NoteCompact, full: NoteFull }, handler })).toEqual([
      expect.objectContaining({ path, code: 'result_view_declared' }),
    ])
  })

  it.each([
    ['compact without full', { compact: NoteCompact }],
    ['full without compact', { full: NoteFull }],
    ['an extra key beside the pair', { compact: NoteCompact, full: NoteFull, huge: NoteFull }],
  ])('rejects an output that is %s', (_name, output) => {
    expect(problemsOf({ id: 'x', description: 'd', input, output, handler }).map((p) => [p.path, p.code])).toContainEqual(['/output', 'invalid_view_pair'])
  })

  it('lists every problem at once', () => {
    const problems = problemsOf({
      id: '',
      description: 3,
      input: { type: 'string' },
      output: { compact: Type.Object({ extra: Type.String() }), full: NoteFull },
      handler: 'nope',
      origin: 'plugin',
      approval: 'maybe',
      inputErrorCode: 'oops',
      toolsets: ['ok', 7],
    })
    expect(problems.map((p) => p.path)).toEqual(
      expect.arrayContaining(['/id', '/description', '/handler', '/origin', '/approval', '/inputErrorCode', '/toolsets', '/input/type', '/output/compact/properties/extra']),
    )
  })

  it('rejects views on extension tools and non-JSON schemas', () => {
    expect(problemsOf({ id: 'x', description: 'd', origin: 'mcp', input, output: { compact: NoteCompact, full: NoteFull }, handler }).map((p) => p.code)).toContain(
      'views_not_native',
    )
    const problems = problemsOf({ id: 'x', description: 'd', input: { type: 'object', properties: { a: { minimum: NaN } } }, output: NoteFull, handler })
    expect(problems).toEqual([expect.objectContaining({ path: '/input/properties/a/minimum', code: 'schema_not_json' })])
  })

  it('throws a typed error for a definition that is not an object', () => {
    expect(problemsOf(null)).toEqual([expect.objectContaining({ code: 'not_an_object' })])
  })

  it('names the tool and each problem path in the message', () => {
    try {
      defineTool({ id: 'bad__tool', description: 'd', input, output: { compact: Type.Object({ z: Type.String() }), full: NoteFull }, handler } as never)
      expect.unreachable()
    } catch (error) {
      expect((error as Error).message).toMatch(/^tool "bad__tool" is invalid \(1 problem\):\n {2}- \/output\/compact\/properties\/z: /)
    }
  })
})

describe('definitions that cannot be read', () => {
  it('turns a throwing getter into a ToolDefinitionError', () => {
    const definition = { get id(): string { throw new Error('getter boom') } }
    expect(() => defineTool(definition as never)).toThrow(expect.objectContaining({ code: 'tool_definition_invalid' }))
  })
})

describe('schemas with a __proto__ key', () => {
  it('are refused by defineTool with the pointer of the key', () => {
    const closed = Type.Object({ ['__proto__']: Type.String() }, { additionalProperties: false })
    let thrown: unknown
    try {
      defineTool({ id: 'p', description: 'd', input: closed, output: Type.Object({}), handler: () => ({}) })
    } catch (error) {
      thrown = error
    }
    expect((thrown as { problems?: unknown }).problems).toEqual([
      expect.objectContaining({ path: '/input/properties/__proto__', code: 'schema_proto_key' }),
    ])
  })
})
