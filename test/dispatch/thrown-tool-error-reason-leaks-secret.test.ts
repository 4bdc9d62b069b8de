// Regression: a handler that threw a ToolError of a code other than the `reported` ones kept its
// reason verbatim, and reasons are shown unscrubbed on every surface: a sensitive input value used
// as the reason reached the HTTP error body (`{"code":"tool_not_found","reason":"<secret>"}`).
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, ToolError, ToolErrorCodes, type ToolErrorCode } from 'result-views'
import { createFetchHandler } from 'result-views/http'

const SECRET = 'SECRET-CANARY-123'

function throwing(code: ToolErrorCode, reason: string) {
  return defineTool({
    id: 't__throws',
    description: 'Throws the ToolError it is told to.',
    input: Type.Object({ token: Type.String() }),
    output: Type.Object({}),
    sensitiveInputFields: ['token'],
    handler: () => {
      throw new ToolError({ code, reason, message: `failed for ${reason}` })
    },
  })
}

describe('thrown-tool-error-reason-leaks-secret', () => {
  /** What a thrown ToolError whose reason breaks the rule becomes: its code's own reason when reported, else a handler failure. */
  const replaced = (code: ToolErrorCode) =>
    ToolErrorCodes[code].kind === 'reported' ? { code, reason: ToolErrorCodes[code].reasons[0] } : { code: 'tool_execution_failed', reason: 'handler_failed' }

  it.each(Object.keys(ToolErrorCodes) as ToolErrorCode[])('%s: a reason holding a sensitive value never reaches the outcome', async (code) => {
    const dispatcher = createDispatcher({ tools: [throwing(code, SECRET)] })
    const outcome = await dispatcher.invoke({ tool_id: 't__throws', input: { token: SECRET } })
    expect(outcome).toMatchObject({ status: 'error', error: replaced(code) })
    expect(JSON.stringify(outcome)).not.toContain(SECRET)
  })

  it.each(Object.keys(ToolErrorCodes) as ToolErrorCode[])('%s: a snake_case reason that is a sensitive value never reaches the outcome', async (code) => {
    const secret = 'sk_live_abc123'
    const dispatcher = createDispatcher({ tools: [throwing(code, secret)] })
    const outcome = await dispatcher.invoke({ tool_id: 't__throws', input: { token: secret } })
    expect(outcome).toMatchObject({ status: 'error', error: replaced(code) })
    expect(JSON.stringify(outcome)).not.toContain(secret)
  })

  it('does not misname a thrown tool_denied whose reason is not a word: it is a handler failure', async () => {
    const dispatcher = createDispatcher({ tools: [throwing('tool_denied', 'Not Allowed!')] })
    const outcome = await dispatcher.invoke({ tool_id: 't__throws', input: { token: 'x' } })
    expect(outcome).toMatchObject({ status: 'error', error: { code: 'tool_execution_failed', reason: 'handler_failed' } })
  })

  it("keeps a tool's own snake_case reason that holds no secret, as thrown", async () => {
    const dispatcher = createDispatcher({ tools: [throwing('tool_not_found', 'no_such_ticket')] })
    const outcome = await dispatcher.invoke({ tool_id: 't__throws', input: { token: 'x' } })
    expect(outcome).toMatchObject({ status: 'error', error: { code: 'tool_not_found', reason: 'no_such_ticket' } })
  })

  it('keeps the secret out of the HTTP error body', async () => {
    const handler = createFetchHandler(createDispatcher({ tools: [throwing('tool_not_found', SECRET)] }))
    const response = await handler(new Request('http://127.0.0.1/api/tools/t__throws/invoke', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: { token: SECRET } }),
    }))
    const body = await response.text()
    expect(response.status).toBe(500)
    expect(body).not.toContain(SECRET)
  })
})
