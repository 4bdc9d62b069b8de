// Regression (break-it review): findSecretLeak threw `URIError: URI malformed` on a canary holding
// a lone surrogate, since `encodeURIComponent` refuses one. A testing helper must not throw on the
// values it checks: the forms that cannot be percent-encoded are not looked for, every other form is.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { findSecretLeak } from 'result-views/testing'

const CANARY = 'sk-live-\uD800-abcdefgh'

describe('findSecretLeak on a canary with a lone surrogate', () => {
  it('reports nothing in text without it, instead of throwing', () => {
    expect(findSecretLeak('nothing here', CANARY)).toBeUndefined()
  })

  it('still finds it raw, JSON-escaped, pointer-escaped and as percent-encoded JSON', () => {
    expect(findSecretLeak(`x ${CANARY} y`, CANARY)).toEqual({ form: 'raw', part: 'sk-live-' })
    // JSON escapes the lone surrogate (`\ud800`), so the JSON text has a percent-encoding; the
    // spaces leave no 8 characters of any other form in the URL.
    const spaced = '\uD800 a b c d e'
    expect(findSecretLeak('?q=' + encodeURIComponent(JSON.stringify(spaced)), spaced)).toEqual({ form: 'percent(json)', part: '%5Cud800' })
    expect(findSecretLeak(JSON.stringify({ k: '\uD800' }), '\uD800', { minPartLength: 6 })).toEqual({ form: 'json', part: '\\ud800' })
    expect(findSecretLeak('/x/a~1\uDC00', '/\uDC00', { minPartLength: 3 })).toEqual({ form: 'pointer', part: '~1\uDC00' })
  })

  it('property: never throws on any canary and text, and finds a canary planted as it is', () => {
    const units = fc.string({ unit: fc.constantFrom('a', 'B', '~', '/', '"', '\\', '%', '\n', '\ud800', '\udc00', '😀'), minLength: 1, maxLength: 24 })
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 24 }), units, fc.string({ unit: 'binary', maxLength: 40 }), (canary, other, text) => {
        expect(() => findSecretLeak(text, canary + other, { minPartLength: 4 })).not.toThrow()
        expect(findSecretLeak(text + canary + other + text, canary + other, { minPartLength: 4 })).toBeDefined()
      }),
      { numRuns: 500 },
    )
  })
})
