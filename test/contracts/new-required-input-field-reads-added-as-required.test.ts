import { describe, expect, it } from 'vitest'
import { compareSchemas } from 'result-views/contracts'

const str = { type: 'string' }
const before = { type: 'object', properties: { a: str }, required: ['a'], additionalProperties: false }
const after = { type: 'object', properties: { a: str, b: str }, required: ['a', 'b'], additionalProperties: false }

describe('a required field added to a closed input that never had it', () => {
  it('reads "added as required", not "optional in the old schema"', () => {
    const [reason] = compareSchemas(before, after, 'input').reasons
    expect(reason).toMatchObject({ kind: 'breaking', code: 'field_made_required', field: 'b', message: 'property "b" was added as required' })
  })

  it('keeps the old wording for a field the old input declared as optional', () => {
    const optional = { ...before, properties: { a: str, b: str } }
    const [reason] = compareSchemas(optional, after, 'input').reasons
    expect(reason?.message).toBe('property "b" is required in the new schema but optional in the old schema')
  })

  it('says so for a nested field too, and a name that needs escaping', () => {
    const nest = (inner: object): object => ({ type: 'object', properties: { o: inner }, required: ['o'], additionalProperties: false })
    const old = nest({ type: 'object', properties: {}, additionalProperties: false })
    const now = nest({ type: 'object', properties: { 'a/b~c': str }, required: ['a/b~c'], additionalProperties: false })
    const [reason] = compareSchemas(old, now, 'input').reasons
    expect(reason?.message).toBe('property "a/b~c" was added as required')
  })
})
