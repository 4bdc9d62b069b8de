import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DEFAULT_LEAK_PART_LENGTH, findSecretLeak, secretCanaryArbitrary } from 'result-views/testing'

describe('secretCanaryArbitrary', () => {
  it('makes canaries whose every encoding differs from the raw text', () => {
    fc.assert(
      fc.property(secretCanaryArbitrary(), (canary) => {
        expect(canary.length).toBeGreaterThanOrEqual(9)
        expect(canary.length).toBeLessThanOrEqual(78)
        expect(canary).toMatch(/^[A-Z0-9]{4,8}([/~"\\'0-1]{1,2}[A-Z0-9]{4,8})+$/)
        expect(canary).toMatch(/[/~"\\']/)
      }),
    )
  })
})

describe('findSecretLeak', () => {
  const canary = 'AB12/CD34~EF56"GH78\\IJ90'
  it('finds the canary raw, JSON-escaped, JSON-Pointer-escaped, percent-encoded and nested, whole or cut', () => {
    const forms = [
      canary,
      JSON.stringify(canary),
      '/creds/' + canary.replaceAll('~', '~0').replaceAll('/', '~1'),
      encodeURIComponent(canary),
      JSON.stringify(JSON.stringify(canary)),
      JSON.stringify('/x/' + canary.replaceAll('~', '~0').replaceAll('/', '~1')),
    ]
    for (const form of forms) expect(findSecretLeak(`before ${form} after`, canary)).toBeDefined()
    expect(findSecretLeak(`preview ends ${canary.slice(0, DEFAULT_LEAK_PART_LENGTH)}…`, canary)?.part).toBe(canary.slice(0, DEFAULT_LEAK_PART_LENGTH))
    expect(findSecretLeak(`preview ends ${canary.slice(0, DEFAULT_LEAK_PART_LENGTH - 1)}…`, canary)).toBeUndefined()
    expect(findSecretLeak(`…${canary.slice(-3)}`, canary, { minPartLength: 3 })).toBeDefined()
  })

  it('finds nothing in scrubbed text', () => {
    expect(findSecretLeak('{"creds":"[REDACTED]","mode":"x"} tool "vault__use" failed: [REDACTED]', canary)).toBeUndefined()
  })

  it('property: any cut of any form of a canary of at least the part length is found', () => {
    const encode = fc.constantFrom(
      (s: string) => s,
      (s: string) => JSON.stringify(s).slice(1, -1),
      (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1'),
      (s: string) => JSON.stringify(s.replaceAll('~', '~0').replaceAll('/', '~1')).slice(1, -1),
    )
    fc.assert(
      fc.property(secretCanaryArbitrary(), encode, fc.nat(), (secret, form, at) => {
        const text = form(secret)
        const start = at % (text.length - DEFAULT_LEAK_PART_LENGTH + 1)
        expect(findSecretLeak(`x${text.slice(start, start + DEFAULT_LEAK_PART_LENGTH)}x`, secret)).toBeDefined()
      }),
    )
  })
})
