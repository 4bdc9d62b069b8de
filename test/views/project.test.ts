import Type from 'typebox'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { compileProjector, isUsageError, proveViewSubset, type JsonSchema, type UsageError } from 'result-views'

const json = (schema: unknown): JsonSchema => JSON.parse(JSON.stringify(schema)) as JsonSchema

/** Freezes a value and everything in it, so a projector that writes to its input throws. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key])
    Object.freeze(value)
  }
  return value
}

/** Projects a deep-frozen copy of `record` and checks the input came out unchanged. */
function project(compact: unknown, record: unknown): unknown {
  const input = deepFreeze(structuredClone(record))
  const out = compileProjector(json(compact))(input)
  expect(input).toEqual(record)
  return out
}

const Interaction = Type.Object({ interaction_id: Type.String(), kind: Type.String(), status: Type.String() })
const SessionCompact = Type.Object({
  session: Type.Object({
    id: Type.String(),
    branch: Type.Optional(Type.String()),
    runtime: Type.Object({ status: Type.String(), generation: Type.Optional(Type.Integer()), selection_revision: Type.Integer() }),
    pending_interactions: Type.Array(Interaction),
    pull_request: Type.Union([Type.Object({ number: Type.Integer(), url: Type.String() }), Type.Null()]),
  }),
})

const sessionRecord = {
  session: {
    id: 'sess-example',
    branch: 'fix/upload-flake',
    supervision: { heartbeat: 3 },
    runtime: { status: 'ready', generation: 3, selection_revision: 2, acp_caps: { fs: true } },
    pending_interactions: [
      { interaction_id: 'int-1', kind: 'permission', status: 'pending', payload: { command: 'make test' } },
      { interaction_id: 'int-2', kind: 'question', status: 'pending', options: ['a', 'b'] },
    ],
    pull_request: { number: 7, url: 'https://example.test/pr/7', diff: '...' },
    lineage: { permission_policy: { tools: ['*'] } },
  },
}

