// Regression (break-it review): the result-views/testing helpers ignored unknown option keys, so a
// misspelt `minPartlength` silently fell back to the default and a leak test passed that should
// have failed; `minPartLength: 'x'` was accepted too.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { defineTool } from 'result-views'
import { assertViewsConsistent, findSecretLeak, jsonSchemaArbitrary } from 'result-views/testing'

const tool = defineTool({
  id: 't__v',
  description: 'd',
  input: Type.Object({}),
  output: { compact: Type.Object({ id: Type.String() }, { additionalProperties: false }), full: Type.Object({ id: Type.String(), notes: Type.String() }) },
  handler: () => ({ id: 'a', notes: 'n' }),
})
const refusal = (key: string) => expect.objectContaining({ code: 'testing_argument_invalid', problems: [expect.objectContaining({ path: `/${key}`, code: 'unknown_option' })] })

describe('misspelt options of the testing helpers', () => {
  it('findSecretLeak refuses minPartlength and min_part_length, and a minPartLength that is not an integer ≥ 1', () => {
    expect(findSecretLeak('xxABCDxx', 'ABCDEFGHIJ', { minPartLength: 4 })).toEqual({ form: 'raw', part: 'ABCD' })
    expect(() => findSecretLeak('xxABCDxx', 'ABCDEFGHIJ', { minPartlength: 4 } as never)).toThrow(refusal('minPartlength'))
    expect(() => findSecretLeak('xxABCDxx', 'ABCDEFGHIJ', { min_part_length: 4 } as never)).toThrow(refusal('min_part_length'))
    expect(() => findSecretLeak('x', 'ABCDEFGHIJ', { minPartLength: 'x' } as never)).toThrow(expect.objectContaining({ code: 'testing_argument_invalid', problems: [expect.objectContaining({ path: '/minPartLength', code: 'invalid_option' })] }))
  })

  it('assertViewsConsistent and jsonSchemaArbitrary refuse numruns and maxdepth', () => {
    expect(() => assertViewsConsistent(tool as never, { numruns: 1 } as never)).toThrow(refusal('numruns'))
    expect(() => jsonSchemaArbitrary({ type: 'object' }, { maxdepth: 1 } as never)).toThrow(refusal('maxdepth'))
    expect(() => assertViewsConsistent(tool as never, { runs: 5 })).not.toThrow()
  })
})
