// Regression (break-it review): a secret JSON escapes (`"`, `\`, a control) that a handler put in a
// URL as JSON (`?q=` + encodeURIComponent(JSON.stringify({ token }))) leaked percent-encoded
// (`%7B%22token%22%3A%22quo%5C%22te%5C%5Cback-SECRET%22%7D`) in the error message, the preview
// and the hook payloads: the forms scrubbed held the percent-encoding of the secret, not of its
// JSON text.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { findSecretLeak } from 'result-views/testing'

const SECRETS = ['quo"te\\back-SECRET', 'line\nbreak-SECRET', 'tab\tand"quote/slash~tilde']
const urlOf = (token: string): string => 'GET /x?q=' + encodeURIComponent(JSON.stringify({ token }))
/** JSON inside JSON, then in a URL: a query whose value is JSON holding a JSON text. */
const nestedUrlOf = (token: string): string => 'GET /x?q=' + encodeURIComponent(JSON.stringify({ body: JSON.stringify({ token }) }))

function dispatcherFor(mode: 'throw' | 'preview' | 'nested') {
  const texts: string[] = []
  const tool = defineTool({
    id: 'v',
    description: 'd',
    input: Type.Object({ token: Type.String() }),
    output: Type.Object({ url: Type.String() }),
    sensitiveInputFields: ['token'],
    preview: (record) => record.url,
    handler: ({ token }) => {
      if (mode === 'throw') throw new Error(urlOf(token))
      if (mode === 'nested') throw new Error(nestedUrlOf(token))
      return { url: urlOf(token) }
    },
  })
  const dispatcher = createDispatcher({ tools: [tool] })
  for (const event of ['tool.pre_call', 'tool.post_call', 'tool.post_error'] as const) dispatcher.hook(event, (payload: unknown) => void texts.push(JSON.stringify(payload)))
  return { dispatcher, texts }
}

describe('a secret percent-encoded after JSON-encoding', () => {
  for (const secret of SECRETS) {
    it(`is scrubbed from the error message and the post_error payload: ${JSON.stringify(secret)}`, async () => {
      const { dispatcher, texts } = dispatcherFor('throw')
      const outcome = await dispatcher.invoke({ tool_id: 'v', input: { token: secret } })
      expect(outcome).toMatchObject({ status: 'error', error: { code: 'tool_execution_failed', reason: 'handler_failed' } })
      const message = (outcome as { error: Error }).error.message
      expect(message).toBe(`tool "v" failed: GET /x?q=${encodeURIComponent('{"token":"')}[REDACTED]${encodeURIComponent('"}')}`)
      for (const text of [message, JSON.stringify(outcome), ...texts]) expect(findSecretLeak(text, secret)).toBeUndefined()
    })

    it(`is scrubbed from the preview and the post_call payload: ${JSON.stringify(secret)}`, async () => {
      const { dispatcher, texts } = dispatcherFor('preview')
      const outcome = await dispatcher.invoke({ tool_id: 'v', input: { token: secret } })
      expect(outcome.status).toBe('ok')
      const preview = (outcome as { result: { preview: string } }).result.preview
      expect(preview).toContain('[REDACTED]')
      expect(texts.some((text) => text.includes('tool_result'))).toBe(true)
      for (const text of [preview, ...texts]) expect(findSecretLeak(text, secret)).toBeUndefined()
    })

    it(`is scrubbed JSON-encoded twice: ${JSON.stringify(secret)}`, async () => {
      const { dispatcher } = dispatcherFor('nested')
      const outcome = await dispatcher.invoke({ tool_id: 'v', input: { token: secret } })
      const message = (outcome as { error: Error }).error.message
      expect(message).toContain('[REDACTED]')
      expect(findSecretLeak(message, secret)).toBeUndefined()
    })
  }
})
