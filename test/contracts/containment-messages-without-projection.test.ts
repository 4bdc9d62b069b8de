// The containment proof projects nothing, so its reasons never explain a refusal by projection.
import { describe, expect, it } from 'vitest'
import { proveViewSubset } from 'result-views'
import { compareSchemas } from 'result-views/contracts'

const cases: ReadonlyArray<readonly [string, object]> = [
  ['minProperties', { type: 'object', minProperties: 1 }],
  ['maxProperties', { type: 'object', maxProperties: 3 }],
  ['propertyNames', { type: 'object', propertyNames: { pattern: '^a' } }],
  ['contains', { type: 'array', contains: { type: 'string' } }],
  ['not', { not: { type: 'string' } }],
  ['two patterns', { type: 'object', patternProperties: { '^a': { type: 'string' }, '^b': { type: 'string' } } }],
  ['an object literal beside object keywords', { type: 'object', properties: { a: { type: 'string' } }, enum: [{ a: 'x' }] }],
]

describe('containment messages', () => {
  it.each(cases)('do not speak of projection for %s (regression: "projection drops undeclared properties")', (_, schema) => {
    const { reasons } = compareSchemas(schema, { type: 'object' }, 'output')
    expect(reasons.map((r) => r.code)).toContain('unsupported_keyword')
    for (const reason of reasons) expect(reason.message).not.toMatch(/project/)
  })

  it('still explain the view proof by projection', () => {
    const proof = proveViewSubset({ type: 'object', minProperties: 1 }, { type: 'object' })
    expect(proof.ok ? [] : proof.violations.map((v) => v.message)).toEqual(['"minProperties" is not supported in a compact view: projection drops undeclared properties, so property counts change'])
  })
})
