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
  it.each(Object.keys(ToolErrorCodes) as ToolErrorCode[])('%s: a reason holding a sensitive value becomes a registered reason of the code', async (code) => {
    const dispatcher = createDispatcher({ tools: [throwing(code, SECRET)] })
    const outcome = await dispatcher.invoke({ tool_id: 't__throws', input: { token: SECRET } })
    expect(outcome.status).toBe('error')
    if (outcome.status !== 'error') return
    expect(outcome.error.code).toBe(code)
    expect(ToolErrorCodes[code].reasons as readonly string[]).toContain(outcome.error.reason)
    expect(JSON.stringify(outcome)).not.toContain(SECRET)
  })

  it.each(Object.keys(ToolErrorCodes) as ToolErrorCode[])('%s: a snake_case reason that is a sensitive value becomes a registered reason of the code', async (code) => {
    const secret = 'sk_live_abc123'
    const dispatcher = createDispatcher({ tools: [throwing(code, secret)] })
    const outcome = await dispatcher.invoke({ tool_id: 't__throws', input: { token: secret } })
    expect(outcome.status === 'error' && (ToolErrorCodes[code].reasons as readonly string[]).includes(outcome.error.reason)).toBe(true)
    expect(JSON.stringify(outcome)).not.toContain(secret)
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
    expect(body).toContain('tool_not_found')
    expect(body).not.toContain(SECRET)
  })
})
