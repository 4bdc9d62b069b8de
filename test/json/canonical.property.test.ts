import { createHash } from 'node:crypto'
import fc from 'fast-check'
import stableStringify from 'fast-json-stable-stringify'
import { describe, expect, it } from 'vitest'
import { canonicalJson, inputDigest, isJsonValueError, schemaDigest } from 'result-views'

/**
 * `fast-json-stable-stringify` is the definition of our canonical form: the one-pass writer must
 * give exactly its bytes on every plain JSON value, and refuse (with `lone_surrogate`) exactly the
 * strings that are not well-formed. 10⁴ values per generator.
 */
const RUNS = 10_000

const sha = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex')

/** The definition's text and digests, compared with ours. */
function agrees(value: unknown): void {
  const expected = stableStringify(value)
  expect(canonicalJson(value)).toBe(expected)
  expect(schemaDigest(value)).toBe(sha(expected))
}

/** Plain JSON whose strings and keys come from `string`. */
function jsonOf(string: fc.Arbitrary<string>, options: { maxKeys?: number; maxLength?: number } = {}): fc.Arbitrary<unknown> {
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      string,
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: options.maxLength ?? 5 }),
      fc.dictionary(string, tie('value'), { maxKeys: options.maxKeys ?? 5 }),
    ),
  })).value
}

/** Any UTF-16 code unit, lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c))
/** Characters JSON must escape, and their neighbours. */
const escapable = fc.constantFrom('"', '\\', '/', '\b', '\f', '\n', '\r', '\t', '\u0000', '\u0001', '\u001f', '\u007f', '\u2028', '\u2029', '~', 'a', 'é', '€')

describe('canonicalJson is fast-json-stable-stringify on plain JSON', () => {
  it('on plain JSON values (fast-check jsonValue)', () => {
    fc.assert(fc.property(fc.jsonValue(), agrees), { numRuns: RUNS })
  })

  it('on strings of any code point (binary units: surrogate pairs, non-BMP)', () => {
    fc.assert(fc.property(jsonOf(fc.string({ unit: 'binary', maxLength: 12 })), agrees), { numRuns: RUNS })
  })

  it('on strings of grapheme clusters (combining marks, emoji sequences)', () => {
    fc.assert(fc.property(jsonOf(fc.string({ unit: 'grapheme', maxLength: 8 })), agrees), { numRuns: RUNS })
  })

  it('on keys and strings that need escaping (quotes, backslashes, control characters, separators)', () => {
    fc.assert(fc.property(jsonOf(fc.string({ unit: escapable, maxLength: 10 })), agrees), { numRuns: RUNS })
  })

  it('on control characters alone', () => {
    const control = fc.integer({ min: 0, max: 0x20 }).map((c) => String.fromCharCode(c))
    fc.assert(fc.property(fc.array(fc.string({ unit: control, maxLength: 6 }), { maxLength: 6 }), agrees), { numRuns: RUNS })
  })

  it('on wide objects (past the insertion-sort size) and long arrays', () => {
    const key = fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'Z', '0', '_', 'é', '\u{1F600}', '"'), maxLength: 4 })
    const wide = fc.dictionary(key, fc.oneof(fc.integer(), fc.string({ maxLength: 3 }), fc.constant(null)), { minKeys: 10, maxKeys: 60 })
    fc.assert(fc.property(fc.oneof(wide, fc.array(wide, { maxLength: 3 }), fc.array(fc.integer(), { minLength: 20, maxLength: 80 })), agrees), { numRuns: RUNS })
  })

  it('on doubles, -0, exponents and the extremes', () => {
    const special = fc.constantFrom(-0, 0, 1e21, 1e-7, 1e-6, 123e-20, 5e-324, -5e-324, 1.7976931348623157e308, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, 0.1 + 0.2, 333333333.3333333)
    const number = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), special)
    fc.assert(fc.property(fc.oneof(number, fc.array(number, { maxLength: 8 }), fc.dictionary(fc.string({ maxLength: 3 }), number)), agrees), { numRuns: RUNS })
  })

  it('refuses exactly the values holding a lone surrogate, with the lone_surrogate problem', () => {
    const isWellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed()
    const holdsLone = (value: unknown): boolean =>
      typeof value === 'string'
        ? !isWellFormed(value)
        : typeof value === 'object' && value !== null && Object.entries(value).some(([k, v]) => !isWellFormed(k) || holdsLone(v))
    fc.assert(
      fc.property(jsonOf(fc.string({ unit: codeUnit, maxLength: 6 })), (value) => {
        if (!holdsLone(value)) return agrees(value)
        try {
          canonicalJson(value)
        } catch (error) {
          expect(isJsonValueError(error) && error.problem).toBe('lone_surrogate')
          return
        }
        expect.unreachable('a lone surrogate was written')
      }),
      { numRuns: RUNS },
    )
  })

  it('leaves out only the top-level result_view in input digests, checking it still', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }), fc.jsonValue({ maxDepth: 1 }), (input, view) => {
        const withView = { ...input, result_view: view }
        const without = Object.fromEntries(Object.entries(withView).filter(([k]) => k !== 'result_view'))
        expect(inputDigest(withView)).toBe('sha256:' + sha(stableStringify(without)))
        expect(inputDigest(withView, { origin: 'mcp' })).toBe('sha256:' + sha(stableStringify(withView)))
      }),
      { numRuns: RUNS },
    )
    expect(() => inputDigest({ a: 1, result_view: [NaN] })).toThrow(expect.objectContaining({ pointer: '/result_view/0' }))
  })
})
