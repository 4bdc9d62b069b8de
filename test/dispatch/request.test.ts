// The invoke request itself: the fields that select, scope or pin a call, checked before the tool runs.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { errorOf } from '../support/outcomes.js'

describe('request fields that select, scope or pin', () => {

  const tools = () => [
    defineTool({ id: 'v', description: 'd', input: Type.Object({ secret: Type.Optional(Type.String()) }), output: { compact: Type.Object({}), full: Type.Object({}) }, handler: () => ({}) }),
    defineTool({ id: 's', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) }),
  ]

  it('refuses a scope that is not a plain object of known string fields, never reading through a prototype', async () => {
    const dispatcher = createDispatcher({ tools: tools() })
    for (const scope of [Object.create({ workspace_id: 'inherited' }), new Date(0), new Map(), [], { workspace_id: 'ws', workspaceId: 'typo' }, { session_id: 7 }]) {
      const error = errorOf(await dispatcher.invoke({ tool_id: 's', input: {}, scope }))
      expect([error.code, error.reason]).toEqual(['tool_invalid_input', 'request_invalid'])
    }
    expect(errorOf(await dispatcher.invoke({ tool_id: 's', input: {}, scope: { workspaceId: 'typo' } as never })).message).toContain('unknown field "workspaceId"')
    await expect(dispatcher.describe('s', Object.create({ workspace_id: 'inherited' }))).rejects.toMatchObject({ reason: 'request_invalid' })
    expect((await dispatcher.invoke({ tool_id: 's', input: {}, scope: Object.assign(Object.create(null), { workspace_id: 'ws' }) })).status).toBe('ok')
  })

  it('refuses a pinned view on a tool without views', async () => {
    const dispatcher = createDispatcher({ tools: tools() })
    const error = errorOf(await dispatcher.invoke({ tool_id: 's', input: {}, pinned_result_view: 'full' }))
    expect([error.reason, error.message]).toEqual(['request_invalid', 'invalid invoke request: pinned_result_view applies only to tools with result views; "s" has a single result'])
  })
})
