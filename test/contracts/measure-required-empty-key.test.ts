// measureViews checks each fixture against the full schema with ajv, which does not enforce
// `required: [""]` in its default unrolled check (ajv-validator/ajv#2077).
import { describe, expect, it } from 'vitest'
import { defineTool, type JsonSchema } from 'result-views'
import { isContractsError, measureViews } from 'result-views/contracts'

const full: JsonSchema = { type: 'object', properties: { '': { type: 'string' }, id: { type: 'string' } }, required: ['', 'id'] }
const tool = defineTool({ id: 'v', description: 'd', input: { type: 'object' } as never, output: { compact: full as never, full: full as never }, handler: () => ({}) as never })
const countTokens = (text: string): number => text.length

describe('measureViews and required: [""]', () => {
  it('refuses a fixture without the "" key as not full-valid (regression: ajv#2077)', () => {
    let thrown: unknown
    try {
      measureViews(tool, [{ id: 'a' }], { countTokens })
    } catch (error) {
      thrown = error
    }
    expect(isContractsError(thrown) && thrown.problems.map((p) => [p.path, p.code])).toEqual([['/records/0', 'not_full_valid']])
    expect(measureViews(tool, [{ '': 'x', id: 'a' }], { countTokens }).records).toHaveLength(1)
  })
})
