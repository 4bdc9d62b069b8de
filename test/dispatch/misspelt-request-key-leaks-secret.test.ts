// Regression: a misspelt request key leaked a secret. `invoke({ tool_id, input: { secret_ref },
// sensitiveInputFields: ['secret_ref'] })` was accepted: the handler's error message came back
// with the value in clear, and the pre-call hook payload held it.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'

const SECRET = 'vault://provider/token-XYZ123'

describe('misspelt-request-key-leaks-secret', () => {
  it('answers request_invalid naming the key and its suggestion, and runs nothing', async () => {
    const seen: unknown[] = []
    const tool = defineTool({
      id: 't__s',
      description: 'd',
      input: Type.Object({ secret_ref: Type.String() }),
      output: Type.Object({}),
      handler: (input) => {
        seen.push('handler')
        throw new Error(`failed with ${input.secret_ref}`)
      },
    })
    const dispatcher = createDispatcher({ tools: [tool], hooks: { 'tool.pre_call': (payload) => void seen.push(payload), 'tool.post_error': (payload) => void seen.push(payload) } })
    const outcome = await dispatcher.invoke({ tool_id: 't__s', input: { secret_ref: SECRET }, sensitiveInputFields: ['secret_ref'] } as never)
    expect(outcome).toMatchObject({
      status: 'error',
      error: {
        code: 'tool_invalid_input',
        reason: 'request_invalid',
        message: 'invalid invoke request: unknown field "sensitiveInputFields"; did you mean "sensitive_input_fields"?',
      },
    })
    expect(JSON.stringify(outcome)).not.toContain(SECRET)
    expect(seen).toEqual([])
  })
})
