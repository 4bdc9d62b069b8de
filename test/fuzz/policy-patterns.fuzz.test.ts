import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, createPatternPolicy, defineTool } from 'result-views'
import { referenceWildcardMatch as tableMatch } from '../support/wildcard.js'

/** Cases per property: 10⁴ in CI (`npm test`), 10⁵ with `npm run fuzz` (FUZZ_RUNS); one dispatcher each, so a tenth. */
const RUNS = Math.max(100, Number(process.env.FUZZ_RUNS ?? 10_000) / 10)

/** Tool IDs of up to 128 characters over a two-letter alphabet: where a backtracking `.*` blows up. */
const IDS = ['a'.repeat(128), 'a'.repeat(127) + 'b', 'ab'.repeat(64), 'a'.repeat(64) + 'b'.repeat(64), 'b' + 'a'.repeat(127)]

describe(`deny patterns that make a backtracking RegExp explode (${RUNS} cases)`, () => {
  const calls: string[] = []
  const tools = IDS.map((id) => defineTool({ id, description: 'long id', input: Type.Object({}), output: Type.Object({}), handler: () => (calls.push(id), {}) }))

  it('decides every invoke as the reference matcher does, with up to 16 stars against 128-character IDs', async () => {
    // `a*a*…a*b` and friends: runs of the letters with stars between, sometimes a tail that cannot match.
    const part = fc.array(fc.constantFrom('a', 'a', 'b'), { maxLength: 3 }).map((chars) => chars.join(''))
    const pattern = fc.array(part, { minLength: 2, maxLength: 17 }).map((parts) => parts.join('*'))
    await fc.assert(
      fc.asyncProperty(pattern, fc.constantFrom(...IDS), async (deny, tool_id) => {
        calls.length = 0
        const dispatcher = createDispatcher({ tools, policy: createPatternPolicy({ owner: 'agent:fuzz', deny_tools: [deny] }) })
        const outcome = await dispatcher.invoke({ tool_id, input: {} })
        const denied = tableMatch(deny, tool_id)
        if (denied) expect(outcome.status === 'error' && [outcome.error.code, outcome.error.reason]).toEqual(['tool_denied', 'policy_denied'])
        else expect(outcome.status).toBe('ok')
        expect(calls).toEqual(denied ? [] : [tool_id])
      }),
      { numRuns: RUNS },
    )
  })
})
