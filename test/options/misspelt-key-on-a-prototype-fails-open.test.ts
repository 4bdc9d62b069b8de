// Regression (break-it review): the options reader read known keys through the prototype (a class
// getter counts), but looked for unknown keys among own keys only, so a misspelt key on a
// prototype was silently ignored: a class with `get policies()` ran every tool, a request class
// with `get sensitiveInputFields()` leaked the secret, an `Object.create` parent's `denyTools`
// made an empty deny-list.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, createPatternPolicy, defineTool } from 'result-views'

const SECRET = 'vault://provider/token-XYZ123'
const ok = defineTool({ id: 't__ok', description: 'd', input: Type.Object({}), output: Type.Object({ ran: Type.Boolean() }), handler: () => ({ ran: true }) })
const leaky = defineTool({
  id: 't__s',
  description: 'd',
  input: Type.Object({ secret_ref: Type.String() }),
  output: Type.Object({}),
  handler: (input) => {
    throw new Error(`failed with ${JSON.stringify(input)}`)
  },
})

describe('misspelt keys on a prototype', () => {
  it('createDispatcher refuses a class whose misspelt policy getter is inherited', () => {
    class Options {
      tools = [ok]
      get policies() {
        return createPatternPolicy({ owner: 'agent:x', tools: [] })
      }
    }
    expect(() => createDispatcher(new Options() as never)).toThrow(expect.objectContaining({ code: 'dispatcher_options_invalid', problems: [expect.objectContaining({ path: '/policies', code: 'unknown_option' })] }))
  })

  it('still reads a correctly named class getter', async () => {
    class Options {
      tools = [ok]
      get policy() {
        return createPatternPolicy({ owner: 'agent:x', tools: [] })
      }
    }
    const outcome = await createDispatcher(new Options() as never).invoke({ tool_id: 't__ok', input: {} })
    expect(outcome).toMatchObject({ status: 'error', error: { code: 'tool_denied', reason: 'policy_denied' } })
  })

  it('invoke refuses a request class with an inherited misspelt sensitiveInputFields, and the secret appears nowhere', async () => {
    const seen: unknown[] = []
    const dispatcher = createDispatcher({ tools: [leaky], hooks: { 'tool.pre_call': (payload) => void seen.push(payload) } })
    class Request {
      tool_id = 't__s'
      input = { secret_ref: SECRET }
      get sensitiveInputFields() {
        return ['secret_ref']
      }
    }
    const outcome = await dispatcher.invoke(new Request() as never)
    expect(outcome).toMatchObject({ status: 'error', error: { code: 'tool_invalid_input', reason: 'request_invalid' } })
    expect(JSON.stringify(outcome)).toContain('did you mean \\"sensitive_input_fields\\"')
    expect(JSON.stringify(outcome)).not.toContain('XYZ123')
    expect(seen).toEqual([])
  })

  it('createPatternPolicy refuses a misspelt deny list on an Object.create parent', () => {
    const options = Object.assign(Object.create({ denyTools: ['t__ok'] }), { owner: 'agent:x', tools: ['*'] })
    expect(() => createPatternPolicy(options)).toThrow(expect.objectContaining({ problems: [expect.objectContaining({ path: '/denyTools', code: 'unknown_option' })] }))
  })

  it('accepts null-prototype options and plain objects as before', async () => {
    const options = Object.assign(Object.create(null), { tools: [ok] })
    expect((await createDispatcher(options).invoke({ tool_id: 't__ok', input: {} })).status).toBe('ok')
  })
})
