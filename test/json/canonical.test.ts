import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { JsonValueError, canonicalJson, isJsonValueError } from 'result-views'

function rejection(value: unknown): { problem: string; pointer: string } {
  try {
    canonicalJson(value)
  } catch (error) {
    expect(isJsonValueError(error)).toBe(true)
    const e = error as JsonValueError
    expect(e.code).toBe('non_json_value')
    return { problem: e.problem, pointer: e.pointer }
  }
  throw new Error('expected canonicalJson to reject the value')
}

describe('canonicalJson', () => {
  it('sorts keys and drops whitespace (RFC 8785 on plain JSON)', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], c: { z: 1.5, y: -0 } })).toBe('{"a":[true,null,"x"],"b":1,"c":{"y":0,"z":1.5}}')
  })

  it('orders keys by UTF-16 code units (RFC 8785 section 3.2.3)', () => {
    expect(canonicalJson({ '\u20ac': 1, '\r': 2, '\ud83d\ude00': 3, '1': 4, a: 5 })).toBe('{"\\r":2,"1":4,"a":5,"\u20ac":1,"\ud83d\ude00":3}')
  })

  it('serializes numbers the ECMAScript way (RFC 8785 section 3.2.2.3)', () => {
    expect(canonicalJson([1e21, 1e-7, 0.1, 100, 333333333.3333333])).toBe('[1e+21,1e-7,0.1,100,333333333.3333333]')
  })

  it.each([
    ['undefined', { a: undefined }, 'undefined', '/a'],
    ['NaN', { a: [1, NaN] }, 'non_finite_number', '/a/1'],
    ['Infinity', Infinity, 'non_finite_number', ''],
    ['-Infinity', { x: { y: -Infinity } }, 'non_finite_number', '/x/y'],
    ['a function', { f: () => 1 }, 'function', '/f'],
    ['a BigInt', { n: 1n }, 'bigint', '/n'],
    ['a symbol', [Symbol('s')], 'symbol', '/0'],
    ['a Date', { at: new Date(0) }, 'non_plain_object', '/at'],
    ['a Map', { m: new Map() }, 'non_plain_object', '/m'],
    ['a Set', new Set(), 'non_plain_object', ''],
    ['a boxed string', { s: new String('x') }, 'non_plain_object', '/s'],
    ['a boxed number', [new Number(1)], 'non_plain_object', '/0'],
    ['a class instance', { c: new (class Thing {})() }, 'non_plain_object', '/c'],
    ['a lone surrogate in a string', { s: 'a\ud800' }, 'lone_surrogate', '/s'],
    ['a lone surrogate in a key', { ['k\udc00']: 1 }, 'lone_surrogate', '/k\udc00'],
    ['an object with toJSON', { t: { toJSON: () => 1 } }, 'to_json', '/t'],
    ['an object with a hidden toJSON', { t: Object.defineProperty({}, 'toJSON', { value: () => 1 }) }, 'to_json', '/t'],
    ['an array with toJSON', { t: Object.assign([1], { toJSON: () => 1 }) }, 'to_json', '/t'],
    ['a sparse array', { a: [1, , 3] }, 'sparse_array', '/a/1'],
  ])('rejects %s with a JSON Pointer to it', (_name, value, problem, pointer) => {
    expect(rejection(value)).toEqual({ problem, pointer })
  })

  it('rejects a hole in an array of length 2**32 - 1 at the first missing index, at once', () => {
    const a: unknown[] = []
    a.length = 2 ** 32 - 1
    expect(rejection(a)).toEqual({ problem: 'sparse_array', pointer: '/0' })
    const b: unknown[] = [1, 2, 3]
    b.length = 2 ** 32 - 1
    expect(rejection({ b })).toEqual({ problem: 'sparse_array', pointer: '/b/3' })
  })

  it('rejects new Array(2**26) at index 0 with no memory proportional to its length', () => {
    const before = process.memoryUsage().heapUsed
    expect(rejection({ items: new Array(2 ** 26) })).toEqual({ problem: 'sparse_array', pointer: '/items/0' })
    // A list of its 2**26 indices would take 512 MB; the heap may move a little for other reasons.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(32 * 1024 * 1024)
  })

  it('ignores symbol-keyed properties, as JSON.stringify does (they are not JSON data)', () => {
    expect(canonicalJson({ a: 1, [Symbol('k')]: 2 })).toBe('{"a":1}')
  })

  it('escapes pointer tokens (RFC 6901)', () => {
    expect(rejection({ 'a/b': { '~c': NaN } }).pointer).toBe('/a~1b/~0c')
  })

  it('rejects cycles, but accepts shared references', () => {
    const cyclic: Record<string, unknown> = { a: {} }
    ;(cyclic.a as Record<string, unknown>).back = cyclic
    expect(rejection(cyclic)).toEqual({ problem: 'cycle', pointer: '/a/back' })
    const shared = { x: 1 }
    expect(canonicalJson({ a: shared, b: [shared] })).toBe('{"a":{"x":1},"b":[{"x":1}]}')
  })

  it('accepts null-prototype objects and JSON-parsed __proto__ keys as plain data', () => {
    const parsed = JSON.parse('{"__proto__":{"x":1},"b":2}')
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"x":1},"b":2}')
    const bare = Object.assign(Object.create(null), { a: 1 })
    expect(canonicalJson(bare)).toBe('{"a":1}')
  })

  it('handles 5,000-deep nesting and rejects absurd depth with a typed error', () => {
    let deep: unknown = 0
    for (let i = 0; i < 5_000; i++) deep = [deep]
    expect(canonicalJson(deep)).toHaveLength(10_001)
    let deeper: unknown = 0
    for (let i = 0; i < 5_001; i++) deeper = { a: deeper }
    expect(rejection(deeper).problem).toBe('too_deep')
  })

  it('never lets two different values share a canonical form (NaN/null, Date/ISO string, undefined/absent)', () => {
    expect(() => canonicalJson(NaN)).toThrow(JsonValueError)
    expect(() => canonicalJson(new Date(0))).toThrow(JsonValueError)
    expect(() => canonicalJson({ a: undefined })).toThrow(JsonValueError)
  })

  it('round-trips: parsing the canonical form gives a deep-equal value, and key order never matters', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value)
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)))
        expect(canonicalJson(JSON.parse(text))).toBe(text)
        expect(canonicalJson(reverseKeys(value))).toBe(text)
      }),
      { numRuns: 500 },
    )
  })
})

function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys)
  if (typeof value !== 'object' || value === null) return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value).reverse()) {
    Object.defineProperty(out, key, { value: reverseKeys((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true })
  }
  return out
}
