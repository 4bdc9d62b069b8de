import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createPatternPolicy, isPolicyDefinitionError, type ToolFacts } from 'result-views'

function facts(over: Partial<ToolFacts> = {}): ToolFacts {
  return { id: 'ops__deploy', origin: 'native', risk: 'write', toolsets: ['ops'], approval: 'none', read_only: false, ...over }
}
const ask = (policy: ReturnType<typeof createPatternPolicy>, tool: Partial<ToolFacts> = {}) => policy.decide({ tool: facts(tool), scope: {}, input: {} })

describe('createPatternPolicy', () => {
  it('allows every tool when neither tools nor toolsets is given', () => {
    expect(ask(createPatternPolicy({ owner: 'agent:general' }))).toEqual({ decision: 'allow' })
  })

  it('allows by exact tool ID, by wildcard, or by toolset, and denies the rest with not_allowed and the owner', () => {
    const policy = createPatternPolicy({ owner: 'agent:reviewer', tools: ['notes__read', 'session_*'], toolsets: ['ops*'] })
    expect(ask(policy, { id: 'notes__read', toolsets: [] })).toEqual({ decision: 'allow' })
    expect(ask(policy, { id: 'session_status', toolsets: [] })).toEqual({ decision: 'allow' })
    expect(ask(policy, { id: 'anything', toolsets: ['ops-extra'] })).toEqual({ decision: 'allow' })
    expect(ask(policy, { id: 'notes__write', toolsets: ['notes'] })).toEqual({ decision: 'deny', reason: 'not_allowed', owner: 'agent:reviewer' })
  })

  it('grants nothing from an empty allow-list (it is enforced, not absent)', () => {
    expect(ask(createPatternPolicy({ owner: 'session:sess-1', tools: [] }))).toEqual({ decision: 'deny', reason: 'not_allowed', owner: 'session:sess-1' })
  })

  it('lets deny_tools win over every allow entry', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z_]{1,12}$/), fc.boolean(), (id, wildcard) => {
        const policy = createPatternPolicy({ owner: 'agent:a', tools: ['*', id], toolsets: ['*'], deny_tools: [wildcard ? id.slice(0, 1) + '*' : id] })
        expect(ask(policy, { id, toolsets: ['ops'] })).toEqual({ decision: 'deny', reason: 'deny_listed', owner: 'agent:a' })
      }),
    )
  })

  it('matches "*" as any run of characters and every other character literally', () => {
    const reference = (pattern: string, id: string): boolean => {
      const parts = pattern.split('*')
      if (parts.length === 1) return pattern === id
      if (!id.startsWith(parts[0]!) || !id.endsWith(parts.at(-1)!) || id.length < parts[0]!.length + parts.at(-1)!.length) return false
      let at = parts[0]!.length
      for (const middle of parts.slice(1, -1)) {
        const found = id.indexOf(middle, at)
        if (found < 0 || found + middle.length > id.length - parts.at(-1)!.length) return false
        at = found + middle.length
      }
      return true
    }
    const alphabet = fc.constantFrom('a', 'b', '.', '+', '(', ')', '[', '?', '\\', '$', '^', '|', '{', '\n')
    fc.assert(
      fc.property(fc.array(fc.oneof(alphabet, fc.constant('*')), { minLength: 1, maxLength: 6 }), fc.array(alphabet, { minLength: 1, maxLength: 6 }), (pattern, id) => {
        const p = pattern.join('')
        const i = id.join('')
        const policy = createPatternPolicy({ owner: 'agent:a', tools: [p] })
        expect(ask(policy, { id: i, toolsets: [] }).decision === 'allow', `${JSON.stringify(p)} vs ${JSON.stringify(i)}`).toBe(reference(p, i))
      }),
      { numRuns: 500 },
    )
  })

  it('asks for approval per mode, and never waives a tool that declares it', () => {
    const modes = { declared: createPatternPolicy({ owner: 'agent:a' }), non_read_only: createPatternPolicy({ owner: 'agent:a', approval: 'non_read_only' }), always: createPatternPolicy({ owner: 'agent:a', approval: 'always' }) }
    expect(ask(modes.declared, { read_only: false })).toEqual({ decision: 'allow' })
    expect(ask(modes.declared, { approval: 'required' })).toEqual({ decision: 'approval_required', reason: 'tool_requires_approval', owner: 'agent:a' })
    expect(ask(modes.non_read_only, { read_only: true })).toEqual({ decision: 'allow' })
    expect(ask(modes.non_read_only, { read_only: false })).toEqual({ decision: 'approval_required', reason: 'not_read_only', owner: 'agent:a' })
    expect(ask(modes.always, { read_only: true })).toEqual({ decision: 'approval_required', reason: 'policy_requires_approval', owner: 'agent:a' })
    for (const policy of Object.values(modes)) expect(ask(policy, { approval: 'required', read_only: true }).decision).toBe('approval_required')
  })

  it('refuses a bad definition listing every problem', () => {
    let thrown: unknown
    try {
      createPatternPolicy({ owner: 'reviewer', tools: ['ok', ''], toolsets: 'ops' as never, deny_tools: [3 as never], approval: 'sometimes' as never })
    } catch (error) {
      thrown = error
    }
    expect(isPolicyDefinitionError(thrown)).toBe(true)
    expect((thrown as { code: string }).code).toBe('policy_definition_invalid')
    expect((thrown as { problems: Array<{ path: string; code: string }> }).problems.map((p) => [p.path, p.code])).toEqual([
      ['/owner', 'invalid_owner'],
      ['/tools/1', 'invalid_pattern'],
      ['/toolsets', 'invalid_list'],
      ['/deny_tools/0', 'invalid_pattern'],
      ['/approval', 'invalid_approval_mode'],
    ])
  })

  it('accepts agent:<source path or name> and session:<id> owners only', () => {
    for (const owner of ['agent:general', 'agent:.compozy/agents/reviewer.md', 'session:sess-1']) expect(createPatternPolicy({ owner }).owner).toBe(owner)
    for (const owner of ['agent:', 'session:', 'workspace:ws-1', '', 3]) expect(() => createPatternPolicy({ owner: owner as string })).toThrow(/owner/)
  })
})