describe('compileProjector', () => {
  it('copies exactly the declared fields at every depth, arrays of objects and nullable objects included', () => {
    expect(project(SessionCompact, sessionRecord)).toEqual({
      session: {
        id: 'sess-example',
        branch: 'fix/upload-flake',
        runtime: { status: 'ready', generation: 3, selection_revision: 2 },
        pending_interactions: [
          { interaction_id: 'int-1', kind: 'permission', status: 'pending' },
          { interaction_id: 'int-2', kind: 'question', status: 'pending' },
        ],
        pull_request: { number: 7, url: 'https://example.test/pr/7' },
      },
    })
    const nullPr = { session: { ...sessionRecord.session, pull_request: null } }
    expect((project(SessionCompact, nullPr) as { session: { pull_request: unknown } }).session.pull_request).toBeNull()
  })

  it('keeps absence as absence', () => {
    const record = { session: { ...sessionRecord.session, runtime: { status: 'ready', selection_revision: 0 } } } as Record<string, any>
    delete record.session.branch
    const out = project(SessionCompact, record) as Record<string, any>
    expect('branch' in out.session).toBe(false)
    expect(Object.keys(out.session.runtime)).toEqual(['status', 'selection_revision'])
  })

  it('treats an undefined value as absent, as JSON does', () => {
    expect(project(Type.Object({ a: Type.Optional(Type.String()), b: Type.String() }), { a: undefined, b: 'x' })).toEqual({ b: 'x' })
    expect(Object.keys(compileProjector(json(Type.Object({ a: Type.Optional(Type.String()) })))({ a: undefined }) as object)).toEqual([])
  })

  it('returns new objects and arrays, never the input ones', () => {
    const out = project(SessionCompact, sessionRecord) as Record<string, any>
    const input = structuredClone(sessionRecord)
    const again = compileProjector(json(SessionCompact))(input) as Record<string, any>
    expect(again.session).not.toBe(input.session)
    expect(again.session.pending_interactions).not.toBe(input.session.pending_interactions)
    expect(out).toEqual(again)
  })

  it('drops unknown keys at every depth, even where the compact object is open', () => {
    const compact = Type.Object({ a: Type.Object({ b: Type.Array(Type.Object({ c: Type.String() })) }) })
    expect(project(compact, { a: { b: [{ c: 'x', d: 1 }], e: 2 }, f: 3 })).toEqual({ a: { b: [{ c: 'x' }] } })
  })

  it('picks the branch of a discriminated union by its tag', () => {
    const Event = Type.Union([
      Type.Object({ kind: Type.Literal('message'), text: Type.String() }),
      Type.Object({ kind: Type.Literal('tool'), tool_id: Type.String() }),
    ])
    const compact = Type.Object({ events: Type.Array(Event) })
    const record = { events: [{ kind: 'message', text: 'hi', tokens: 3 }, { kind: 'tool', tool_id: 't', input: { x: 1 }, text: 'no' }] }
    expect(project(compact, record)).toEqual({ events: [{ kind: 'message', text: 'hi' }, { kind: 'tool', tool_id: 't' }] })
  })

  it('follows recursive schemas (TypeBox Cyclic) as deep as the value goes', () => {
    const Tree = Type.Cyclic({ Node: Type.Object({ id: Type.String(), children: Type.Array(Type.Ref('Node')) }) }, 'Node')
    const leaf = (id: string) => ({ id, children: [], size: 1 })
    const record = { id: 'root', secret: 's', children: [{ id: 'a', secret: 's', children: [leaf('a1'), leaf('a2')] }, leaf('b')] }
    expect(project(Tree, record)).toEqual({
      id: 'root',
      children: [{ id: 'a', children: [{ id: 'a1', children: [] }, { id: 'a2', children: [] }] }, { id: 'b', children: [] }],
    })
  })

  it('follows recursive arrays ($ref through items) as deep as the value goes', () => {
    const compact: JsonSchema = { $defs: { T: { type: 'array', items: { $ref: '#/$defs/T' } } }, $ref: '#/$defs/T' }
    expect(project(compact, [[[], [[]]], []])).toStrictEqual([[[], [[]]], []])
  })

  it('projects schemas past what one generated function inlines (wide and deep), as a loop would', () => {
    const wide = Type.Object(Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, Type.Object({ v: Type.Integer(), drop: Type.Optional(Type.String()) }, { additionalProperties: false })])))
    const wideRecord = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, { v: i, extra: 'x' }]))
    expect(project(Type.Object({ w: Type.Array(wide) }), { w: [wideRecord] })).toStrictEqual({ w: [Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, { v: i }]))] })
    let deep: JsonSchema = { type: 'object', properties: { leaf: { type: 'string' } }, required: ['leaf'] }
    let record: Record<string, unknown> = { leaf: 'x', extra: 1 }
    let expected: Record<string, unknown> = { leaf: 'x' }
    for (let i = 0; i < 40; i++) {
      deep = { type: 'object', properties: { d: deep, n: { type: 'integer' } }, required: ['d'] }
      record = { d: record, n: i, extra: i }
      expected = { d: expected, n: i }
    }
    expect(project(deep, record)).toStrictEqual(expected)
  })

  it('deep-copies unconstrained positions and opaque objects', () => {
    const compact = Type.Object({ meta: Type.Unknown(), opaque: Type.Object({}, { additionalProperties: true }), whole: { type: 'object' } })
    const record = { meta: { a: [1, { b: 2 }] }, opaque: { x: 1 }, whole: { y: { z: 1 } } }
    const input = structuredClone(record)
    const out = compileProjector(json(compact))(input) as Record<string, any>
    expect(out).toEqual({ meta: { a: [1, { b: 2 }] }, opaque: {}, whole: { y: { z: 1 } } })
    expect(out.meta).not.toBe(input.meta)
    expect(out.meta.a[1]).not.toBe(input.meta.a[1])
    expect(out.whole.y).not.toBe(input.whole.y)
  })

  it('copies the keys a one-pattern map declares, projecting their values', () => {
    const compact = Type.Object({ labels: Type.Record(Type.String(), Type.Object({ v: Type.String() })) })
    expect(project(compact, { labels: { a: { v: '1', w: 2 }, b: { v: '2' } } })).toEqual({ labels: { a: { v: '1' }, b: { v: '2' } } })
  })

  it('copies tuple positions by their own schemas', () => {
    const compact = Type.Tuple([Type.Object({ a: Type.String() }), Type.String()])
    expect(project(compact, [{ a: 'x', b: 1 }, 's'])).toEqual([{ a: 'x' }, 's'])
  })

  it('never leaks keys from values of the wrong type (invalid input)', () => {
    const compact = Type.Object({ name: Type.String(), list: Type.Array(Type.String()), tagged: Type.Union([Type.Object({ k: Type.Literal('a') }), Type.Object({ k: Type.Literal('b') })]) })
    expect(project(compact, { name: { secret: 1 }, list: [{ secret: 2 }, [3]], tagged: { k: 'zzz', secret: 3 } })).toEqual({ name: {}, list: [{}, []], tagged: {} })
    expect(compileProjector(json(compact))('scalar')).toBe('scalar')
  })
})

