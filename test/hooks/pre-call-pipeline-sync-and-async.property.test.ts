// Pre-call hooks run as one pipeline in registration order, whether each answers at once or
// later: handlers that answer synchronously settle without a task-queue turn, and a pipeline
// that mixes both must still see every handler once, in order, each with the previous patch.
import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'

type Step = { readonly kind: 'pass' | 'patch' | 'deny' | 'throw' | 'bad_answer'; readonly async: boolean }

const step: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom('pass', 'pass', 'patch', 'patch', 'deny', 'throw', 'bad_answer'),
  async: fc.boolean(),
})

/** What the pipeline must end with: the handlers that ran (by index) and the call's fate. */
function model(steps: readonly Step[]): { ran: number[]; fate: { status: 'ok'; trail: string } | { status: 'error'; reason: string } } {
  const ran: number[] = []
  let trail = ''
  for (let i = 0; i < steps.length; i++) {
    ran.push(i)
    const s = steps[i]!
    if (s.kind === 'deny') return { ran, fate: { status: 'error', reason: 'hook_denied' } }
    if (s.kind === 'throw') return { ran, fate: { status: 'error', reason: 'hook_threw' } }
    if (s.kind === 'bad_answer') return { ran, fate: { status: 'error', reason: 'hook_patch_invalid' } }
    if (s.kind === 'patch') trail += String(i)
  }
  return { ran, fate: { status: 'ok', trail } }
}

describe('the pre-call pipeline', () => {
  it('runs every handler once, in order, each on the previous patch, sync or async alike', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
        const dispatcher = createDispatcher({
          tools: [
            defineTool({
              id: 'probe__trail',
              description: 'returns the trail its input carries',
              input: Type.Object({ trail: Type.String() }),
              output: Type.Object({ trail: Type.String() }),
              handler: (input) => ({ trail: input.trail }),
            }),
          ],
        })
        const ran: number[] = []
        steps.forEach((s, i) => {
          dispatcher.hook('tool.pre_call', (payload) => {
            ran.push(i)
            const answer = (): unknown => {
              if (s.kind === 'deny') return { deny: true, deny_reason: `step ${i}` }
              if (s.kind === 'throw') throw new Error(`step ${i} threw`)
              if (s.kind === 'bad_answer') return 42
              if (s.kind === 'patch') return { tool_input: { trail: (payload.tool_input as { trail: string }).trail + String(i) } }
              return undefined
            }
            return (s.async ? Promise.resolve().then(answer) : answer()) as never
          })
        })
        const want = model(steps)
        const outcome = await dispatcher.invoke({ tool_id: 'probe__trail', input: { trail: '' } })
        expect(ran).toEqual(want.ran)
        if (want.fate.status === 'ok') {
          expect(outcome).toMatchObject({ status: 'ok', result: { structured: { trail: want.fate.trail } } })
        } else {
          expect(outcome).toMatchObject({ status: 'error', error: { reason: want.fate.reason } })
        }
      }),
      { numRuns: 200 },
    )
  })

  it('a handler added by a handler during a call does not run in that call', async () => {
    const dispatcher = createDispatcher({ tools: [defineTool({ id: 'probe__once', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })] })
    let late = 0
    dispatcher.hook('tool.pre_call', () => {
      dispatcher.hook('tool.pre_call', () => {
        late++
      })
    })
    expect((await dispatcher.invoke({ tool_id: 'probe__once', input: {} })).status).toBe('ok')
    expect(late).toBe(0)
  })
})
