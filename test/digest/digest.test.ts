import { createHash } from 'node:crypto'
import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { canonicalJson, inputDigest, isJsonValueError, schemaDigest } from 'result-views'

const sha = (text: string): string => createHash('sha256').update(text).digest('hex')

describe('schemaDigest', () => {
  it('matches the DESIGN.md test vectors', () => {
    expect(schemaDigest({ type: 'object' })).toBe('a2c799262a3ce3c19ef5cdd983bf3d12b43ab3c426227091b909dcb7054738c0')
    expect(schemaDigest({ required: ['query'], properties: { query: { type: 'string' } }, type: 'object' })).toBe(
      '1dc63095e8672403bbe40fa26719d175e695c0167f6daad6b9655f6506491f01',
    )
  })

  it('ignores TypeBox hidden keys: a TypeBox schema and its JSON round-trip share a digest', () => {
    const schema = Type.Object({ query: Type.String() })
    expect(schemaDigest(schema)).toBe(schemaDigest(JSON.parse(JSON.stringify(schema))))
    expect(schemaDigest(schema)).toBe('1dc63095e8672403bbe40fa26719d175e695c0167f6daad6b9655f6506491f01')
  })

  it('is lowercase hex of 64 characters, and differs when required order differs (documented)', () => {
    const a = schemaDigest({ type: 'object', required: ['a', 'b'] })
    expect(a).toMatch(/^[0-9a-f]{64}$/)
    expect(schemaDigest({ type: 'object', required: ['b', 'a'] })).not.toBe(a)
  })
})

describe('inputDigest', () => {
  it('is "sha256:" + hex SHA-256 of the canonical JSON without the top-level result_view', () => {
    expect(inputDigest({ session_id: 's', result_view: 'full' })).toBe('sha256:' + sha('{"session_id":"s"}'))
  })

  it('ignores result_view and key order for native tools; keeps nested result_view keys', () => {
    const base = inputDigest({ a: 1, b: { result_view: 'x' } })
    expect(inputDigest({ b: { result_view: 'x' }, a: 1, result_view: 'full' })).toBe(base)
    expect(inputDigest({ a: 1, b: { result_view: 'x' }, result_view: 'compact' })).toBe(base)
    expect(inputDigest({ a: 1, b: {} })).not.toBe(base)
  })

  it('keeps result_view for extension and mcp tools', () => {
    const withView = { q: 1, result_view: 'full' }
    expect(inputDigest(withView, { origin: 'extension' })).toBe('sha256:' + sha('{"q":1,"result_view":"full"}'))
    expect(inputDigest(withView, { origin: 'mcp' })).not.toBe(inputDigest({ q: 1 }, { origin: 'mcp' }))
  })

  it('rejects non-JSON inputs with the JSON Pointer of the value, before and after result_view', () => {
    for (const [input, pointer] of [
      [{ a: NaN }, '/a'],
      [{ result_view: 'full', when: new Date() }, '/when'],
      [{ result_view: undefined }, '/result_view'],
      [{ n: [1n] }, '/n/0'],
    ] as const) {
      try {
        inputDigest(input)
        expect.unreachable()
      } catch (error) {
        expect(isJsonValueError(error) && error.pointer).toBe(pointer)
      }
    }
  })

  it('does not mutate its input and keeps a JSON-parsed __proto__ key as data', () => {
    const input = JSON.parse('{"__proto__":{"polluted":true},"result_view":"full"}')
    expect(inputDigest(input)).toBe('sha256:' + sha('{"__proto__":{"polluted":true}}'))
    expect(input.result_view).toBe('full')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('property: adding result_view or shuffling keys never changes the digest; changing a value does', () => {
    const input = fc.dictionary(fc.string().filter((k) => k !== 'result_view' && k !== '__proto__' && k !== 'extra_key_for_test'), fc.jsonValue(), { maxKeys: 6 })
    fc.assert(
      fc.property(input, fc.constantFrom('compact', 'full'), (value, view) => {
        const digest = inputDigest(value)
        expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/)
        expect(inputDigest({ ...value, result_view: view })).toBe(digest)
        expect(inputDigest(Object.fromEntries(Object.entries(value).reverse()))).toBe(digest)
        expect(inputDigest({ ...value, extra_key_for_test: 0 })).not.toBe(digest)
        expect(digest).toBe('sha256:' + sha(canonicalJson(value)))
      }),
      { numRuns: 500 },
    )
  })
})

describe('inputDigest options', () => {
  it('refuses an unknown inputDigest origin', () => {
    expect(() => inputDigest({}, { origin: 'bogus' as never })).toThrow(expect.objectContaining({ code: 'digest_options_invalid', problems: [expect.objectContaining({ path: '/origin', code: 'invalid_origin' })] }))
  })
})
