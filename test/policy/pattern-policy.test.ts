import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, createPatternPolicy, defineTool, isPolicyDefinitionError, type ToolFacts } from 'result-views'
import { referenceWildcardMatch as tableMatch } from '../support/wildcard.js'

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

/** The definition of `*` matching, as a recursion: exponential on bad patterns, so for small inputs only. */
function naiveMatch(pattern: string, id: string): boolean {
  if (pattern.length === 0) return id.length === 0
  if (pattern[0] === '*') return naiveMatch(pattern.slice(1), id) || (id.length > 0 && naiveMatch(pattern, id.slice(1)))
  return id.length > 0 && pattern[0] === id[0] && naiveMatch(pattern.slice(1), id.slice(1))
}

describe('wildcard matching in linear time (regression: a backtracking RegExp took 6.9 s per call for a*a*a*a*a*b)', () => {
  const matches = (pattern: string, id: string) => ask(createPatternPolicy({ owner: 'agent:a', tools: [pattern] }), { id, toolsets: [] }).decision === 'allow'

  it('agrees with the recursive definition of "*" on small inputs (differential property)', () => {
    const alphabet = fc.constantFrom('a', 'b', '*', '.', '\\', '\ud83d', '\ude00')
    fc.assert(
      fc.property(fc.array(alphabet, { minLength: 1, maxLength: 7 }), fc.array(alphabet.filter((c) => c !== '*'), { maxLength: 8 }), (pattern, id) => {
        const p = pattern.join('')
        const i = id.join('')
        expect(matches(p, i), `${JSON.stringify(p)} vs ${JSON.stringify(i)}`).toBe(naiveMatch(p, i))
      }),
      { numRuns: 2000 },
    )
  })

  it('matches patterns of 16 stars against 128-character IDs exactly as the dynamic-programming reference does', () => {
    const letters = fc.constantFrom('a', 'b')
    const part = fc.array(letters, { maxLength: 3 }).map((chars) => chars.join(''))
    const pattern = fc.array(part, { minLength: 17, maxLength: 17 }).map((parts) => parts.join('*'))
    const id = fc.array(fc.constantFrom('a', 'a', 'a', 'b'), { minLength: 128, maxLength: 128 }).map((chars) => chars.join(''))
    fc.assert(
      fc.property(pattern, id, (p, i) => {
        expect(p.split('*')).toHaveLength(17)
        expect(matches(p, i), `${p} vs ${i}`).toBe(tableMatch(p, i))
      }),
      { numRuns: 300 },
    )
  })

  it('answers the pathological patterns at once: 16 stars that almost match a 128-character ID', () => {
    const id = 'a'.repeat(128)
    expect(matches('a*'.repeat(16) + 'b', id)).toBe(false)
    expect(matches('*a'.repeat(16) + '*b', id)).toBe(false)
    expect(matches('a*'.repeat(16) + 'a', id)).toBe(true)
    expect(matches('*' + 'a*'.repeat(128) + 'a', id)).toBe(false) // needs 129 "a"
    expect(matches('*' + 'a*'.repeat(127) + 'a', id)).toBe(true) // needs exactly 128
    for (const pattern of ['a*'.repeat(16) + 'b', '*a'.repeat(16) + '*b', 'a*'.repeat(16) + 'a', '*' + 'a*'.repeat(128) + 'a']) expect(matches(pattern, id)).toBe(tableMatch(pattern, id))
  })

  it('denies through invoke with a pathological deny pattern on a 128-character tool ID', async () => {
    const id = 'a'.repeat(128)
    const calls: unknown[] = []
    const tool = defineTool({ id, description: 'long', input: Type.Object({}), output: Type.Object({}), handler: () => (calls.push(1), {}) })
    const denied = createDispatcher({ tools: [tool], policy: createPatternPolicy({ owner: 'agent:a', deny_tools: ['a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a'] }) })
    const outcome = await denied.invoke({ tool_id: id, input: {} })
    expect(outcome.status === 'error' && [outcome.error.code, outcome.error.reason, outcome.error.details]).toEqual(['tool_denied', 'policy_denied', { policy_reason: 'deny_listed', owner: 'agent:a' }])
    const spared = createDispatcher({ tools: [tool], policy: createPatternPolicy({ owner: 'agent:a', deny_tools: ['a*'.repeat(16) + 'b'] }) })
    expect((await spared.invoke({ tool_id: id, input: {} })).status).toBe('ok')
    expect(calls).toEqual([1])
  })
})
