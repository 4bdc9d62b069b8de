// Regression: the `_set` tool's input schema told the model the tool "need not be registered yet",
// but a tool_id the dispatcher does not have is refused with tool_not_found.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, defineApprovalTools, defineTool, type Dispatcher } from 'result-views'

describe('02-approvals-set-description-need-not-be-registered', () => {
  it('the tool_id description says what happens to an unregistered tool, and that is what happens', async () => {
    const tool = defineTool({ id: 'x__w', description: 'x', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })
    let d: Dispatcher | undefined
    d = createDispatcher({ tools: [tool, ...defineApprovalTools({ approvals: () => d!.approvals, setApproval: 'none' })], approvals: createMemoryApprovalStores() })
    const schema = d.describe('compozy__tool_approvals_set')?.input_schema as { properties: { tool_id: { description: string } } }
    const description = schema.properties.tool_id.description
    expect(description).not.toMatch(/need not be registered/)
    expect(description).toContain('tool_not_found')
    const outcome = await d.invoke({ tool_id: 'compozy__tool_approvals_set', input: { tool_id: 'x__later', decision: 'allow', scope: 'tool' }, scope: { workspace_id: 'w' } })
    expect(outcome.status === 'error' && outcome.error.code).toBe('tool_not_found')
    expect(await d.approvals.listGrants({ workspace_id: 'w' })).toEqual([])
  })
})
