// `old_path` names a position the old schema has: for a property the old schema never declared,
// the object that lacks it (the field still names the property).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compareSchemas, type SchemaRole } from 'result-views/contracts'
import { editedPairArb } from '../support/contract-schema-pairs.js'

/** Whether a JSON Pointer leads to a value inside `document`. */
function resolves(document: unknown, pointer: string): boolean {
  if (pointer === '') return true
  let at = document
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, token)) return false
    at = (at as Record<string, unknown>)[token]
  }
  return true
}

describe('old_path', () => {
  it('points at the old object when the new input requires a property the old one never declared (regression: /properties/b)', () => {
    const { reasons } = compareSchemas(
      { type: 'object', properties: { a: { type: 'string' } } },
      { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['b'] },
      'input',
    )
    expect(reasons.length).toBeGreaterThan(0)
    for (const reason of reasons) expect([reason.old_path, reason.new_path, reason.field]).toEqual(['', '/properties/b', 'b'])
  })

  it('always resolves in the old schema (property, edited pairs in both roles)', () => {
    fc.assert(
      fc.property(editedPairArb, fc.constantFrom<SchemaRole>('output', 'input'), ({ a, b }, role) => {
        for (const reason of compareSchemas(a, b, role).reasons) expect(resolves(a, reason.old_path), `${reason.old_path} in ${JSON.stringify(a)}`).toBe(true)
      }),
      { numRuns: 300 },
    )
  })
})
