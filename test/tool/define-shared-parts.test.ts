import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { defineTool, isToolDefinitionError, type JsonSchema, type UsageProblem } from 'result-views'

const input = Type.Object({ id: Type.String() }, { additionalProperties: false })
const handler = () => ({ session: { id: 's', name: 'n', tags: [], log: [] } })

type Props = Record<string, JsonSchema>
const sessionOf = (schema: JsonSchema): Props => ((schema.properties as Props).session!.properties as Props)

function problemsOf(compact: unknown, full: unknown): UsageProblem[] {
  try {
    defineTool({ id: 'sessions__read', description: 'd', input, output: { compact, full }, handler } as never)
  } catch (error) {
    expect(isToolDefinitionError(error)).toBe(true)
    return [...(error as { problems: UsageProblem[] }).problems]
  }
  throw new Error('expected defineTool to throw')
}

describe('defineTool: parts the views share', () => {
  const Name = Type.String({ minLength: 1 })
  const Tags = Type.Array(Type.Object({ key: Type.String(), value: Type.String() }, { additionalProperties: false }))
  const compactOf = () => Type.Object({ session: Type.Object({ id: Type.String(), name: Name, tags: Tags }, { additionalProperties: false }) })
  const fullOf = () => Type.Object({ session: Type.Object({ id: Type.String(), name: Name, tags: Tags, log: Type.Array(Type.String()) }, { additionalProperties: false }) })

  it('copies a part both views hold once: one frozen object in both, equal to the part', () => {
    const tool = defineTool({ id: 'sessions__read', description: 'd', input, output: { compact: compactOf(), full: fullOf() }, handler })
    const compact = sessionOf(tool.output.compact)
    const full = sessionOf(tool.output.full)
    expect(compact.name).toBe(full.name)
    expect(compact.tags).toBe(full.tags)
    expect(Object.isFrozen(compact.tags)).toBe(true)
    expect(Object.isFrozen((compact.tags!.items as JsonSchema).properties)).toBe(true)
    expect(compact.tags).toEqual(JSON.parse(JSON.stringify(Tags)))
    expect(compact.tags).not.toBe(Tags)
    // Parts the definition did not share stay apart.
    expect(compact.id).not.toBe(full.id)
  })

  it('never shares a copy between two tools, so a part changed between two definitions changes only the later tool', () => {
    const part: Record<string, unknown> = { type: 'string', minLength: 1 }
    const build = (id: string) => {
      const compact = { type: 'object', properties: { session: { type: 'object', properties: { name: part }, additionalProperties: false } } }
      const full = { type: 'object', properties: { session: { type: 'object', properties: { name: part, log: { type: 'string' } }, additionalProperties: false } } }
      return defineTool({ id, description: 'd', input, output: { compact, full }, handler } as never) as unknown as { output: { compact: JsonSchema; full: JsonSchema } }
    }
    const first = build('sessions__first')
    part.minLength = 3
    const second = build('sessions__second')
    expect(sessionOf(first.output.compact).name).not.toBe(sessionOf(second.output.compact).name)
    expect(sessionOf(first.output.full).name).toEqual({ type: 'string', minLength: 1 })
    expect(sessionOf(second.output.full).name).toEqual({ type: 'string', minLength: 3 })
    expect(sessionOf(second.output.compact).name).toBe(sessionOf(second.output.full).name)
  })

  it('copies a part holding a "$ref" once per view: it resolves against each view\'s own definitions', () => {
    const Ref = { $ref: '#/$defs/Name' }
    const compact = { type: 'object', properties: { name: Ref }, $defs: { Name: { type: 'string' } } }
    const full = { type: 'object', properties: { name: Ref, log: { type: 'string' } }, required: ['name'], $defs: { Name: { type: 'string', minLength: 1 } } }
    const tool = defineTool({ id: 'names__read', description: 'd', input, output: { compact, full }, handler } as never) as unknown as { output: { compact: JsonSchema; full: JsonSchema } }
    expect((tool.output.compact.properties as Props).name).not.toBe((tool.output.full.properties as Props).name)
    // The same part, resolved where it sits: a compact name narrower than the full one is refused.
    const narrow = { ...compact, $defs: { Name: { type: 'string', minLength: 2 } } }
    expect(problemsOf(narrow, full).map((p) => p.code)).toEqual(['constraint_not_implied'])
  })

  it('still refuses a shared part the proof refuses, with the same problems as unshared parts', () => {
    const Unique = Type.Array(Type.Object({ key: Type.String() }), { uniqueItems: true })
    const compact = Type.Object({ tags: Unique })
    const full = Type.Object({ tags: Unique, log: Type.String() })
    const shared = problemsOf(compact, full)
    expect(shared.map((p) => p.code)).toEqual(['constraint_not_implied'])
    expect(shared).toEqual(problemsOf(JSON.parse(JSON.stringify(compact)), JSON.parse(JSON.stringify(full))))
    const Odd = { type: 'string', not: { const: '' } }
    const odd = problemsOf({ type: 'object', properties: { name: Odd } }, { type: 'object', properties: { name: Odd } })
    expect(odd.map((p) => [p.code, p.path])).toEqual([['unsupported_keyword', '/output/compact/properties/name/not']])
  })

  it('still refuses a shared part that is not plain JSON, or holds "__proto__", at its pointer in each view', () => {
    const dated = { type: 'string', default: new Date(0) }
    expect(problemsOf({ type: 'object', properties: { at: dated } }, { type: 'object', properties: { at: dated } }).map((p) => [p.code, p.path])).toEqual([
      ['schema_not_json', '/output/compact/properties/at/default'],
      ['schema_not_json', '/output/full/properties/at/default'],
    ])
    const proto = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as JsonSchema
    expect(problemsOf({ type: 'object', properties: { p: proto } }, { type: 'object', properties: { p: proto } }).map((p) => [p.code, p.path])).toEqual([
      ['schema_proto_key', '/output/compact/properties/p/properties/__proto__'],
      ['schema_proto_key', '/output/full/properties/p/properties/__proto__'],
    ])
  })

  it('still refuses a shared part that is a cycle, holds a hole or a getter that throws', () => {
    const cycle: Record<string, unknown> = { type: 'object' }
    cycle.properties = { self: cycle }
    const cyclic = problemsOf({ type: 'object', properties: { c: cycle } }, { type: 'object', properties: { c: cycle } })
    expect(cyclic.map((p) => p.code)).toEqual(['schema_not_json', 'schema_not_json'])
    expect(cyclic.map((p) => p.path)).toEqual(['/output/compact/properties/c/properties/self', '/output/full/properties/c/properties/self'])
    const holes = { type: 'string', enum: ['a', , 'b'] }
    expect(problemsOf({ type: 'object', properties: { h: holes } }, { type: 'object', properties: { h: holes } }).map((p) => [p.code, p.path])).toEqual([
      ['schema_not_json', '/output/compact/properties/h/enum/1'],
      ['schema_not_json', '/output/full/properties/h/enum/1'],
    ])
    const getter = Object.defineProperty({ type: 'string' }, 'minLength', { enumerable: true, get: () => { throw new Error('no') } })
    const thrown = problemsOf({ type: 'object', properties: { g: getter } }, { type: 'object', properties: { g: getter } })
    expect(thrown.map((p) => p.code)).toEqual(['schema_not_json', 'schema_not_json'])
  })
})
