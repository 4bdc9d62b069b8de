// HTTP answered a bad view with only "invalid tool request": the spec's fixed message stays, and
// details.issues says where, which keyword and what was expected (never the value); an
// approval_required denial carries the in-process guidance as details.hint.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import Type from 'typebox'
import { createDispatcher, defineTool, ToolError } from 'result-views'
import { createFetchHandler } from 'result-views/http'
import { findSecretLeak, secretCanaryArbitrary } from 'result-views/testing'
import { surfaceTools } from '../support/surface-tools.js'

const handle = createFetchHandler(createDispatcher({ tools: surfaceTools() }))

async function post(tool: string, body: unknown): Promise<{ status: number; text: string; body: any }> {
  const request = new Request(`http://127.0.0.1/api/tools/${tool}/invoke`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const response = await handle(request, { remoteAddress: '127.0.0.1' })
  const text = await response.text()
  return { status: response.status, text, body: JSON.parse(text) }
}

describe('an input error over HTTP names the field', () => {
  it('keeps "invalid tool request" for a bad view and adds the pointer, keyword and the allowed views', async () => {
    const answer = await post('tickets__get', { input: { ticket_id: 'T-1', result_view: 'huge' } })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({
      error: { code: 'tool_invalid_input', reason: 'schema_invalid', message: 'invalid tool request', details: { issues: [{ pointer: '/result_view', keyword: 'enum', expected: 'one of "compact", "full"' }] } },
    })
    expect(answer.text).not.toContain('huge')
  })

  it('lists every schema problem by pointer and keyword, and what the schema expects', async () => {
    const answer = await post('tickets__get', { input: { ticket_id: 'T-123456789', bogus: 1 } })
    expect(answer.body.error.message).toBe('invalid tool request')
    expect(answer.body.error.details.issues).toEqual([
      { pointer: '', keyword: 'additionalProperties', expected: 'no property "bogus"' },
      { pointer: '/ticket_id', keyword: 'maxLength', expected: 'must NOT have more than 8 characters' },
    ])
    expect(answer.text).not.toContain('T-123456789')
  })

  it('never shows a value, nor a key inside a sensitive field', async () => {
    await fc.assert(
      fc.asyncProperty(secretCanaryArbitrary(), async (canary) => {
        const answer = await post('tickets__get', { input: { ticket_id: canary, secret_ref: { [canary]: canary } } })
        expect(answer.status).toBe(400)
        expect(answer.body.error.details.issues).toContainEqual({ pointer: '/secret_ref', keyword: 'type', expected: 'type string' })
        expect(findSecretLeak(answer.text, canary)).toBeUndefined()
      }),
      { numRuns: 40 },
    )
  })

  it('counts the problems past the first 20', async () => {
    const answer = await post('tickets__get', { input: Object.fromEntries([['ticket_id', 'T-1'], ...Array.from({ length: 30 }, (_, i) => [`extra_${i}`, i])]) })
    expect(answer.body.error.details.issues).toHaveLength(20)
    expect(answer.body.error.details.issue_count).toBe(30)
  })

  it('says how to get an approval when approval_required denies the call', async () => {
    const answer = await post('tickets__close', { input: { ticket_id: 'T-1' }, scope: { workspace_id: 'ws' } })
    expect(answer.status).toBe(403)
    expect(answer.body).toEqual({
      error: {
        code: 'tool_denied', reason: 'approval_required', message: 'tool invocation denied',
        details: { hint: 'supply an approval token (approval_token), or call with a scope.profile_id that can resolve a pending approval' },
      },
    })
  })

  it('shows no details of an input error a handler throws itself, whatever they hold', async () => {
    const lying = defineTool({
      id: 'lying__tool', description: 'd', input: Type.Object({}), output: Type.Object({}),
      handler: () => {
        throw new ToolError({ code: 'tool_invalid_input', reason: 'schema_invalid', message: 'internal: db password hunter2', details: { issues: [{ pointer: '/hunter2', keyword: 'x', expected: 'hunter2' }] } })
      },
    })
    const own = createFetchHandler(createDispatcher({ tools: [lying] }))
    const request = new Request('http://127.0.0.1/api/tools/lying__tool/invoke', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":{}}' })
    const response = await own(request, { remoteAddress: '127.0.0.1' })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: { code: 'tool_invalid_input', reason: 'schema_invalid', message: 'invalid tool request' } })
  })
})
