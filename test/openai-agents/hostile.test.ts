// Hostile and odd values at the OpenAI Agents adapter's edges: whatever the model sends, a tool
// answers a string the model reads (never the SDK's generic error text, never a throw).
import { RunContext } from '@openai/agents'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isAgentsOptionsError, toAgentsTools } from 'result-views/openai-agents'
import { adapterCatalog, SCOPE } from '../support/adapter-catalog.js'

const details = (callId: string) => ({ toolCall: { type: 'function_call' as const, name: 'x', callId, arguments: '{}' } })

describe('toAgentsTools invoke with hostile input', () => {
  it('answers every JSON object the model sends with the text of outcomeForModel, for every tool and both approval modes', async () => {
    const { dispatcher } = adapterCatalog()
    const sets = [toAgentsTools(dispatcher, { scope: SCOPE }), toAgentsTools(dispatcher, { scope: SCOPE, approvals: 'framework' })]
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 3 }), fc.constantFrom(0, 1), fc.dictionary(fc.string(), fc.jsonValue()), async (index, set, input) => {
        const output = await sets[set]![index]!.invoke(new RunContext(), JSON.stringify(input), details('c'))
        expect(typeof output).toBe('string')
        expect(output).not.toContain('An error occurred while running the tool')
        expect(output).toMatch(/^(\{|\[|"|approval_pending: |[a-z_]+ \([a-z_]+\): )/)
      }),
      { numRuns: 200 },
    )
  })

  it('treats a call the run context did not approve as not approved, so it waits on a pending approval', async () => {
    const { dispatcher, calls } = adapterCatalog()
    const deploy = toAgentsTools(dispatcher, { scope: SCOPE, approvals: 'framework' }).find((t) => t.name === 'ops__deploy')!
    const output = await deploy.invoke(new RunContext(), JSON.stringify({ target: 'prod' }), details('c1'))
    expect(output).toMatch(/^approval_pending: approval_id=/)
    expect(calls.deploy).toEqual([])
  })
})

describe('toAgentsTools with a dispatcher that is not the library’s', () => {
  const answering = (list: () => unknown) => ({ invoke() {}, describe() {}, list, approvals: {} }) as never
  const problemsOf = (dispatcher: never): unknown => {
    try {
      toAgentsTools(dispatcher)
    } catch (error) {
      expect(isAgentsOptionsError(error)).toBe(true)
      return (error as { problems: unknown }).problems
    }
    throw new Error('expected toAgentsTools to throw')
  }

  it('refuses a list of 2 ** 32 - 1 holes at its first hole (regression: map walked all of its indices)', () => {
    const holes: unknown[] = []
    holes.length = 2 ** 32 - 1
    expect(problemsOf(answering(() => holes))).toEqual([{ path: '/dispatcher/list/0', code: 'not_a_dispatcher', message: expect.stringContaining('hole') }])
  })

  it('refuses a list() that throws or answers no list of descriptors, never throwing its error', () => {
    expect(problemsOf(answering(() => { throw new Error('list-canary') }))).toEqual([expect.objectContaining({ path: '/dispatcher/list', code: 'unreadable_option' })])
    expect(problemsOf(answering(() => 'tools'))).toEqual([expect.objectContaining({ path: '/dispatcher/list', code: 'not_a_dispatcher' })])
    expect(problemsOf(answering(() => [{ tool_id: 'a' }, null]))).toEqual([expect.objectContaining({ path: '/dispatcher/list/1', code: 'not_a_dispatcher' })])
  })
})