describe('compileProjector: hostile keys', () => {
  const hostile = () => JSON.parse('{"id":"x","__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},"prototype":3}') as Record<string, unknown>

  it('never changes a prototype, of the result or of Object.prototype', () => {
    const out = compileProjector(json(Type.Object({ id: Type.String() })))(hostile()) as Record<string, unknown>
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.keys(out)).toEqual(['id'])
    expect(out.polluted).toBeUndefined()
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
  })

  it('copies __proto__, constructor and prototype as data when (and only when) the compact schema declares them', () => {
    const compact = JSON.parse(
      '{"type":"object","properties":{"id":{"type":"string"},"__proto__":{"type":"object","properties":{"polluted":{"type":"number"}}},"constructor":{},"prototype":{"type":"number"}}}',
    ) as JsonSchema
    const out = compileProjector(compact)(hostile()) as Record<string, unknown>
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted: 1 })
    expect(out.constructor).toEqual({ prototype: { polluted: 2 } })
    expect(out.prototype).toBe(3)
    expect(out.polluted).toBeUndefined()
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('does not read declared keys from the prototype chain', () => {
    const compact = Type.Object({ constructor: Type.Optional(Type.Unknown()), toString: Type.Optional(Type.Unknown()), id: Type.Optional(Type.String()) })
    expect(compileProjector(json(compact))({})).toEqual({})
    const polluted = Object.prototype as unknown as Record<string, unknown>
    try {
      polluted.id = 'from the prototype'
      expect(Object.keys(compileProjector(json(compact))({}) as object)).toEqual([])
    } finally {
      delete polluted.id
    }
  })

  it('does not read ordinary declared keys or a union tag through a polluted Object.prototype', () => {
    const Tagged = Type.Union([Type.Object({ kind: Type.Literal('a'), x: Type.String() }), Type.Object({ kind: Type.Literal('b'), y: Type.String() })])
    const compact = json(Type.Object({ id: Type.Optional(Type.String()), tag: Type.String(), items: Type.Array(Tagged) }))
    const project = compileProjector(compact)
    const polluted = Object.prototype as unknown as Record<string, unknown>
    try {
      polluted.id = 'from the prototype'
      polluted.kind = 'a'
      polluted.x = 'leaked'
      // An inherited `id` stays absent; an item whose tag is inherited projects to `{}`.
      expect(project({ tag: 't', items: [{ kind: 'b', y: 'own' }] })).toStrictEqual({ tag: 't', items: [{ kind: 'b', y: 'own' }] })
      expect(project({ tag: 't', items: [{ x: 'own' }] })).toStrictEqual({ tag: 't', items: [{}] })
      // The same where the branch is read by the general code (it declares a key Object.prototype has).
      const Odd = Type.Union([Type.Object({ kind: Type.Literal('a'), x: Type.String(), toString: Type.Optional(Type.String()) }), Type.Object({ kind: Type.Literal('b') })])
      expect(compileProjector(json(Type.Object({ items: Type.Array(Odd) })))({ items: [{ x: 'own' }] })).toStrictEqual({ items: [{}] })
    } finally {
      delete polluted.id
      delete polluted.kind
      delete polluted.x
    }
  })

  it('copies hostile keys inside unconstrained positions as data', () => {
    const out = compileProjector(json(Type.Object({ meta: Type.Unknown() })))({ meta: hostile() }) as { meta: Record<string, unknown> }
    expect(Object.getPrototypeOf(out.meta)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(out.meta, '__proto__')?.value).toEqual({ polluted: 1 })
    expect(out.meta.polluted).toBeUndefined()
  })
})

