import { describe, expect, it } from 'vitest'
import Type from 'typebox'
import type { JsonSchema, View, ViewedTool } from 'result-views'
import {
  assertCompactSubsetOfFull,
  assertViewsConsistent,
  isViewInvariantError,
  ViewInvariantError,
} from 'result-views/testing'

type Row = Record<string, unknown>

const plain = (schema: unknown): JsonSchema => JSON.parse(JSON.stringify(schema)) as JsonSchema

/** A hand-made viewed tool: only `output` and `project` matter to the invariant. */
function viewedTool(id: string, compact: unknown, full: unknown, projectCompact: (full: Row) => unknown): ViewedTool {
  return {
    kind: 'viewed',
    id,
    description: `hand-made ${id}`,
    origin: 'native',
    risk: 'read',
    approval: 'none',
    readOnly: true,
    toolsets: [],
    sensitiveInputFields: [],
    inputErrorCode: 'tool_invalid_input',
    inputSchema: { type: 'object', properties: {} },
    handler: () => ({}),
    preview: () => id,
    output: { compact: plain(compact), full: plain(full) },
    project(record: unknown, view: View): unknown {
      return view === 'full' ? record : projectCompact(record as Row)
    },
  }
}

const Tag = Type.Object({ name: Type.String(), weight: Type.Number() })
const articleFull = Type.Object({
  id: Type.String({ minLength: 1 }),
  title: Type.String(),
  body: Type.String(),
  status: Type.Union([Type.Literal('draft'), Type.Literal('published')]),
  tags: Type.Array(Tag, { maxItems: 4 }),
  meta: Type.Optional(Type.Object({ author: Type.String(), views: Type.Integer({ minimum: 0 }) })),
})
const articleCompact = Type.Object({
  id: Type.String({ minLength: 1 }),
  title: Type.String(),
  status: Type.Union([Type.Literal('draft'), Type.Literal('published')]),
  tags: Type.Array(Type.Object({ name: Type.String() }, { additionalProperties: false })),
  meta: Type.Optional(Type.Object({ author: Type.String() }, { additionalProperties: false })),
}, { additionalProperties: false })

/** The correct projection, written by hand. */
function projectArticle(full: Row): Row {
  const compact: Row = {
    id: full['id'],
    title: full['title'],
    status: full['status'],
    tags: (full['tags'] as Row[]).map((tag) => ({ name: tag['name'] })),
  }
  if (full['meta'] !== undefined) compact['meta'] = { author: (full['meta'] as Row)['author'] }
  return compact
}

function violation(run: () => void): ViewInvariantError {
  try {
    run()
  } catch (error) {
    if (isViewInvariantError(error)) return error
    throw error
  }
  throw new Error('expected a ViewInvariantError, but the invariant held')
}

