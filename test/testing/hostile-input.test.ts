import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { HOSTILE_HUGE_STRING_LENGTH, HOSTILE_MAX_NESTING, hostileInputArbitrary } from 'result-views/testing'

type Category =
  | 'map' | 'set' | 'date' | 'bigint' | 'typed_array' | 'boxed' | 'null_prototype' | 'sparse_array'
  | 'proto_key' | 'constructor_key' | 'deep_nesting' | 'max_nesting' | 'huge_string' | 'non_finite'
  | 'lone_surrogate' | 'to_json' | 'function' | 'symbol' | 'cycle' | 'huge_sparse_array'

const ALL: readonly Category[] = [
  'map', 'set', 'date', 'bigint', 'typed_array', 'boxed', 'null_prototype', 'sparse_array',
  'proto_key', 'constructor_key', 'deep_nesting', 'max_nesting', 'huge_string', 'non_finite',
  'lone_surrogate', 'to_json', 'function', 'symbol', 'cycle', 'huge_sparse_array',
]

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Every category a value shows, found by an iterative walk that never calls getters or toJSON. */
function categoriesOf(root: unknown): Set<Category> {
  const found = new Set<Category>()
  const seen = new Set<object>()
  const stack: Array<[unknown, number]> = [[root, 0]]
  let maxDepth = 0
  const text = (value: string): void => {
    if (value.length >= HOSTILE_HUGE_STRING_LENGTH) found.add('huge_string')
    if (LONE_SURROGATE.test(value)) found.add('lone_surrogate')
  }
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!
    maxDepth = Math.max(maxDepth, depth)
    if (typeof value === 'string') text(value)
    else if (typeof value === 'number' && !Number.isFinite(value)) found.add('non_finite')
    else if (typeof value === 'bigint') found.add('bigint')
    else if (typeof value === 'symbol') found.add('symbol')
    else if (typeof value === 'function') found.add('function')
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) continue
    if (seen.has(value)) {
      found.add('cycle')
      continue
    }
    seen.add(value)
    if (value instanceof Map) {
      found.add('map')
      for (const [key, item] of value) stack.push([key, depth + 1], [item, depth + 1])
      continue
    }
    if (value instanceof Set) {
      found.add('set')
      for (const item of value) stack.push([item, depth + 1])
      continue
    }
    if (value instanceof Date) found.add('date')
    if (ArrayBuffer.isView(value)) {
      found.add('typed_array')
      continue
    }
    if (value instanceof Number || value instanceof String || value instanceof Boolean) found.add('boxed')
    if (typeof value === 'object' && Object.getPrototypeOf(value) === null) found.add('null_prototype')
    if (Array.isArray(value)) {
      // Stops at the first hole: the huge sparse arrays have 2 ** 32 - 1 indices.
      for (let index = 0; index < value.length; index++) {
        if (!(index in value)) {
          found.add('sparse_array')
          if (value.length >= 2 ** 26) found.add('huge_sparse_array')
          break
        }
      }
    }
    for (const key of Reflect.ownKeys(value)) {
      if (typeof key === 'symbol') {
        found.add('symbol')
      } else {
        text(key)
        if (key === '__proto__') found.add('proto_key')
        if (key === 'constructor' || key === 'prototype') found.add('constructor_key')
      }
      const descriptor = Object.getOwnPropertyDescriptor(value, key)!
      if (key === 'toJSON' && typeof descriptor.value === 'function') found.add('to_json')
      if ('value' in descriptor && !(typeof value === 'function' && (key === 'prototype' || key === 'name' || key === 'length'))) {
        stack.push([descriptor.value, depth + 1])
      }
    }
  }
  if (maxDepth >= 1_000) found.add('deep_nesting')
  if (maxDepth >= HOSTILE_MAX_NESTING) found.add('max_nesting')
  return found
}

describe('hostileInputArbitrary', () => {
  const samples = fc.sample(hostileInputArbitrary(), { numRuns: 2_000, seed: 31 })
  const perSample = samples.map(categoriesOf)

  it.each(ALL)('covers %s within 2,000 samples', (category) => {
    expect(perSample.filter((found) => found.has(category)).length).toBeGreaterThan(0)
  })

  it('keeps deep nesting and huge strings rare (under 5% each)', () => {
    for (const category of ['deep_nesting', 'huge_string'] as const) {
      expect(perSample.filter((found) => found.has(category)).length).toBeLessThan(samples.length * 0.05)
    }
  })

  it('parses prototype-polluting JSON without polluting Object.prototype', () => {
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
    const polluted = samples.filter((sample) => typeof sample === 'object' && sample !== null && Object.prototype.hasOwnProperty.call(sample, '__proto__'))
    expect(polluted.length).toBeGreaterThan(0)
  })

  it('returns a fresh value on every generation (mutating one sample never changes another)', () => {
    const again = fc.sample(hostileInputArbitrary(), { numRuns: 200, seed: 31 })
    const objects = again.filter((value, index) => typeof value === 'object' && value !== null && value === samples[index])
    expect(objects).toEqual([])
  })
})