describe('compileProjector: errors', () => {
  it('throws a TypeError for a union it could not project unambiguously', () => {
    const untagged = Type.Union([Type.Object({ x: Type.String() }), Type.Object({ y: Type.Number() })])
    expect(() => compileProjector(json(untagged))).toThrow(TypeError)
    expect(() => compileProjector(json(untagged))).toThrow(/required literal tag/)
    expect(() => compileProjector(json(Type.Union([Type.Array(Type.Object({ a: Type.String() })), Type.Array(Type.Object({ b: Type.String() }))])))).toThrow(TypeError)
  })

  it('throws a TypeError for a $ref that does not resolve', () => {
    expect(() => compileProjector({ type: 'object', properties: { a: { $ref: '#/$defs/Missing' } } })).toThrow(TypeError)
  })

  it('throws each as a UsageError (schema_argument_invalid) whose one problem is at its JSON Pointer in the schema', () => {
    const problemOf = (schema: unknown) => {
      try {
        compileProjector(schema as JsonSchema)
      } catch (error) {
        expect(isUsageError(error)).toBe(true)
        expect((error as UsageError).code).toBe('schema_argument_invalid')
        expect((error as UsageError).problems).toHaveLength(1)
        return (error as UsageError).problems[0]
      }
      throw new Error('expected compileProjector to throw')
    }
    const untagged = json(Type.Union([Type.Object({ x: Type.String() }), Type.Object({ y: Type.Number() })]))
    expect(problemOf({ type: 'object', properties: { u: untagged } })).toMatchObject({ path: '/properties/u', code: 'union_not_discriminated' })
    const arrays = json(Type.Union([Type.Array(Type.Object({ a: Type.String() })), Type.Array(Type.Object({ b: Type.String() }))]))
    expect(problemOf({ type: 'object', properties: { list: arrays } })).toMatchObject({ path: '/properties/list', code: 'union_not_discriminated' })
    expect(problemOf({ type: 'object', properties: { a: { $ref: '#/$defs/Missing' } } })).toMatchObject({ path: '/properties/a/$ref', code: 'unresolved_ref' })
    expect(problemOf({ type: 'array', prefixItems: [] })).toMatchObject({ path: '/prefixItems', code: 'unsupported_keyword' })
    expect(problemOf({ type: 'object', properties: { a: { const: NaN } } })).toMatchObject({ path: '/properties/a/const', code: 'schema_not_json' })
    expect(problemOf([])).toMatchObject({ path: '', code: 'not_a_schema' })
  })
})

describe('compileProjector without code generation', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('gives the same results where new Function is not allowed (CSP)', () => {
    const compact = json(SessionCompact)
    const generated = compileProjector(compact)(sessionRecord)
    const blocked = vi.fn(() => {
      throw new EvalError('code generation from strings disallowed')
    })
    vi.stubGlobal('Function', blocked)
    const looped = compileProjector(compact)
    expect(blocked).toHaveBeenCalled()
    expect(looped(sessionRecord)).toEqual(generated)
    const hostile = JSON.parse('{"session":{"id":"x","__proto__":{"p":1},"runtime":{"status":"s","selection_revision":1},"pending_interactions":[],"pull_request":null}}')
    const out = looped(hostile) as { session: Record<string, unknown> }
    expect(Object.keys(out.session)).toEqual(['id', 'runtime', 'pending_interactions', 'pull_request'])
    expect(({} as Record<string, unknown>).p).toBeUndefined()
  })
})

