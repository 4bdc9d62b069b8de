// The output stage: the handler's record is checked (plain JSON, full schema) before anything of it
// is returned, and the caller, the events and the handler never share a record.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { errorOf } from '../support/outcomes.js'


/** A dispatcher of one viewed tool `m` whose record is `{ id: 'a', meta }`, with `meta` unconstrained in both views. */
function metaDispatcher(meta: unknown) {
  return createDispatcher({
    tools: [
      defineTool({
        id: 'm',
        description: 'd',
        input: Type.Object({}),
        output: { compact: Type.Object({ id: Type.String(), meta: Type.Any() }), full: Type.Object({ id: Type.String(), meta: Type.Any() }) },
        handler: () => ({ id: 'a', meta }),
      }),
    ],
  })
}

describe('results and events do not share objects', () => {
  it('a post_call hook never freezes the record the handler keeps, and callers get their own copy', async () => {
    const cache = { id: 'n', title: 't', body: 'b', tags: ['x'] as string[] }
    const Full = Type.Object({ id: Type.String(), title: Type.String(), body: Type.String(), tags: Type.Array(Type.String()) })
    const dispatcher = createDispatcher({
      tools: [defineTool({ id: 'c', description: 'd', input: Type.Object({}), output: { compact: Type.Object({ id: Type.String() }, { additionalProperties: false }), full: Full }, handler: () => (cache.tags.push('y'), cache) })],
      hooks: { 'tool.post_call': () => undefined },
    })
    for (let i = 0; i < 2; i++) {
      const outcome = await dispatcher.invoke({ tool_id: 'c', input: { result_view: 'full' } })
      expect(outcome.status).toBe('ok')
      expect((outcome as { result: { structured: unknown } }).result.structured).not.toBe(cache)
    }
    expect(Object.isFrozen(cache)).toBe(false)
  })
})

describe('compact results are plain JSON at positions copied whole', () => {
  class Secretive {
    token = 'sk-live'
  }
  const values: Array<[string, unknown, string]> = [
    ['a Date', new Date(0), 'non_plain_object'],
    ['a Map', new Map([['a', 1]]), 'non_plain_object'],
    ['a class instance', new Secretive(), 'non_plain_object'],
    ['a boxed string', new String('x'), 'non_plain_object'],
    ['an array with toJSON', Object.assign([1, 2], { toJSON: () => [] }), 'to_json'],
  ]
  for (const [name, meta, problem] of values) {
    it(`refuses ${name} in an unconstrained compact position, in both views`, async () => {
      const dispatcher = metaDispatcher(meta)
      for (const result_view of ['compact', 'full']) {
        const outcome = await dispatcher.invoke({ tool_id: 'm', input: { result_view } })
        expect(errorOf(outcome)).toMatchObject({ code: 'tool_output_invalid', details: { pointer: '/meta', problem } })
        expect(JSON.stringify(outcome)).not.toContain('sk-live')
      }
    })
  }
})

describe('a value inside a compact position copied whole', () => {
  it('is named by its pointer from the record\'s root in both views (regression: the compact call named the projector\'s relative pointer "/0")', async () => {
    const sparse: unknown[] = ['dense']
    sparse.length = 3
    const values: Array<[unknown, string, string]> = [
      [{ list: sparse }, '/meta/list/1', 'sparse_array'],
      [{ when: [new Date(0)] }, '/meta/when/0', 'non_plain_object'],
      [[{ n: Number.NaN }], '/meta/0/n', 'non_finite_number'],
    ]
    for (const [meta, pointer, problem] of values) {
      const dispatcher = metaDispatcher(meta)
      for (const result_view of ['compact', 'full']) {
        expect(errorOf(await dispatcher.invoke({ tool_id: 'm', input: { result_view } }))).toMatchObject({ code: 'tool_output_invalid', reason: 'output_schema_invalid', details: { pointer, problem } })
      }
    }
  })
})

