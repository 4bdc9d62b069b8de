// compileProjector called directly on records nobody validated: a non-plain object is refused
// wherever it sits, and every error names the JSON Pointer of the bad value from the record's root.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { compileProjector, defineTool, isUsageError, proveViewSubset } from 'result-views'

const Item = Type.Union([Type.Object({ kind: Type.Literal('a'), x: Type.String() }), Type.Object({ kind: Type.Literal('b'), n: Type.Number() })])
const project = compileProjector(Type.Object({ s: Type.String(), arr: Type.Array(Item) }))

function thrownBy(run: () => unknown): { pointer?: string; problem?: string; code?: string } {
  try {
    run()
  } catch (error) {
    return error as { pointer?: string; problem?: string; code?: string }
  }
  throw new Error('expected a throw')
}

class Instance {
  id = 'q'
}

describe('a non-plain object where the compact schema declares no object', () => {
  it.each([
    ['a boxed String', new String('secret')],
    ['a boxed Number', new Number(1)],
    ['a Date', new Date(0)],
    ['a class instance', new Instance()],
  ])('%s at a string position is refused (non_plain_object at /s), never copied as {}', (_label, value) => {
    expect(thrownBy(() => project({ s: value, arr: [] }))).toMatchObject({ code: 'non_json_value', problem: 'non_plain_object', pointer: '/s' })
  })

  it('a record that fits is projected as before', () => {
    expect(project({ s: 'x', arr: [{ kind: 'b', n: 1, extra: true }] })).toEqual({ s: 'x', arr: [{ kind: 'b', n: 1 }] })
  })
})

describe('projector errors name the pointer from the root', () => {
  const C = Type.Object({ f: Type.Number(), o: Type.Object({ id: Type.String() }), arr: Type.Array(Type.Object({ id: Type.String() })), any: Type.Optional(Type.Unknown()) })
  const projectC = compileProjector(C)
  const base = () => ({ f: 1, o: { id: 'q' }, arr: [{ id: 'a' }] as unknown[] })
  // eslint-disable-next-line no-sparse-arrays
  const holey = [{ id: 'a' }, , { id: 'c' }]
  it.each([
    ['/f', 'non_finite_number', { ...base(), f: Number.NaN }],
    ['/o', 'non_plain_object', { ...base(), o: new Instance() }],
    ['/arr/1', 'sparse_array', { ...base(), arr: holey }],
    ['/any/deep/1', 'non_plain_object', { ...base(), any: { deep: [1, new Date(0)] } }],
    ['/any/a/b', 'undefined', { ...base(), any: { a: { b: undefined } } }],
  ])('%s (%s)', (pointer, problem, record) => {
    expect(thrownBy(() => projectC(record))).toMatchObject({ code: 'non_json_value', pointer, problem })
  })
})

describe('a schema argument that is a hostile Proxy', () => {
  const full = { type: 'object', properties: { id: { type: 'string' } } }
  const trapping = () => new Proxy({ type: 'object' }, { getPrototypeOf: () => { throw new Error('trap') } })
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    return proxy
  }
  it.each([
    ['a getPrototypeOf trap that throws', trapping],
    ['a revoked Proxy', revoked],
  ])('%s is not_a_schema for proveViewSubset and compileProjector, a UsageError, not the raw error', (_label, make) => {
    for (const run of [() => proveViewSubset(make() as never, full as never), () => proveViewSubset(full as never, make() as never), () => compileProjector(make() as never)]) {
      const error = thrownBy(run)
      expect(isUsageError(error)).toBe(true)
      expect(error).toMatchObject({ code: 'schema_argument_invalid', problems: [{ path: '', code: 'not_a_schema' }] })
    }
  })

  it('defineTool names the schema a revoked Proxy stands for (/input invalid_schema)', () => {
    const error = thrownBy(() => defineTool({ id: 't', description: 'd', input: revoked(), output: full, handler: () => ({}) } as never))
    expect(error).toMatchObject({ problems: [{ path: '/input', code: 'invalid_schema' }] })
  })
})

describe('a union tag that is not JSON', () => {
  const Tagged = Type.Object({ u: Type.Union([Type.Object({ kind: Type.Literal('x'), a: Type.String() }), Type.Object({ kind: Type.Literal('y'), b: Type.String() })]) })
  const projectTagged = compileProjector(Tagged)
  it.each([
    ['a Date', new Date(0), 'non_plain_object'],
    ['a boxed String', new String('x'), 'non_plain_object'],
    ['a Map', new Map(), 'non_plain_object'],
    ['NaN', Number.NaN, 'non_finite_number'],
    ['a function', () => 'x', 'function'],
  ])('%s at /u/kind is refused at its pointer, never projected as {}', (_label, tag, problem) => {
    expect(thrownBy(() => projectTagged({ u: { kind: tag, a: 's' } }))).toMatchObject({ code: 'non_json_value', pointer: '/u/kind', problem })
  })

  it.each([
    ['an array holding a Date', [new Date(0)], '/u/kind/0', 'non_plain_object'],
    ['an object holding NaN', { n: Number.NaN }, '/u/kind/n', 'non_finite_number'],
    ['an object holding a function', { f: () => 1 }, '/u/kind/f', 'function'],
  ])('a tag that is %s is refused at the bad value inside it', (_label, tag, pointer, problem) => {
    expect(thrownBy(() => projectTagged({ u: { kind: tag, a: 's' } }))).toMatchObject({ code: 'non_json_value', pointer, problem })
  })

  it('a JSON tag no branch has still gives an empty object there', () => {
    expect(projectTagged({ u: { kind: 'z', a: 's' } })).toEqual({ u: {} })
    expect(projectTagged({ u: { kind: ['x'], a: 's' } })).toEqual({ u: {} })
  })
})

describe('a schema argument read once', () => {
  /** `{ type: 'object', properties: { a } }` whose `a.type` answers 'string' once, then throws. */
  function onceReadable() {
    let reads = 0
    const a = {}
    Object.defineProperty(a, 'type', {
      enumerable: true,
      get() {
        if (++reads > 1) throw new Error('host getter: second read')
        return 'string'
      },
    })
    return { type: 'object', required: ['a'], properties: { a } }
  }
  const good = Type.Object({ a: Type.String() })

  it('proveViewSubset reads each schema argument once (a getter that throws on a second read never throws)', () => {
    expect(proveViewSubset(onceReadable() as never, good)).toEqual({ ok: true })
    expect(proveViewSubset(good, onceReadable() as never)).toEqual({ ok: true })
  })

  it('compileProjector reads its schema once', () => {
    expect(compileProjector(onceReadable() as never)({ a: 'x', b: 1 })).toEqual({ a: 'x' })
  })

  it('a Proxy whose get trap throws after a few reads is read once, or answers the typed error', () => {
    let reads = 0
    const proxy = new Proxy(
      { type: 'object', properties: { a: { type: 'string' } } },
      {
        get(target, key, receiver) {
          if (typeof key === 'string' && ++reads > 3) throw new Error('host trap: later read')
          return Reflect.get(target, key, receiver)
        },
      },
    )
    let outcome: unknown
    try {
      outcome = proveViewSubset(proxy as never, good)
    } catch (error) {
      outcome = error
    }
    expect(isUsageError(outcome) ? (outcome as { code: string }).code : outcome).toSatisfy((value: unknown) => value === 'schema_argument_invalid' || (value as { ok?: boolean }).ok === true)
  })
})
