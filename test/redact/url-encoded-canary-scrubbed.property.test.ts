// Property (break-it review of URL forms): a canary a handler wrote into a URL, with any of the
// encoders a handler uses (`URLSearchParams`, `encodeURI`, `encodeURIComponent`, each also with
// lower-case hex digits), of the secret itself or of its JSON text (once or twice escaped), is
// scrubbed from the text so that `findSecretLeak` finds no part of it in any form.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { findSecretLeak, secretCanaryArbitrary } from 'result-views/testing'
import { collectSecrets, scrubText } from '../../src/redact/secrets.js'
import { parseSensitivePaths } from '../../src/redact/sensitive-paths.js'

const lowerHex = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())
const formEncoded = (text: string): string => new URLSearchParams([['', text]]).toString().slice(1)
const json = (text: string): string => JSON.stringify(text).slice(1, -1)

const ENCODERS: Array<[string, (text: string) => string]> = [
  ['URLSearchParams', formEncoded],
  ['encodeURI', encodeURI],
  ['encodeURIComponent', encodeURIComponent],
  ['URLSearchParams, lower-case hex', (text) => lowerHex(formEncoded(text))],
  ['encodeURI, lower-case hex', (text) => lowerHex(encodeURI(text))],
  ['encodeURIComponent, lower-case hex', (text) => lowerHex(encodeURIComponent(text))],
]
/** What the handler encodes: the secret, or its JSON text once or twice escaped (JSON put in a URL). */
const WHAT: Array<[string, (secret: string) => string]> = [
  ['the secret', (secret) => secret],
  ['its JSON text', (secret) => json(secret)],
  ['its JSON text in JSON', (secret) => json(json(secret))],
]

/** Canaries with the characters URL encoders treat differently: spaces, `()!'~*`, `+`, `%`, and the JSON and pointer ones. */
const urlCanary = fc
  .tuple(
    fc.stringMatching(/^[A-Z0-9]{4,8}$/),
    fc.array(fc.tuple(fc.constantFrom(' ', '(', ')', '!', "'", '~', '*', '+', '%', '/', '"', '\\', '?', '&', '=', '#', ' (', ')~', '\u00e9'), fc.stringMatching(/^[A-Z0-9]{4,8}$/)), { minLength: 1, maxLength: 6 }),
  )
  .map(([first, rest]) => first + rest.map(([separator, chunk]) => separator + chunk).join(''))

const PATHS = parseSensitivePaths(['key']).paths

describe('a canary a handler URL-encoded into its message', () => {
  it('property: is scrubbed so that findSecretLeak finds no part of it, for every encoder', () => {
    fc.assert(
      fc.property(
        fc.oneof(secretCanaryArbitrary(), urlCanary),
        fc.constantFrom(...ENCODERS),
        fc.constantFrom(...WHAT),
        fc.stringMatching(/^[a-z ]{0,12}$/),
        (canary, [, encode], [, what], pad) => {
          const secrets = collectSecrets({ key: canary }, PATHS)
          const text = `request failed: https://api.example/x?${pad}&api_key=${encode(what(canary))}&v=1`
          const scrubbed = scrubText(text, secrets)
          const leak = findSecretLeak(scrubbed, canary)
          if (leak !== undefined) expect.fail(`${leak.form} part ${JSON.stringify(leak.part)} of ${JSON.stringify(canary)} in ${scrubbed}`)
          expect(scrubbed).toContain('[REDACTED]')
        },
      ),
      { numRuns: 2000 },
    )
  })
})
