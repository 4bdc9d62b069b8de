// stringifyJson writes what JSON.stringify writes for parsed JSON, indented or not, and any depth.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nestsDeeperThan, stringifyJson } from '../../src/json/json-text.js'

describe('stringifyJson', () => {
  it('agrees with JSON.stringify on every JSON value, with and without an indent', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const parsed = JSON.parse(JSON.stringify(value))
        expect(stringifyJson(parsed)).toBe(JSON.stringify(parsed))
        expect(stringifyJson(parsed, 2)).toBe(JSON.stringify(parsed, null, 2))
      }),
      { numRuns: 300 },
    )
  })

  it('writes 100,000 levels of nesting that JSON.stringify cannot', () => {
    const text = `${'[{"a":'.repeat(50_000)}1${'}]'.repeat(50_000)}`
    const value = JSON.parse(text)
    expect(() => JSON.stringify(value)).toThrow(RangeError)
    expect(stringifyJson(value)).toBe(text)
  })
})

describe('nestsDeeperThan', () => {
  it('counts each object and array as one level', () => {
    expect(nestsDeeperThan(1, 0)).toBe(false)
    expect(nestsDeeperThan({}, 0)).toBe(true)
    expect(nestsDeeperThan({ a: [1, { b: [] }] }, 4)).toBe(false)
    expect(nestsDeeperThan({ a: [1, { b: [] }] }, 3)).toBe(true)
    expect(nestsDeeperThan(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), 99_999)).toBe(true)
  })
})
