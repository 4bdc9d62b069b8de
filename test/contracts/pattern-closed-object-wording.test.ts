// A new `additionalProperties: false` beside one `patternProperties` entry: the keys it admits
// beyond its declared ones match the pattern and hold its schema, which is what the comparison
// reads (it used to read `/additionalProperties`, which is `false`, as allowing any type).
import { describe, expect, it } from 'vitest'
import { compareSchemas } from 'result-views/contracts'

const old = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } }
const closedAround = (value: object) => ({ type: 'object', properties: { a: { type: 'string' } }, patternProperties: { '^x': value }, additionalProperties: false })

describe('a closed new object with one pattern', () => {
  it('is compatible with an old additionalProperties schema its pattern schema fits (regression: type_widened at /additionalProperties)', () => {
    expect(compareSchemas(old, closedAround({ type: 'string' }), 'output')).toEqual({ verdict: 'compatible', reasons: [] })
    expect(compareSchemas(closedAround({ type: 'string' }), old, 'input')).toEqual({ verdict: 'compatible', reasons: [] })
  })

  it('names the pattern entry and its own type when it does not fit', () => {
    const { verdict, reasons } = compareSchemas(old, closedAround({ type: 'integer' }), 'output')
    expect(verdict).toBe('breaking')
    expect(reasons.map((r) => [r.code, r.old_path, r.new_path, r.message])).toEqual([
      ['type_widened', '/additionalProperties', '/patternProperties/^x', 'the new schema allows integer; the old schema allows string'],
    ])
  })
})
