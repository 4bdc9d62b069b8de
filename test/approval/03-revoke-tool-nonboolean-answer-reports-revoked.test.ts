// Regression: `_revoke` over a host approvals object whose `revokeGrant` answered something other
// than a boolean reported `{ revoked: true }` although nothing said a grant was revoked.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineApprovalTools, defineTool } from 'result-views'

const REVOKE = 'compozy__tool_approvals_revoke'

function revokeAnswering(answer: unknown) {
  const tool = defineTool({ id: 'x__w', description: 'x', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })
  const api = {
    setGrant: async () => {
      throw new Error('unused')
    },
    listGrants: async () => [],
    revokeGrant: async () => answer as boolean,
  }
  const d = createDispatcher({ tools: [tool, ...defineApprovalTools({ approvals: api, revokeApproval: 'none' })] })
  return d.invoke({ tool_id: REVOKE, input: { grant_id: 'g-1' }, scope: { workspace_id: 'w' } })
}

describe('03-revoke-tool-nonboolean-answer-reports-revoked', () => {
  for (const answer of [undefined, 'yes', 0, 1, null, {}, 'false', 'true']) {
    it(`revokeGrant answering ${JSON.stringify(answer) ?? 'undefined'} fails approval_unavailable / store_failed`, async () => {
      const outcome = await revokeAnswering(answer)
      expect(outcome.status === 'error' && [outcome.error.code, outcome.error.reason, outcome.error.details]).toEqual(['approval_unavailable', 'store_failed', { store: 'grants', operation: 'delete' }])
    })
  }

  it('true reports revoked, false reports approval_not_found / unknown_grant', async () => {
    const yes = await revokeAnswering(true)
    expect(yes.status === 'ok' && yes.result.structured).toEqual({ revoked: true, grant_id: 'g-1' })
    const no = await revokeAnswering(false)
    expect(no.status === 'error' && [no.error.code, no.error.reason]).toEqual(['approval_not_found', 'unknown_grant'])
  })
})
