import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileProjector } from 'result-views'
import { jsonSchemaArbitrary } from 'result-views/testing'
import { handwrittenSessionProjection } from '../../bench/handwritten-session.js'
import { sessionFixtures } from '../../examples/fixtures/sessions.js'
import { CompactSessionResult, FullSessionResult } from '../../examples/tools/session-record.js'

// The bench compares the compiled projector with this hand-written one: they must do the same work.
describe('the hand-written session projection (bench baseline)', () => {
  const project = compileProjector(CompactSessionResult)

  it('returns what the library projector returns on every session fixture', () => {
    for (const [name, full] of Object.entries(sessionFixtures)) {
      expect(handwrittenSessionProjection(full as never), name).toEqual(project(full))
    }
  })

  it('returns what the library projector returns on generated full records', () => {
    fc.assert(
      fc.property(jsonSchemaArbitrary(FullSessionResult), (full) => {
        expect(handwrittenSessionProjection(full as never)).toEqual(project(full))
      }),
      { numRuns: 300 },
    )
  })
})
