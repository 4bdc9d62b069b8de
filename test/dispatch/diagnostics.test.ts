import { describe, expect, it } from 'vitest'
import { createDispatcher, createPatternPolicy, describeTool, intersectPolicies, type ToolPolicy } from 'result-views'
import { noteTool, skillTool } from '../support/tools.js'

const SCOPE = { workspace_id: 'ws-1', session_id: 'sess-1', agent_name: 'reviewer' }

describe('scoped diagnostics (spec 001 "Scoped diagnostics")', () => {
  it('says a tool is callable, with its descriptor', async () => {
    const tools = [noteTool(), skillTool()]
    const dispatcher = createDispatcher({ tools })
    expect(await dispatcher.describe('notes__read', SCOPE)).toEqual({
      tool_id: 'notes__read',
      descriptor: describeTool(tools[0]!),
      diagnostics: { scope: SCOPE, callable: true, status: 'callable' },
    })
  })

  it('names the policy owner that denies a tool, and a tool that needs approval', async () => {
    const agent = createPatternPolicy({ owner: 'agent:reviewer', tools: ['notes__*'], approval: 'always' })
    const session = createPatternPolicy({ owner: 'session:sess-1', tools: ['*'], deny_tools: ['skills__view'] })
    const dispatcher = createDispatcher({ tools: [noteTool(), skillTool()], policy: intersectPolicies([session, agent]) })
    const [notes, skills] = await dispatcher.list(SCOPE)
    expect(notes!.diagnostics).toMatchObject({ callable: false, status: 'approval_required', policy_owner: 'agent:reviewer' })
    expect(skills!.diagnostics).toMatchObject({ callable: false, status: 'denied', policy_owner: 'session:sess-1' })
    expect(skills!.diagnostics.reason).toEqual(expect.any(String))
  })

  it('answers unknown tools as data, and fails closed for a failing policy', async () => {
    const broken: ToolPolicy = { decide: () => { throw new Error('policy db down') } }
    const dispatcher = createDispatcher({ tools: [noteTool()], policy: broken })
    expect(await dispatcher.describe('nope', SCOPE)).toEqual({ tool_id: 'nope', diagnostics: { scope: SCOPE, callable: false, status: 'unknown_tool' } })
    expect((await dispatcher.describe('notes__read', SCOPE)).diagnostics).toMatchObject({ callable: false, status: 'policy_failed', reason: 'policy_failed' })
  })

  it('keeps the unscoped describe and list synchronous descriptors', () => {
    const dispatcher = createDispatcher({ tools: [noteTool()] })
    expect(dispatcher.describe('notes__read')!.tool_id).toBe('notes__read')
    expect(dispatcher.list().map((d) => d.tool_id)).toEqual(['notes__read'])
  })

  it('rejects a malformed scope with request_invalid', async () => {
    const dispatcher = createDispatcher({ tools: [noteTool()] })
    await expect(dispatcher.describe('notes__read', { workspace_id: 7 } as never)).rejects.toMatchObject({ code: 'tool_invalid_input', reason: 'request_invalid' })
  })
})