describe('assertViewsConsistent', () => {
  it('passes on a correct hand-made projection', () => {
    const tool = viewedTool('article', articleCompact, articleFull, projectArticle)
    expect(() => assertViewsConsistent(tool, { runs: 300, seed: 11 })).not.toThrow()
  })

  it('passes on a recursive (Type.Cyclic) record projected recursively', () => {
    const full = Type.Cyclic({ Node: Type.Object({ name: Type.String(), size: Type.Integer(), children: Type.Array(Type.Ref('Node')) }) }, 'Node')
    const compact = Type.Cyclic({ Node: Type.Object({ name: Type.String(), children: Type.Array(Type.Ref('Node')) }, { additionalProperties: false }) }, 'Node')
    const projectNode = (node: Row): Row => ({ name: node['name'], children: (node['children'] as Row[]).map(projectNode) })
    expect(() => assertViewsConsistent(viewedTool('tree', compact, full, projectNode), { runs: 200, seed: 12 })).not.toThrow()
  })

  it('generates and projects exactly `runs` records', () => {
    let calls = 0
    const tool = viewedTool('article', articleCompact, articleFull, (full) => {
      calls++
      return projectArticle(full)
    })
    assertViewsConsistent(tool, { runs: 37, seed: 13 })
    expect(calls).toBe(37)
  })

  it('fails with the pointer of a renamed value (compact_not_in_full)', () => {
    const tool = viewedTool('article', articleCompact, articleFull, (full) => ({ ...projectArticle(full), title: `${String(full['title'])}!` }))
    const error = violation(() => assertViewsConsistent(tool, { runs: 100, seed: 14 }))
    expect(error.code).toBe('view_invariant_violated')
    expect(error.reason).toBe('compact_not_in_full')
    expect(error.pointer).toBe('/title')
    expect(error.value).toBe(`${String((error.counterexample as Row)['title'])}!`)
    expect(error.seed).toBe(14)
    expect(typeof error.run).toBe('number')
    expect(error.message).toContain('"/title"')
    expect(error.message).toContain(JSON.stringify(error.value))
    expect(error.message).toContain('seed 14')
  })

  it('fails with the pointer of a leaked field the compact schema forbids (compact_schema_invalid)', () => {
    const tool = viewedTool('article', articleCompact, articleFull, (full) => ({ ...projectArticle(full), body: full['body'] }))
    const error = violation(() => assertViewsConsistent(tool, { runs: 100, seed: 15 }))
    expect(error.reason).toBe('compact_schema_invalid')
    expect(error.pointer).toBe('/body')
    expect(error.value).toBe((error.counterexample as Row)['body'])
    expect(error.message).toContain('"/body"')
  })

  it('fails with the pointer of a nested leaked field inside an array item', () => {
    const tool = viewedTool('article', articleCompact, articleFull, (full) => ({
      ...projectArticle(full),
      tags: (full['tags'] as Row[]).map((tag) => ({ name: tag['name'], weight: tag['weight'] })),
    }))
    const error = violation(() => assertViewsConsistent(tool, { runs: 200, seed: 16 }))
    expect(error.reason).toBe('compact_schema_invalid')
    expect(error.pointer).toBe('/tags/0/weight')
    expect((error.counterexample as { tags: Row[] }).tags).toHaveLength(1)
  })

  it('fails when the compact record adds a value the full record lacks, even under an open compact schema', () => {
    const openCompact = Type.Object({ id: Type.String(), summary: Type.Optional(Type.String()) })
    const tool = viewedTool('article', openCompact, articleFull, (full) => ({ id: full['id'], summary: String(full['body']).slice(0, 10) }))
    const error = violation(() => assertViewsConsistent(tool, { runs: 100, seed: 17 }))
    expect(error.reason).toBe('compact_not_in_full')
    expect(error.pointer).toBe('/summary')
  })

  it('fails when projecting mutates the full record (full_record_mutated)', () => {
    const tool = viewedTool('article', articleCompact, articleFull, (full) => {
      delete full['body']
      return projectArticle(full)
    })
    const error = violation(() => assertViewsConsistent(tool, { runs: 100, seed: 18 }))
    expect(error.reason).toBe('full_record_mutated')
    expect(error.pointer).toBe('/body')
    expect(typeof (error.counterexample as Row)['body']).toBe('string')
  })

  it('fails when the projection throws on a full-valid record (projection_threw)', () => {
    const tool = viewedTool('article', articleCompact, articleFull, (full) => ({
      ...projectArticle(full),
      meta: { author: (full['meta'] as Row)['author'] },
    }))
    const error = violation(() => assertViewsConsistent(tool, { runs: 100, seed: 19 }))
    expect(error.reason).toBe('projection_threw')
    expect(error.cause).toBeInstanceOf(TypeError)
    expect((error.counterexample as Row)['meta']).toBeUndefined()
  })

  it('reproduces a failure from its seed', () => {
    const tool = viewedTool('article', articleCompact, articleFull, (full) => ({ ...projectArticle(full), title: String(full['title']).toUpperCase() }))
    const first = violation(() => assertViewsConsistent(tool, { runs: 200, seed: 20 }))
    const second = violation(() => assertViewsConsistent(tool, { runs: 200, seed: 20 }))
    expect(first.pointer).toBe('/title')
    expect(second.run).toBe(first.run)
    expect(second.counterexample).toEqual(first.counterexample)
  })

  it('rejects an object that is not a viewed tool', () => {
    expect(() => assertViewsConsistent({ kind: 'single', output: {} } as unknown as ViewedTool)).toThrow(TypeError)
    expect(() => assertViewsConsistent({ kind: 'single', output: {} } as unknown as ViewedTool)).toThrow(
      expect.objectContaining({ code: 'testing_argument_invalid', problems: [expect.objectContaining({ path: '', code: 'not_a_viewed_tool' })] }),
    )
  })
})

