// The shortcuts for text with nothing to escape: a pointer token without "~" or "/", a secret
// without quotes, backslashes, controls or surrogates. Each form must equal what the escaping
// itself writes, for every string (lone surrogates, pairs, controls and both pointer characters
// included), so a secret is scrubbed in exactly the encodings it was before; a secret JSON leaves
// as it is gets no URL-encoded JSON form (it would equal its URL forms). The URL forms are checked
// against the encoders themselves (`encodeURIComponent`, `URLSearchParams`, `encodeURI`, each with
// lower-case hex too), and a secret no encoder changes still has exactly one form.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { escapePointerToken } from '../../src/json/pointer.js'
import { secretForms } from '../../src/redact/secrets.js'

const escapedToken = (text: string): string => text.replace(/~/g, '~0').replace(/\//g, '~1')
const escapedJson = (text: string): string => JSON.stringify(text).slice(1, -1)
const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('a', '~', '/', '"', '\\', '\n', '\u0000', '\ud800', '\udc00', '😀', '\u2028') }),
  // What the URL encoders treat differently: a space, `!'()*`, `+`, `%`, reserved characters.
  fc.string({ unit: fc.constantFrom('a', 'F', '-', ' ', '!', "'", '(', ')', '*', '~', '+', '%', '?', '#', ';', '/', 'é', '"', '\ud800') }),
)

const lowerHex = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())
/** Each encoder's form and its lower-case-hex form; an encoder that throws (a lone surrogate) adds none. */
function addUrlForms(forms: Set<string>, text: string): void {
  const encoders = [encodeURIComponent, (value: string) => new URLSearchParams([['', value]]).toString().slice(1), encodeURI]
  for (const encode of encoders) {
    let encoded: string
    try {
      encoded = encode(text)
    } catch {
      continue
    }
    forms.add(encoded)
    forms.add(lowerHex(encoded))
  }
}

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
        // Each JSON form escaped once more: the default preview writes a record string holding one.
        forms.add(escapedJson(escapedJson(json)))
        forms.add(escapedJson(escapedJson(pointer)))
        addUrlForms(forms, secret)
        // URL-encoded JSON (JSON a handler put in a URL), once and twice escaped, when JSON
        // changes the secret; pointer forms are not URL-encoded.
        if (json !== secret) for (const escaped of [json, escapedJson(json)]) addUrlForms(forms, escaped)
        const want = [...forms]
        expect(secretForms(secret)).toEqual(want)
      }),
      { numRuns: 2000 },
    )
  })

  it('a secret of characters no encoder changes has one form, itself', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9\-_.*]*$/), (secret) => {
        expect(secretForms(secret)).toEqual([secret])
      }),
      { numRuns: 500 },
    )
  })
})