describe('compileProjector and proveViewSubset together', () => {
  it('take TypeBox schemas as they are (hidden keys ignored), not only their JSON copies', () => {
    // TypeBox interfaces have no index signature, hence the casts; the values are used as they are.
    const compact = Type.Object({ id: Type.String(), tags: Type.Optional(Type.Array(Type.String())) }) as unknown as JsonSchema
    const full = Type.Object({ id: Type.String(), tags: Type.Optional(Type.Array(Type.String())), body: Type.String() }) as unknown as JsonSchema
    expect(proveViewSubset(compact, full)).toEqual({ ok: true })
    expect(compileProjector(compact)({ id: 'x', body: 'b' })).toEqual({ id: 'x' })
  })

  it('projects a proven pair so that every compact field equals the full field at the same path', () => {
    const full = Type.Object({
      session: Type.Object({
        id: Type.String(),
        branch: Type.Optional(Type.String()),
        supervision: Type.Object({ heartbeat: Type.Integer() }),
        runtime: Type.Object({ status: Type.String(), generation: Type.Optional(Type.Integer()), selection_revision: Type.Integer(), acp_caps: Type.Object({ fs: Type.Boolean() }) }),
        pending_interactions: Type.Array(Type.Object({ interaction_id: Type.String(), kind: Type.String(), status: Type.String() }, { additionalProperties: true })),
        pull_request: Type.Union([Type.Object({ number: Type.Integer(), url: Type.String(), diff: Type.String() }), Type.Null()]),
        lineage: Type.Object({ permission_policy: Type.Object({ tools: Type.Array(Type.String()) }) }),
      }),
    })
    expect(proveViewSubset(json(SessionCompact), json(full))).toEqual({ ok: true })
    const out = project(SessionCompact, sessionRecord) as Record<string, any>
    expect(out.session.runtime.generation).toBe(sessionRecord.session.runtime.generation)
    expect(out.session.pending_interactions[1].interaction_id).toBe(sessionRecord.session.pending_interactions[1]!.interaction_id)
  })
})

// Found by the second break-it review.
describe('compileProjector: refuses what it cannot copy exactly', () => {
  it('throws a TypeError for non-schemas, keywords the proof cannot read, and schema keys that are not JSON', () => {
    for (const bad of [null, undefined, 1, 'x', [], new Date(0), new Map()]) expect(() => compileProjector(bad as unknown as JsonSchema)).toThrow(TypeError)
    const tuple = { type: 'array', prefixItems: [{ type: 'object', properties: { a: { type: 'string' } } }] }
    expect(() => compileProjector(tuple)).toThrow(/prefixItems/)
    expect(() => compileProjector({ allOf: [{ type: 'object', properties: { a: {} } }] })).toThrow(/allOf/)
    expect(() => compileProjector({ type: 'object', properties: { ['\ud800']: { type: 'string' } } })).toThrow(/not plain JSON/)
  })

  it('refuses objects that are not plain where it reads field by field, in both variants, never reading through a prototype', () => {
    const schema = json(Type.Object({ a: Type.Optional(Type.String()), inner: Type.Optional(Type.Object({ b: Type.Optional(Type.String()) })) }))
    const generated = compileProjector(schema)
    vi.stubGlobal('Function', () => {
      throw new EvalError('code generation from strings disallowed')
    })
    let looped
    try {
      looped = compileProjector(schema)
    } finally {
      vi.unstubAllGlobals()
    }
    class Thing {
      get a() {
        return 'inherited'
      }
    }
    for (const project of [generated, looped]) {
      for (const record of [Object.assign(Object.create({ a: 'inherited' }), { b: 'x' }), new Thing(), { inner: new Date(0) }, { inner: new Thing() }]) {
        expect(() => project(record)).toThrow(expect.objectContaining({ code: 'non_json_value', problem: 'non_plain_object' }))
      }
    }
  })

  it('turns a throwing getter or a value deeper than the call stack into a JsonValueError', () => {
    const project = compileProjector(json(Type.Object({ a: Type.Optional(Type.String()) })))
    const getter = {
      get a(): string {
        throw new Error('getter')
      },
    }
    expect(() => project(getter)).toThrow(expect.objectContaining({ code: 'non_json_value', problem: 'unreadable' }))
    const Node = Type.Cyclic({ Node: Type.Object({ child: Type.Optional(Type.Ref('Node')) }) }, 'Node')
    const recursive = compileProjector(json(Node))
    let deep: Record<string, unknown> = {}
    for (let i = 0; i < 50_000; i++) deep = { child: deep }
    expect(() => recursive(deep)).toThrow(expect.objectContaining({ code: 'non_json_value', problem: 'too_deep' }))
  })
})
