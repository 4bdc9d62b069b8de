// Regression (break-it review of URL forms): findSecretLeak, the oracle hosts audit their surfaces
// with, looked for a canary percent-encoded by `encodeURIComponent` only. A canary a handler put in
// a URL with `URLSearchParams` (space → `+`, `!'()~` escaped), with `encodeURI` (`/` and `?` left
// as they are) or with lower-case hex digits (`%2f`) is found now, and the form is named.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DEFAULT_LEAK_PART_LENGTH, findSecretLeak, secretCanaryArbitrary } from 'result-views/testing'

const lowerHex = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())
const formEncoded = (text: string): string => new URLSearchParams([['', text]]).toString().slice(1)
const json = (text: string): string => JSON.stringify(text).slice(1, -1)

describe('findSecretLeak on a canary in a URL', () => {
  it('names the form it found: urlencoded, uri, lowerhex(...) and the JSON in a URL', () => {
    // Every run of 8 characters of these forms differs from every run of the forms before them.
    expect(findSecretLeak('?k=' + formEncoded('(AB) CD!EF'), '(AB) CD!EF')).toEqual({ form: 'urlencoded', part: '%28AB%29' })
    expect(findSecretLeak('/x/' + encodeURI('A"B/C"D/E"F'), 'A"B/C"D/E"F')).toEqual({ form: 'uri', part: 'A%22B/C%' })
    expect(findSecretLeak('?k=' + lowerHex(encodeURIComponent('a/b/c/d/e')), 'a/b/c/d/e')).toEqual({ form: 'lowerhex(percent)', part: 'a%2fb%2f' })
    expect(findSecretLeak('?k=' + lowerHex(formEncoded('~a~b~c~d')), '~a~b~c~d')).toEqual({ form: 'lowerhex(urlencoded)', part: '%7ea%7eb' })
    expect(findSecretLeak('/x/' + lowerHex(encodeURI('a/{b}/{c}')), 'a/{b}/{c}')).toEqual({ form: 'lowerhex(uri)', part: 'a/%7bb%7' })
    expect(findSecretLeak('?q=' + formEncoded(JSON.stringify({ k: 'a" b" c" d' })), 'a" b" c" d')).toEqual({ form: 'urlencoded(json)', part: 'a%5C%22+' })
  })

  it('finds a canary with a lone surrogate form-encoded, where encodeURI and encodeURIComponent refuse it', () => {
    const canary = 'AB \uD800 CD'
    expect(() => encodeURI(canary)).toThrow()
    expect(findSecretLeak('?k=' + new URLSearchParams({ k: canary }), canary)).toEqual({ form: 'urlencoded', part: 'AB+%EF%B' })
  })

  it('finds nothing in scrubbed text', () => {
    expect(findSecretLeak('request failed: https://api.example/x?api_key=[REDACTED]&v=1', 'sk live/secret(key)~1')).toBeUndefined()
  })

  it('property: any cut of any URL form of a canary, upper or lower hex, is found', () => {
    const canary = fc.oneof(
      secretCanaryArbitrary(),
      fc.tuple(fc.stringMatching(/^[A-Z0-9]{4,8}$/), fc.array(fc.tuple(fc.constantFrom(' ', '(', ')', '!', "'", '~', '/', '?', '"'), fc.stringMatching(/^[A-Z0-9]{4,8}$/)), { minLength: 1, maxLength: 5 })).map(
        ([first, rest]) => first + rest.map(([separator, chunk]) => separator + chunk).join(''),
      ),
    )
    const encode = fc.constantFrom<Array<(text: string) => string>>(
      formEncoded,
      encodeURI,
      encodeURIComponent,
      (text) => lowerHex(formEncoded(text)),
      (text) => lowerHex(encodeURI(text)),
      (text) => lowerHex(encodeURIComponent(text)),
      (text) => formEncoded(json(text)),
      (text) => lowerHex(encodeURI(json(text))),
    )
    fc.assert(
      fc.property(canary, encode, fc.nat(), (secret, form, at) => {
        const text = form(secret)
        const start = at % (text.length - DEFAULT_LEAK_PART_LENGTH + 1)
        expect(findSecretLeak(`x${text.slice(start, start + DEFAULT_LEAK_PART_LENGTH)}x`, secret)).toBeDefined()
      }),
      { numRuns: 500 },
    )
  })
})