describe('assertCompactSubsetOfFull', () => {
  const full = { id: 'a', items: [{ name: 'x', size: 1 }, { name: 'y', size: 2 }], meta: { author: 'z' } }

  it('accepts compact records that hold fewer members with equal values', () => {
    expect(() => assertCompactSubsetOfFull({ id: 'a', items: [{ name: 'x' }, { name: 'y' }] }, full)).not.toThrow()
    expect(() => assertCompactSubsetOfFull({ items: [{ name: 'x' }] }, full)).not.toThrow()
    expect(() => assertCompactSubsetOfFull({}, full)).not.toThrow()
  })

  it.each([
    ['a changed scalar', { items: [{ name: 'x' }, { name: 'Y' }] }, '/items/1/name', 'Y'],
    ['a field the full record lacks', { id: 'a', extra: 1 }, '/extra', 1],
    ['an item beyond the full array', { items: [{}, {}, { name: 'w' }] }, '/items/2', { name: 'w' }],
    ['an object where the full record has a scalar', { id: { value: 'a' } }, '/id', { value: 'a' }],
    ['an own __proto__ key', JSON.parse('{"__proto__":{"polluted":true}}'), '/__proto__', { polluted: true }],
    ['a pointer token that needs escaping', { 'a/b~c': 1 }, '/a~1b~0c', 1],
  ])('throws compact_not_in_full for %s', (_case, compact, pointer, value) => {
    const error = violation(() => assertCompactSubsetOfFull(compact, full))
    expect(error.reason).toBe('compact_not_in_full')
    expect(error.pointer).toBe(pointer)
    expect(error.value).toEqual(value)
    expect(error.seed).toBeUndefined()
    expect(error.message).toContain(`"${pointer}"`)
  })
})

describe('assertViewsConsistent with value-dependent rules (omitWhen)', () => {
  it('passes the skill listings, whose rule both omits and keeps diagnostics', async () => {
    const { defineSkillList, defineSkillSearch } = await import('../../examples/tools/catalog.js')
    const { ExampleStore } = await import('../../examples/tools/session-store.js')
    const store = new ExampleStore()
    for (const tool of [defineSkillList(store), defineSkillSearch(store)]) assertViewsConsistent(tool, { runs: 30, maxArrayLength: 3 })
  })

  it('checks every record with each rule outcome: a rule on a required field fails when it omits, whatever it answers', () => {
    const compact = plain(Type.Object({ items: Type.Array(Type.Object({ id: Type.String(), note: Type.Optional(Type.String()) }, { additionalProperties: false })) }, { additionalProperties: false }))
    const full = compact
    const keepAll = (record: Row): unknown => structuredClone(record)
    // A stand-in tool (defineTool refuses this path): its rule never answers true, yet the "every
    // rule omits" outcome drops a required id and is caught.
    const tool = { ...viewedTool('ruled', compact, full, keepAll), omitWhen: { '/items/*/id': () => false } }
    let error: unknown
    try {
      assertViewsConsistent(tool, { runs: 50, seed: 7 })
    } catch (caught) {
      error = caught
    }
    expect(isViewInvariantError(error)).toBe(true)
    expect(error).toMatchObject({ reason: 'compact_schema_invalid', detail: expect.stringContaining('with every omitWhen rule answering true') })
  })
})
