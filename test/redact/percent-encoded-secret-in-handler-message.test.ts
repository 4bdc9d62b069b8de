// Regression (break-it review): a handler that put a sensitive value in a URL and threw with that
// URL leaked it percent-encoded (`vault%3A%2F%2Fprovider%2Ftoken-XYZ123`) in the outcome and the
// error log line, a form the library's own findSecretLeak flags.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, type Logger } from 'result-views'

const SECRET = 'vault://provider/token-XYZ123'

describe('a percent-encoded secret in a thrown message', () => {
  it('is scrubbed from the outcome and from the logged failure', async () => {
    const lines: unknown[] = []
    const logger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (...args: unknown[]) => void lines.push(args) }
    const tool = defineTool({
      id: 'u__url',
      description: 'd',
      sensitiveInputFields: ['secret_ref'],
      input: Type.Object({ secret_ref: Type.String() }),
      output: Type.Object({}),
      handler: ({ secret_ref }) => {
        throw new Error(`GET https://api.example/resolve?ref=${encodeURIComponent(secret_ref)} failed: 401`)
      },
    })
    const outcome = await createDispatcher({ tools: [tool], logger }).invoke({ tool_id: 'u__url', input: { secret_ref: SECRET } })
    expect(outcome).toMatchObject({ status: 'error', error: { code: 'tool_execution_failed', reason: 'handler_failed' } })
    const text = JSON.stringify([outcome, (outcome as { error: Error }).error.message, lines])
    expect(text).not.toContain(encodeURIComponent(SECRET))
    expect(text).not.toContain('XYZ123')
    expect((outcome as { error: Error }).error.message).toContain('[REDACTED]')
  })
})
