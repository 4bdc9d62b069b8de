// compareSchemas called two identical non-schemas compatible (the identical-schema shortcut ran
// before anything checked they were schemas), while the same `null` beside a real schema threw.
import { describe, expect, it } from 'vitest'
import { compareSchemas } from 'result-views/contracts'

describe('compareSchemas on identical values that are not schemas', () => {
  for (const value of [null, [], 42, 'x']) {
    it(`refuses ${JSON.stringify(value)} on both sides with contracts_invalid / invalid_schema, as it does beside a schema`, () => {
      for (const role of ['input', 'output'] as const) {
        expect(() => compareSchemas(value, value, role)).toThrow(expect.objectContaining({ code: 'contracts_invalid', problems: [expect.objectContaining({ code: 'invalid_schema' })] }))
        expect(() => compareSchemas(value, { type: 'object' }, role)).toThrow(expect.objectContaining({ code: 'contracts_invalid' }))
      }
    })
  }

  it('still calls identical schemas, booleans included, compatible', () => {
    expect(compareSchemas({ type: 'object' }, { type: 'object' }, 'output')).toEqual({ verdict: 'compatible', reasons: [] })
    expect(compareSchemas(true, true, 'input')).toEqual({ verdict: 'compatible', reasons: [] })
  })
})
