// Regression (finding 10-defineApprovalTools-unknown-option-ignored): defineApprovalTools silently
// ignored unknown or misspelt options (`prefx`, `setApprovals`, `toolSets`), so a caller's
// `setApprovals: 'none'` kept the default unnoticed.
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineApprovalTools } from 'result-views'
import { definitionError } from './fixtures.js'

describe('10-defineApprovalTools-unknown-option-ignored', () => {
  const approvals = createDispatcher({ tools: [] }).approvals

  it('refuses every unknown key with unknown_option at its pointer, naming the likely option', () => {
    const error = definitionError({ approvals, prefx: 'ops__', setApprovals: 'none', toolSets: ['admin'], revoke_approval: 'none' })
    expect(error.code).toBe('tool_definition_invalid')
    expect(error.problems).toEqual([
      { path: '/prefx', code: 'unknown_option', message: 'unknown option "prefx"; did you mean "prefix"?' },
      { path: '/setApprovals', code: 'unknown_option', message: 'unknown option "setApprovals"; did you mean "setApproval"?' },
      { path: '/toolSets', code: 'unknown_option', message: 'unknown option "toolSets"; did you mean "toolsets"?' },
      { path: '/revoke_approval', code: 'unknown_option', message: 'unknown option "revoke_approval"; did you mean "revokeApproval"?' },
    ])
  })

  it('escapes the key in the pointer, lists the known options when none is near, and bounds hostile keys', () => {
    expect(definitionError({ approvals, 'a/b~c': 1 }).problems).toEqual([
      { path: '/a~1b~0c', code: 'unknown_option', message: 'unknown option "a/b~c" (known: approvals, prefix, setApproval, revokeApproval, toolsets)' },
    ])
    const long = 'x'.repeat(10_000)
    const [problem] = definitionError({ approvals, [long]: 1 }).problems
    expect(problem!.message.length).toBeLessThan(300)
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]))
    const problems = definitionError({ approvals, ...many }).problems
    expect(problems).toHaveLength(21)
    expect(problems[20]).toEqual({ path: '', code: 'unknown_option', message: '30 more unknown options' })
  })

  it('a __proto__ own key is refused too; the known options still work', () => {
    const options = JSON.parse('{"__proto__": {"setApproval": "none"}}') as Record<string, unknown>
    options.approvals = approvals
    expect(definitionError(options).problems.map((p) => [p.path, p.code])).toEqual([['/__proto__', 'unknown_option']])
    expect(defineApprovalTools({ approvals, prefix: 'ops__', setApproval: 'none', revokeApproval: 'none', toolsets: ['admin'] }).map((tool) => tool.approval)).toEqual(['none', 'none', 'none'])
  })
})
