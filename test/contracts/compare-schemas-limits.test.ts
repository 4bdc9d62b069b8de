import { describe, expect, it } from 'vitest'
import { defineTool } from 'result-views'
import { compareContracts, compareSchemas, contractLock } from 'result-views/contracts'

const deep = (depth: number, leaf: Record<string, unknown>): Record<string, unknown> => {
  let schema = leaf
  for (let i = 0; i < depth; i++) schema = { type: 'object', properties: { x: schema } }
  return schema
}

describe('compareSchemas: patterns that could backtrack exponentially are never run', () => {
  it('pattern-properties-backtracking-hangs-check: ^(a*)*$ against a 41-character name answers unproven at once', () => {
    const name = 'a'.repeat(40) + '!'
    const result = compareSchemas(
      { type: 'object', patternProperties: { '^(a*)*$': { type: 'string' } } },
      { type: 'object', properties: { [name]: { type: 'number' } } },
      'output',
    )
    expect(result.verdict).toBe('unproven')
    expect(result.reasons).toEqual([expect.objectContaining({ kind: 'unproven', code: 'unsafe_pattern', old_path: '/patternProperties/^(a*)*$', new_path: '' })])
  })

  it('refuses an unsafe pattern on either side, as a pattern keyword too, at its pointer', () => {
    const before = { type: 'object', properties: { id: { type: 'string', pattern: '^(a|a)+$' } } }
    const after = { type: 'object', properties: { id: { enum: ['a'.repeat(40) + '!'] } } }
    expect(compareSchemas(before, after, 'output').reasons.map((r) => [r.code, r.old_path])).toEqual([['unsafe_pattern', '/properties/id/pattern']])
    expect(compareSchemas(after, before, 'input').reasons.map((r) => [r.code, r.new_path])).toEqual([['unsafe_pattern', '/properties/id/pattern']])
  })

  it('still proves schemas with safe patterns (the check does not refuse every quantifier)', () => {
    const before = { type: 'object', patternProperties: { '^x-(?:[a-z]+)$': { type: 'string' } } }
    const after = (type: string) => ({ type: 'object', properties: { 'x-trace': { type } }, additionalProperties: false })
    expect(compareSchemas(before, after('number'), 'output')).toMatchObject({ verdict: 'breaking', reasons: [{ code: 'type_widened' }] })
    expect(compareSchemas(before, after('string'), 'output').verdict).toBe('compatible')
  })
})

describe('which patterns count as unsafe', () => {
  // Not identical (a description apart): identical schemas are compatible without a proof.
  const codes = (pattern: string) => compareSchemas({ type: 'string', pattern }, { type: 'string', pattern, description: 'd' }, 'output').reasons.map((r) => r.code)
  it.each(['(a*)*', '(a+)+$', '^(\\w+\\s?)*$', '(a|aa)*', '(?:x|y){2,}', '(?<n>a+){1,5}', '((a)+)+', '(a)\\1', '\\k<n>(?<n>a)', '(a+){99999999999999999999999999999999999999999}'])('%s is unsafe', (pattern) => {
    expect(codes(pattern)).toEqual(['unsafe_pattern', 'unsafe_pattern'])
  })
  it.each(['^[a-z]+$', '(?:ab)*', '^\\d{3}-\\d{4}$', '(a+)?', '(a|b)', '[(|*]+', '\\(a+\\)*', '(?=a+)b', '(?:a){2,}', '\\u{1F600}+', '\\p{L}+'])('%s is safe', (pattern) => {
    expect(codes(pattern)).toEqual([])
  })
})

describe('compareSchemas and compareContracts: deep schemas', () => {
  it('compare-contracts-throws-on-deep-output: a 1,000-deep output whose leaf changed is unproven (too_deep), not a throw', () => {
    const mk = (leaf: Record<string, unknown>) => defineTool({ id: 't', description: 'd', input: { type: 'object' }, output: deep(1000, leaf), handler: () => ({}) })
    const comparison = compareContracts(contractLock([mk({ type: 'string' })]), [mk({ type: 'number' })])
    const schemas = comparison.tools[0]!.schemas
    expect(schemas.map((s) => s.verdict)).toEqual(['unproven'])
    expect(schemas[0]!.reasons.map((r) => r.code)).toEqual(['too_deep'])
    expect(comparison.breaking).toBe(true)
  })

  it('answers too_deep for 2,000 levels on both roles', () => {
    for (const role of ['input', 'output'] as const) {
      const result = compareSchemas(deep(2000, { type: 'string' }), deep(2000, { type: 'number' }), role)
      expect([result.verdict, result.reasons.map((r) => r.code)]).toEqual(['unproven', ['too_deep']])
    }
  })
})
