import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDispatcher, createPatternPolicy, intersectPolicies, isPolicyDefinitionError, type PolicyDecision, type ToolFacts, type ToolPolicy } from 'result-views'
import { SCOPE, codeOf, writeTool } from '../approval/fixtures.js'

const tool: ToolFacts = { id: 'notes__write', origin: 'native', risk: 'write', toolsets: ['notes'], approval: 'none', read_only: false }
const decision = fc.oneof(
  fc.constant<PolicyDecision>({ decision: 'allow' }),
  fc.string({ maxLength: 8 }).map<PolicyDecision>((reason) => ({ decision: 'deny', reason })),
  fc.option(fc.string({ maxLength: 8 }), { nil: undefined }).map<PolicyDecision>((reason) => (reason === undefined ? { decision: 'approval_required' } : { decision: 'approval_required', reason })),
)

describe('intersectPolicies', () => {
  it('allows only when every policy allows; the first deny wins at once; else the first approval_required', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(decision, fc.boolean()), { minLength: 1, maxLength: 6 }), async (members) => {
        const asked: number[] = []
        const policies: ToolPolicy[] = members.map(([d, async], i) => ({ decide: () => (asked.push(i), async ? Promise.resolve(d) : d) }))
        const got = await intersectPolicies(policies).decide({ tool, scope: {}, input: {} })
        const decisions = members.map(([d]) => d)
        const firstDeny = decisions.findIndex((d) => d.decision === 'deny')
        if (firstDeny >= 0) {
          expect(got).toEqual(decisions[firstDeny])
          expect(asked).toEqual([...Array(firstDeny + 1).keys()])
        } else {
          expect(got).toEqual(decisions.find((d) => d.decision === 'approval_required') ?? { decision: 'allow' })
          expect(asked).toHaveLength(members.length)
        }
      }),
    )
  })

  it('composes workspace ∩ agent ∩ session override ∩ spawn permission policies', async () => {
    const policy = intersectPolicies([
      createPatternPolicy({ owner: 'agent:workspace', toolsets: ['notes', 'ops'] }),
      createPatternPolicy({ owner: 'agent:reviewer', tools: ['notes__*'], approval: 'non_read_only' }),
      createPatternPolicy({ owner: 'session:sess-1', tools: ['notes__write', 'notes__read'] }),
      createPatternPolicy({ owner: 'session:sess-child', tools: ['*'], deny_tools: ['notes__read'] }),
    ])
    const ask = (t: Partial<ToolFacts>) => policy.decide({ tool: { ...tool, ...t }, scope: {}, input: {} })
    expect(await ask({})).toEqual({ decision: 'approval_required', reason: 'not_read_only', owner: 'agent:reviewer' })
    expect(await ask({ id: 'notes__read', read_only: true })).toEqual({ decision: 'deny', reason: 'deny_listed', owner: 'session:sess-child' })
    expect(await ask({ id: 'notes__delete' })).toEqual({ decision: 'deny', reason: 'not_allowed', owner: 'session:sess-1' })
    expect(await ask({ id: 'ops__deploy', toolsets: ['ops'] })).toEqual({ decision: 'deny', reason: 'not_allowed', owner: 'agent:reviewer' })
  })

  it('refuses an empty intersection and members without decide', () => {
    for (const bad of [[], [{}], 'x'] as unknown[]) {
      let thrown: unknown
      try {
        intersectPolicies(bad as ToolPolicy[])
      } catch (error) {
        thrown = error
      }
      expect(isPolicyDefinitionError(thrown)).toBe(true)
    }
  })

  it('fails closed through the dispatcher when a member returns a malformed decision', async () => {
    const calls: unknown[] = []
    for (const bad of [undefined, { decision: 'maybe' }, { decision: 'deny' }, { decision: 'allow', reason: 3, owner: 4 }, 'allow']) {
      const dispatcher = createDispatcher({ tools: [writeTool(calls)], policy: intersectPolicies([{ decide: () => ({ decision: 'allow' }) }, { decide: () => bad as never }]) })
      const outcome = await dispatcher.invoke({ tool_id: 'notes__write', input: { text: 'x' }, scope: SCOPE })
      if ((bad as { decision?: string })?.decision === 'allow') expect(outcome.status).toBe('ok')
      else expect(codeOf(outcome)).toEqual(['tool_denied', 'policy_failed'])
    }
    expect(calls).toHaveLength(1)
  })

  it('reports a malformed member decision as invalid_decision, naming the member, exactly as a policy used directly', async () => {
    const good: ToolPolicy = { decide: () => ({ decision: 'allow' }) }
    const bad: ToolPolicy = { decide: () => ({ decision: 'maybe' }) as never }
    const details = async (policy: ToolPolicy) => {
      const dispatcher = createDispatcher({ tools: [writeTool([])], policy })
      const outcome = await dispatcher.invoke({ tool_id: 'notes__write', input: { text: 'x' }, scope: SCOPE })
      return outcome.status === 'error' ? { reason: outcome.error.reason, details: outcome.error.details, message: outcome.error.message } : outcome.status
    }
    expect(await details(bad)).toEqual({
      reason: 'policy_failed',
      details: { problem: 'invalid_decision' },
      message: 'tool "notes__write" invocation denied: the tool policy returned something that is not a decision',
    })
    expect(await details(intersectPolicies([good, bad]))).toEqual({
      reason: 'policy_failed',
      details: { problem: 'invalid_decision', policy_path: '/policies/1' },
      message: 'tool "notes__write" invocation denied: the tool policy returned something that is not a decision (intersection member /policies/1)',
    })
    expect((await details(intersectPolicies([good, intersectPolicies([bad]), good]))) as { details: unknown }).toMatchObject({ details: { problem: 'invalid_decision', policy_path: '/policies/1/policies/0' } })
    const asyncBad: ToolPolicy = { decide: async () => 'allow' as never }
    expect(await details(intersectPolicies([asyncBad]))).toMatchObject({ details: { problem: 'invalid_decision', policy_path: '/policies/0' } })
  })

  it('still reports a member that throws as threw', async () => {
    const throwing: ToolPolicy = {
      decide: () => {
        throw new TypeError('boom')
      },
    }
    const dispatcher = createDispatcher({ tools: [writeTool([])], policy: intersectPolicies([{ decide: () => ({ decision: 'allow' }) }, throwing]) })
    const outcome = await dispatcher.invoke({ tool_id: 'notes__write', input: { text: 'x' }, scope: SCOPE })
    expect(outcome.status === 'error' && outcome.error.details).toEqual({ problem: 'threw' })
  })
})
