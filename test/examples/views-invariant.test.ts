import { describe, expect, it } from 'vitest'
import { assertViewsConsistent, jsonSchemaArbitrary } from 'result-views/testing'
import fc from 'fast-check'
import { exampleTools } from '../../examples/tools/catalog.js'

// Spec 000 "What compact keeps": every field in a compact result is in the full result at the
// same path with the same value, and compact results satisfy the compact schema.
describe('the compact ⊆ full invariant on the example tools', () => {
  for (const tool of exampleTools()) {
    if (tool.kind !== 'viewed') continue
    it(`${tool.id}: generated full records project to compact-valid subsets`, () => {
      expect(() => assertViewsConsistent(tool, { runs: 300 })).not.toThrow()
    })
  }

  it('the generator really produces full-only fields (so the check is not vacuous)', () => {
    const status = exampleTools()[0]
    const samples = fc.sample(jsonSchemaArbitrary(status.output.full), { numRuns: 100, seed: 7 })
    const withFullOnly = samples.filter((record) => {
      const session = (record as { session: Record<string, unknown> }).session
      return 'supervision' in session || 'available_commands' in session || 'diagnostics' in session
    })
    expect(withFullOnly.length).toBeGreaterThan(10)
    for (const record of withFullOnly) {
      const compact = status.project(record, 'compact') as { session: Record<string, unknown> }
      expect(compact.session).not.toHaveProperty('supervision')
      expect(compact.session).not.toHaveProperty('available_commands')
      expect(compact.session).not.toHaveProperty('diagnostics')
    }
  })
})
