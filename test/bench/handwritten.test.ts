import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileProjector } from 'result-views'
import { jsonSchemaArbitrary } from 'result-views/testing'
import { realisticSessionFull } from '../../bench/fixtures/realistic-session.js'
import { RealisticCompactResult, RealisticFullResult } from '../../bench/fixtures/realistic-session-schema.js'
import { handwrittenRealisticProjection, handwrittenSessionProjection } from '../../bench/handwritten.js'
import { sessionFixtures } from '../../examples/fixtures/sessions.js'
import { CompactSessionResult, FullSessionResult } from '../../examples/tools/session-record.js'

// The bench measures the projector against these direct picks: they must give exactly what the
// projector gives (same keys in the same order, same values), or the ratio compares different work.
const sameText = (a: unknown, b: unknown): void => expect(JSON.stringify(a)).toBe(JSON.stringify(b))

describe('the hand-written pick of the example session (bench baseline, small case)', () => {
  const project = compileProjector(CompactSessionResult)

  it('returns what the library projector returns on every session fixture, key order included', () => {
    for (const [name, full] of Object.entries(sessionFixtures)) {
      expect(handwrittenSessionProjection(full as never), name).toStrictEqual(project(full))
      sameText(handwrittenSessionProjection(full as never), project(full))
    }
  })

  it('returns what the library projector returns on generated full records', () => {
    fc.assert(
      fc.property(jsonSchemaArbitrary(FullSessionResult), (full) => {
        sameText(handwrittenSessionProjection(full as never), project(full))
      }),
      { numRuns: 300 },
    )
  })
})

describe('the hand-written pick of the realistic session (bench baseline)', () => {
  const project = compileProjector(RealisticCompactResult)

  it('returns what the library projector returns on the realistic fixture, key order included', () => {
    expect(handwrittenRealisticProjection(realisticSessionFull)).toStrictEqual(project(realisticSessionFull))
    sameText(handwrittenRealisticProjection(realisticSessionFull), project(realisticSessionFull))
  })

  it('returns what the library projector returns on generated full records (every union branch, optional fields absent and present)', () => {
    fc.assert(
      fc.property(jsonSchemaArbitrary(RealisticFullResult, { maxArrayLength: 4 }), (full) => {
        sameText(handwrittenRealisticProjection(full as never), project(full))
      }),
      { numRuns: 300 },
    )
  })
})
