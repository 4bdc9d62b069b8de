// Regression (break-it review): a record string holding JSON-in-JSON text of a secret with `"` or
// `\` leaked through the default preview. The preview is JSON text of the record, so it escapes
// that string once more (three levels), and the scrubbed forms stopped at two. The same preview
// reached `tool.post_call`'s `tool_result.preview`.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, type JsonSchema } from 'result-views'
import { findSecretLeak, secretCanaryArbitrary } from 'result-views/testing'

const SCOPE = { workspace_id: 'ws-1', session_id: 's-1', agent_name: 'a', profile_id: 'p-1' }

/** Each way a handler can nest the secret in a string field of its record. */
const NESTINGS: Array<[string, (secret: string) => string]> = [
  ['as it is', (secret) => secret],
  ['in JSON', (secret) => JSON.stringify({ token: secret })],
  ['in JSON in JSON', (secret) => JSON.stringify({ body: JSON.stringify({ token: secret }) })],
  ['a JSON Pointer in JSON', (secret) => JSON.stringify({ at: '/' + secret.replace(/~/g, '~0').replace(/\//g, '~1') })],
]

async function previewOf(secret: string, note: string) {
  const previews: string[] = []
  const tool = defineTool({
    id: 'vault__note',
    description: 'returns a note',
    input: { type: 'object', properties: { creds: { type: 'string' } }, required: ['creds'], additionalProperties: false } as JsonSchema,
    sensitiveInputFields: ['creds'],
    output: { type: 'object', properties: { note: { type: 'string' } }, required: ['note'], additionalProperties: false } as JsonSchema,
    handler: () => ({ note }),
  })
  const dispatcher = createDispatcher({
    tools: [tool],
    hooks: { 'tool.post_call': (event) => void previews.push((event as { tool_result: { preview: string } }).tool_result.preview) },
  })
  const outcome = await dispatcher.invoke({ tool_id: 'vault__note', input: { creds: secret }, scope: SCOPE })
  if (outcome.status !== 'ok') throw new Error(`expected ok, got ${outcome.status}`)
  return { preview: outcome.result.preview, hookPreview: previews[0] ?? '' }
}

describe('a secret nested in a record string, in the default preview', () => {
  it('the review case: JSON-in-JSON text of a secret with a quote is redacted, not written triple-escaped', async () => {
    const secret = 'sk-live"abcdefgh'
    const { preview, hookPreview } = await previewOf(secret, JSON.stringify({ body: JSON.stringify({ token: secret }) }))
    const tripleEscaped = JSON.stringify(JSON.stringify(JSON.stringify(secret)).slice(1, -1)).slice(1, -1)
    expect(preview).not.toContain(tripleEscaped)
    expect(preview).not.toContain('abcdefgh')
    expect(preview).toContain('[REDACTED]')
    expect(hookPreview).toBe(preview)
  })

  it.each(NESTINGS)('%s: no part of a canary is left in the preview or the post_call payload', async (_name, nest) => {
    await fc.assert(
      fc.asyncProperty(secretCanaryArbitrary(), async (canary) => {
        const { preview, hookPreview } = await previewOf(canary, nest(canary))
        expect(findSecretLeak(preview, canary)).toBeUndefined()
        expect(findSecretLeak(hookPreview, canary)).toBeUndefined()
      }),
      { numRuns: 60 },
    )
  })
})