describe('a class instance returned as the whole record', () => {
  it('is refused in both views, before anything reads it through its prototype', async () => {
    class Session {
      get id() {
        return 'a'
      }
    }
    const dispatcher = createDispatcher({
      tools: [
        defineTool({
          id: 's',
          description: 'd',
          input: Type.Object({}),
          output: { compact: Type.Object({ id: Type.String() }), full: Type.Object({ id: Type.String() }) },
          handler: () => new Session() as never,
        }),
      ],
    })
    for (const result_view of ['compact', 'full']) {
      const error = errorOf(await dispatcher.invoke({ tool_id: 's', input: { result_view } }))
      expect([error.code, error.details]).toEqual(['tool_output_invalid', { pointer: '', problem: 'non_plain_object' }])
    }
  })
})

describe('odd records the output checks judge', () => {
  it('judges a record ajv cannot read as it is (null-prototype objects under uniqueItems) on a checked copy', async () => {
    const dispatcher = createDispatcher({
      tools: [
        defineTool({
          id: 't',
          description: 'd',
          input: Type.Object({}),
          output: { compact: Type.Object({ id: Type.String() }), full: Type.Object({ id: Type.String(), tags: Type.Array(Type.Object({}), { uniqueItems: true }) }) },
          handler: () => ({ id: 'a', tags: [Object.create(null), Object.create(null)] }),
        }),
      ],
    })
    for (const result_view of ['compact', 'full']) {
      const error = errorOf(await dispatcher.invoke({ tool_id: 't', input: { result_view } }))
      expect(error.details!.issues).toEqual([expect.objectContaining({ instancePath: '/tags', keyword: 'uniqueItems' })])
    }
  })

  it('answers a valid record nested deeper than the call stack allows with ok or too_deep, never unreadable', async () => {
    const Node = Type.Cyclic({ Node: Type.Object({ child: Type.Optional(Type.Ref('Node')) }) }, 'Node')
    let deep: Record<string, unknown> = {}
    for (let i = 0; i < 4_990; i++) deep = { child: deep }
    const dispatcher = createDispatcher({
      tools: [defineTool({ id: 'deep', description: 'd', input: Type.Object({}), output: { compact: Node, full: Node }, handler: () => deep as never })],
    })
    const outcome = await dispatcher.invoke({ tool_id: 'deep', input: {} })
    if (outcome.status === 'error') expect(outcome.error.details).toEqual({ pointer: '', problem: 'too_deep' })
    else expect(outcome.status).toBe('ok')
  })
})

describe('an invalid record reports every issue, though validity is decided at the first error', () => {
  const Full = Type.Object({ id: Type.String(), count: Type.Integer(), at: Type.String({ format: 'date-time' }) })
  const bad = { id: 7, count: 'many', at: 'yesterday' } as never
  const dispatcher = createDispatcher({
    tools: [
      defineTool({ id: 'v', description: 'd', input: Type.Object({}), output: { compact: Type.Object({ id: Type.String() }), full: Full }, handler: () => bad }),
      defineTool({ id: 's', description: 'd', input: Type.Object({}), output: Full, handler: () => bad }),
    ],
  })
  const pointers = (error: { details?: unknown }) => ((error.details as { issues: { instancePath: string }[] }).issues.map((issue) => issue.instancePath).sort())

  for (const [label, request] of [
    ['full view', { tool_id: 'v', input: { result_view: 'full' } }],
    ['compact view', { tool_id: 'v', input: {} }],
    ['single result', { tool_id: 's', input: {} }],
  ] as const) {
    it(`${label}: all three bad fields are named`, async () => {
      const error = errorOf(await dispatcher.invoke(request))
      expect(error.code).toBe('tool_output_invalid')
      expect(pointers(error)).toEqual(['/at', '/count', '/id'])
    })
  }

  it('a valid record with formats is accepted in every view (the first-error validator agrees)', async () => {
    const good = { id: 'a', count: 2, at: '2026-12-01T12:00:00Z' }
    const ok = createDispatcher({ tools: [defineTool({ id: 'g', description: 'd', input: Type.Object({}), output: { compact: Type.Object({ id: Type.String() }), full: Full }, handler: () => good })] })
    for (const input of [{}, { result_view: 'full' }]) expect((await ok.invoke({ tool_id: 'g', input })).status).toBe('ok')
  })
})
