// A scope whose field cannot be read (a getter or a Proxy trap throws) is refused by invoke,
// describe(scope) and list(scope) in the same words; an unreadable sensitive_input_fields or
// trace_context is named as such, not as "the request".
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, type CallScope } from 'result-views'
import { errorOf } from '../support/outcomes.js'

const dispatcher = createDispatcher({ tools: [defineTool({ id: 'probe__t', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })] })
const throwing = (): CallScope =>
  Object.defineProperty({}, 'workspace_id', {
    enumerable: true,
    get() {
      throw new Error('getter threw')
    },
  }) as CallScope
const trap = new Proxy({}, { ownKeys: () => { throw new Error('trap threw') } }) as CallScope

describe('an unreadable scope', () => {
  for (const [name, scope] of [['a throwing getter', throwing], ['a throwing ownKeys trap', () => trap]] as const) {
    it(`is refused in the same words by invoke, describe and list: ${name}`, async () => {
      const invoked = errorOf(await dispatcher.invoke({ tool_id: 'probe__t', input: {}, scope: scope() }))
      const described = (await dispatcher.describe('probe__t', scope()).catch((error: unknown) => error)) as { reason: string; message: string }
      const listed = (await dispatcher.list(scope()).catch((error: unknown) => error)) as { reason: string; message: string }
      expect(invoked.message).toContain('the scope could not be read (a getter or a Proxy threw)')
      expect([invoked.reason, invoked.message]).toEqual([described.reason, described.message])
      expect([listed.reason, listed.message]).toEqual([described.reason, described.message])
    })
  }

  it('an unreadable sensitive_input_fields is named', async () => {
    const fields = new Proxy(['a'], { get: () => { throw new Error('trap threw') } })
    const error = errorOf(await dispatcher.invoke({ tool_id: 'probe__t', input: {}, sensitive_input_fields: fields }))
    expect(error.reason).toBe('request_invalid')
    expect(error.message).toContain('sensitive_input_fields could not be read')
  })
})
