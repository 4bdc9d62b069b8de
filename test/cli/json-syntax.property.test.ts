// findJsonSyntaxError agrees with JSON.parse on which texts are JSON, and points inside the text.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { findJsonSyntaxError } from '../../src/cli/json-syntax.js'

const parses = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** JSON texts, then the same texts with one character inserted, deleted or replaced by a JSON-ish one. */
const jsonText = fc.json({ maxDepth: 4 })
const jsonish = fc.constantFrom(...'{}[],:"\\ 0123456789-+.eEtrufalsn\n\tx\u0001\u2028'.split(''))
const mutated = fc.tuple(jsonText, fc.nat(), fc.nat(2), jsonish).map(([text, at, how, char]) => {
  const i = text.length === 0 ? 0 : at % (text.length + 1)
  if (how === 0) return text.slice(0, i) + char + text.slice(i)
  if (how === 1) return text.slice(0, i) + text.slice(i + 1)
  return text.slice(0, i) + char + text.slice(i + 1)
})

describe('findJsonSyntaxError', () => {
  it('finds no error exactly where JSON.parse succeeds, and an offset within the text where it fails', () => {
    fc.assert(
      fc.property(fc.oneof(jsonText, mutated, fc.string({ maxLength: 12, unit: 'binary' })), (text) => {
        const error = findJsonSyntaxError(text)
        expect(error === undefined).toBe(parses(text))
        if (error !== undefined) {
          expect(error.offset).toBeGreaterThanOrEqual(0)
          expect(error.offset).toBeLessThanOrEqual(text.length)
        }
      }),
      { numRuns: 3_000 },
    )
  })

  it('gives lines and columns from 1, counting the characters before the error', () => {
    expect(findJsonSyntaxError('{"a":1,}')).toEqual({ offset: 7, line: 1, column: 8, problem: 'expected a property name in double quotes' })
    expect(findJsonSyntaxError('[\n  1,\n  tru\n]')).toEqual({ offset: 9, line: 3, column: 3, problem: 'unexpected character (expected a value)' })
    expect(findJsonSyntaxError('{"a":"\u0001"}')?.problem).toBe('control character in a string (escape it)')
    expect(findJsonSyntaxError('"\\x"')?.problem).toBe('bad escape in a string')
    expect(findJsonSyntaxError('01')?.problem).toBe('unexpected character after the JSON value')
  })

  it('scans 5,000-deep nesting without using the stack', () => {
    const deep = '['.repeat(5_000) + ']'.repeat(5_000)
    expect(findJsonSyntaxError(deep)).toBeUndefined()
    expect(findJsonSyntaxError(deep.slice(0, -1))).toMatchObject({ offset: 9_999, problem: 'unexpected end of input' })
  })
})
