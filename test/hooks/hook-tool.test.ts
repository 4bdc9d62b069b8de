// hookTool at run time: one tool's calls only, the same payloads as dispatcher.hook, misuse listed at once.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, hookTool, invokeTool, isHookRegistrationError, type PostCallPayload, type PostErrorPayload, type PreCallPayload } from 'result-views'

/** Any event's payload, as dispatcher.hook hands it. */
type AnyPayload = PreCallPayload | PostCallPayload | PostErrorPayload
import { errorOf, thrown } from '../support/outcomes.js'
import { noteTool, skillTool } from '../support/tools.js'

const CANARY = 'sk-live-canary-7f3a'

function setup() {
  const notes = noteTool()
  const skills = skillTool()
  const keyed = defineTool({
    id: 'keys__use',
    description: 'Uses a key.',
    input: Type.Object({ api_key: Type.String(), count: Type.Number() }, { additionalProperties: false }),
    output: Type.Object({ ok: Type.Boolean() }, { additionalProperties: false }),
    sensitiveInputFields: ['api_key'],
    handler: () => ({ ok: true }),
  })
  const dispatcher = createDispatcher({ tools: [notes, skills, keyed] })
  const all: AnyPayload[] = []
  for (const event of ['tool.pre_call', 'tool.post_call', 'tool.post_error'] as const) dispatcher.hook(event, (payload: AnyPayload) => void all.push(payload))
  return { dispatcher, notes, skills, keyed, all }
}

describe('hookTool', () => {
  it("runs only for its tool's calls, with the payloads dispatcher.hook gets", async () => {
    const { dispatcher, notes, all } = setup()
    const seen: AnyPayload[] = []
    hookTool(dispatcher, notes, 'tool.pre_call', (payload) => void seen.push(payload))
    hookTool(dispatcher, notes, 'tool.post_call', (payload) => void seen.push(payload))
    hookTool(dispatcher, notes, 'tool.post_error', (payload) => void seen.push(payload))
    await dispatcher.invoke({ tool_id: 'skills__view', input: { skill_id: 's1' } })
    await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })
    await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 2 } })
    expect(seen.map((p) => [p.tool_id, p.event])).toEqual([
      ['notes__read', 'tool.pre_call'],
      ['notes__read', 'tool.post_call'],
      ['notes__read', 'tool.post_error'],
    ])
    expect(seen).toEqual(all.filter((p) => p.tool_id === 'notes__read'))
  })

  it('patches and denies through a typed pre-call handler', async () => {
    const { dispatcher, skills, keyed } = setup()
    hookTool(dispatcher, skills, 'tool.pre_call', (payload) => ({ tool_input: { skill_id: payload.tool_input.skill_id.toUpperCase() } }))
    expect(await invokeTool(dispatcher, skills, { input: { skill_id: 'abc' } })).toMatchObject({ status: 'ok', result: { structured: { skill: { id: 'ABC' } } } })
    hookTool(dispatcher, keyed, 'tool.pre_call', (payload) => (payload.tool_input.count === '[REDACTED]' || payload.tool_input.count > 3 ? { deny: true, deny_reason: 'too many' } : undefined))
    expect(errorOf(await invokeTool(dispatcher, keyed, { input: { api_key: CANARY, count: 4 } }))).toMatchObject({ code: 'tool_denied', reason: 'hook_denied' })
  })

  it('shows sensitive fields as "[REDACTED]", a call\'s sensitive_input_fields too, whatever their declared type', async () => {
    const { dispatcher, keyed } = setup()
    const inputs: unknown[] = []
    hookTool(dispatcher, keyed, 'tool.post_call', (payload) => void inputs.push(payload.tool_input))
    await invokeTool(dispatcher, keyed, { input: { api_key: CANARY, count: 4 }, sensitive_input_fields: ['count'] })
    expect(inputs).toEqual([{ api_key: '[REDACTED]', count: '[REDACTED]' }])
    expect(JSON.stringify(inputs)).not.toContain(CANARY)
  })

  it('unregisters (twice is harmless)', async () => {
    const { dispatcher, notes } = setup()
    let runs = 0
    const off = hookTool(dispatcher, notes, 'tool.pre_call', () => void runs++)
    await invokeTool(dispatcher, notes, { input: { id: 'n1' } })
    off()
    off()
    await invokeTool(dispatcher, notes, { input: { id: 'n1' } })
    expect(runs).toBe(1)
  })

  it('throws HookRegistrationError listing every problem: not a dispatcher, a tool it does not hold, an unknown event, no function', () => {
    const { dispatcher, notes } = setup()
    const problems = (run: () => unknown) => {
      const error = thrown(run) as { code: string; problems: Array<{ path: string; code: string }> }
      expect(isHookRegistrationError(error)).toBe(true)
      expect(error.code).toBe('hook_registration_invalid')
      return error.problems.map((p) => `${p.path} ${p.code}`)
    }
    expect(problems(() => hookTool({ ...dispatcher }, notes, 'tool.pre_call', () => undefined))).toEqual(['/dispatcher not_a_dispatcher'])
    expect(problems(() => hookTool(dispatcher, noteTool(), 'tool.pre_call', () => undefined))).toEqual(['/tool tool_not_held'])
    expect(problems(() => hookTool(createDispatcher({ tools: [] }), notes, 'tool.pre_call', () => undefined))).toEqual(['/tool tool_not_held'])
    expect(problems(() => hookTool(dispatcher, { ...notes } as never, 'tool.bogus' as never, 3 as never))).toEqual(['/tool not_a_defined_tool', '/event unknown_event', '/handler invalid_handler'])
  })

  it('registers nothing when it refuses', async () => {
    const { dispatcher, notes } = setup()
    const deny = () => ({ deny: true as const })
    expect(() => hookTool(dispatcher, notes, 'tool.bogus' as never, deny as never)).toThrow()
    expect(() => hookTool(dispatcher, noteTool(), 'tool.pre_call', deny)).toThrow()
    expect(await invokeTool(dispatcher, notes, { input: { id: 'n1' } })).toMatchObject({ status: 'ok' })
  })
})
