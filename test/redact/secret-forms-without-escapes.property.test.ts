// The shortcuts for text with nothing to escape: a pointer token without "~" or "/", a secret
// without quotes, backslashes, controls or surrogates. Each form must equal what the escaping
// itself writes, for every string (lone surrogates, pairs, controls and both pointer characters
// included), so a secret is scrubbed in exactly the encodings it was before; a secret JSON leaves
// as it is gets no percent-encoded JSON form (it would equal its percent form).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { escapePointerToken } from '../../src/json/pointer.js'
import { secretForms } from '../../src/redact/secrets.js'

const escapedToken = (text: string): string => text.replace(/~/g, '~0').replace(/\//g, '~1')
const escapedJson = (text: string): string => JSON.stringify(text).slice(1, -1)
const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('a', '~', '/', '"', '\\', '\n', '\u0000', '\ud800', '\udc00', '😀', '\u2028') }),
)

describe('escaping shortcuts', () => {
  it('escapePointerToken writes what the two replacements write', () => {
    fc.assert(fc.property(text, (token) => {
        expect(escapePointerToken(token)).toBe(escapedToken(token))
      }), { numRuns: 2000 })
  })

  it('secretForms lists the same distinct forms as escaping every one', () => {
    fc.assert(
      fc.property(text, (secret) => {
        const json = escapedJson(secret)
        const pointer = escapedToken(secret)
        const forms = new Set([secret, json, pointer, escapedJson(pointer), escapedToken(json), escapedJson(json)])
        try {
          forms.add(encodeURIComponent(secret))
        } catch {
          // A lone surrogate has no percent-encoding.
        }
        // Percent-encoded JSON (JSON a handler put in a URL), once and twice escaped, when JSON
        // changes the secret; pointer forms are not percent-encoded.
        if (json !== secret) for (const escaped of [json, escapedJson(json)]) forms.add(encodeURIComponent(escaped))
        const want = [...forms]
        expect(secretForms(secret)).toEqual(want)
      }),
      { numRuns: 2000 },
    )
  })
})
