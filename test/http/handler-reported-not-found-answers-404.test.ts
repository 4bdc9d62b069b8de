// A handler that threw ToolError({ code: 'tool_execution_failed', reason: 'ticket_not_found' })
// got HTTP 500 "tool invocation failed": a tool now reports not found, conflict or an invalid
// argument with reportToolError, answered 404 / 409 / 422 with its own message, scrubbed of the
// call's sensitive input values; an unmarked message still never shows.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDispatcher } from 'result-views'
import { createFetchHandler } from 'result-views/http'
import { findSecretLeak, secretCanaryArbitrary } from 'result-views/testing'
import { SECRET, surfaceTools } from '../support/surface-tools.js'

const handle = createFetchHandler(createDispatcher({ tools: surfaceTools() }))

async function get(input: Record<string, unknown>): Promise<{ status: number; text: string; body: any }> {
  const request = new Request('http://127.0.0.1/api/tools/tickets__get/invoke', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input }) })
  const response = await handle(request, { remoteAddress: '127.0.0.1' })
  const text = await response.text()
  return { status: response.status, text, body: JSON.parse(text) }
}

describe('errors a tool reports, over HTTP', () => {
  it.each([
    ['resource_not_found', 404, 'not_found'],
    ['resource_conflict', 409, 'conflict'],
    ['argument_invalid', 422, 'argument_invalid'],
  ] as const)('answers %s with %i, the tool reason and its message', async (code, status, fallback) => {
    const named = await get({ ticket_id: 'T-1', outcome: code, reason: 'ticket_state' })
    expect(named.status).toBe(status)
    expect(named.body).toEqual({ error: { code, reason: 'ticket_state', message: 'ticket "T-1" cannot be read with ' } })
    const unnamed = await get({ ticket_id: 'T-1', outcome: code })
    expect(unnamed.body.error.reason).toBe(fallback)
  })

  it('scrubs a sensitive input value from the reported message, and from a reason that holds it', async () => {
    const answer = await get({ ticket_id: 'T-1', outcome: 'resource_not_found', reason: 'ticket_not_found', secret_ref: SECRET })
    expect(answer.body.error).toEqual({ code: 'resource_not_found', reason: 'ticket_not_found', message: 'ticket "T-1" cannot be read with [REDACTED]' })
    await fc.assert(
      fc.asyncProperty(secretCanaryArbitrary(), async (canary) => {
        const word = `s${canary.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`.slice(0, 64)
        // A reason of its own: one made from the canary keeps its digits, which findSecretLeak rightly finds.
        const shown = await get({ ticket_id: 'T-1', outcome: 'resource_conflict', reason: 'ticket_conflict', secret_ref: canary })
        expect(shown.status).toBe(409)
        expect(findSecretLeak(shown.text, canary)).toBeUndefined()
        const reasoned = await get({ ticket_id: 'T-1', outcome: 'resource_conflict', reason: word, secret_ref: word })
        expect(reasoned.body.error.reason).toBe('conflict')
      }),
      { numRuns: 30 },
    )
  })

  it('replaces a reason that is not a snake_case word by the code\'s own', async () => {
    expect((await get({ ticket_id: 'T-1', outcome: 'argument_invalid', reason: 'Not A Reason!' })).body.error.reason).toBe('argument_invalid')
  })

  it('keeps a failure thrown with any reason a 500 whose message is never shown', async () => {
    const answer = await get({ ticket_id: 'T-1', outcome: 'unmarked', secret_ref: SECRET })
    expect(answer.status).toBe(500)
    expect(answer.body).toEqual({ error: { code: 'tool_execution_failed', reason: 'ticket_not_found', message: 'tool invocation failed' } })
    expect(answer.text).not.toContain('shard')
  })
})
