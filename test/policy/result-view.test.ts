import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDispatcher, createPatternPolicy, defaultToolPolicy, intersectPolicies, type InvokeOutcome, type PolicyRequest, type ToolFacts, type ToolPolicy } from 'result-views'
import { SCOPE, deployTool, statusTool } from '../approval/fixtures.js'

/** A policy that reads the input: it would change its mind on result_view if it ever saw one. */
const inputReader: ToolPolicy = {
  decide: (request: PolicyRequest) =>
    Object.prototype.hasOwnProperty.call(request.input, 'result_view') ? { decision: 'deny', reason: 'saw_result_view' } : { decision: 'approval_required', reason: 'reads_input' },
}

const policies: Record<string, () => ToolPolicy> = {
  default: () => defaultToolPolicy,
  'pattern, declared': () => createPatternPolicy({ owner: 'agent:a', toolsets: ['ops'] }),
  'pattern, non_read_only': () => createPatternPolicy({ owner: 'agent:a', tools: ['ops__*'], approval: 'non_read_only' }),
  'pattern, always': () => createPatternPolicy({ owner: 'agent:a', approval: 'always' }),
  'pattern, deny': () => createPatternPolicy({ owner: 'agent:a', deny_tools: ['ops__deploy'] }),
  intersection: () => intersectPolicies([createPatternPolicy({ owner: 'agent:a' }), createPatternPolicy({ owner: 'session:s', approval: 'non_read_only' })]),
  'input reader': () => inputReader,
}

const shape = (o: InvokeOutcome) => (o.status === 'error' ? `error:${o.error.code}:${o.error.reason}` : o.status)

describe('result_view never changes a policy decision (spec 000 "Approvals")', () => {
  for (const [name, make] of Object.entries(policies)) {
    it(`${name}: the same call with result_view absent, "compact" or "full" gets the same decision`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 12 }), fc.constantFrom('ops__deploy', 'ops__status'), async (target, toolId) => {
          const seen: unknown[] = []
          const policy = make()
          const dispatcher = createDispatcher({
            tools: [deployTool(), statusTool()],
            policy: { decide: (request) => (seen.push(request.input), policy.decide(request)) },
            approvals: { prompt: () => 'reject_once' },
          })
          const inputs = toolId === 'ops__deploy' ? [{ target }, { target, result_view: 'compact' }, { target, result_view: 'full' }] : [{ target }]
          const outcomes = await Promise.all(inputs.map((input) => dispatcher.invoke({ tool_id: toolId, input, scope: SCOPE })))
          expect(new Set(outcomes.map(shape)).size).toBe(1)
          expect(seen).toEqual(inputs.map(() => ({ target })))
        }),
        { numRuns: 25 },
      )
    })
  }

  it('the shipped policies decide the same on an input with or without result_view, for any tool facts', () => {
    const facts = fc.record<ToolFacts>({
      id: fc.constantFrom('ops__deploy', 'ops__status', 'notes__write'),
      origin: fc.constantFrom('native', 'extension', 'mcp'),
      risk: fc.option(fc.constantFrom('read', 'write'), { nil: undefined }),
      toolsets: fc.array(fc.constantFrom('ops', 'notes', 'read'), { maxLength: 2 }),
      approval: fc.constantFrom('none', 'required'),
      read_only: fc.boolean(),
    })
    const shipped = Object.entries(policies).filter(([name]) => name !== 'input reader')
    return fc.assert(
      fc.asyncProperty(facts, fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 })), fc.constantFrom('compact', 'full'), async (tool, input, view) => {
        for (const [, make] of shipped) {
          const policy = make()
          const without = await policy.decide({ tool, scope: SCOPE, input })
          const withView = await policy.decide({ tool, scope: SCOPE, input: { ...input, result_view: view } })
          expect(withView).toEqual(without)
        }
      }),
    )
  })

  it("a policy gets a private copy of the input: changing it changes nothing the handler gets", async () => {
    const calls: unknown[] = []
    const dispatcher = createDispatcher({
      tools: [statusTool(calls)],
      policy: { decide: (request) => ((request.input as { target: string }).target = 'tampered', { decision: 'allow' }) },
    })
    await dispatcher.invoke({ tool_id: 'ops__status', input: { target: 'prod' }, scope: SCOPE })
    expect(calls).toEqual([{ target: 'prod' }])
  })

  it('a policy sees the tool facts and the normalized scope', async () => {
    const seen: PolicyRequest[] = []
    const dispatcher = createDispatcher({ tools: [deployTool()], policy: { decide: (request) => (seen.push(request), { decision: 'deny', reason: 'no' }) } })
    await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: { ...SCOPE } })
    expect(seen[0]).toEqual({
      tool: { id: 'ops__deploy', origin: 'native', risk: 'write', toolsets: ['ops'], approval: 'required', read_only: false },
      scope: SCOPE,
      input: { target: 'prod' },
    })
  })
})
