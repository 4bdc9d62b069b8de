// The call owns its input: what runs, what events show and what the caller keeps never share a
// mutable object, and the caller's object is read once.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { errorOf } from '../support/outcomes.js'

function pathTool(seen: unknown[]) {
  return defineTool({
    id: 'fs__touch',
    description: 'd',
    input: Type.Object({ target: Type.Object({ path: Type.String({ pattern: '^/tmp/' }) }) }, { additionalProperties: false }),
    output: Type.Object({ ok: Type.Boolean() }),
    handler: (input) => {
      seen.push(JSON.parse(JSON.stringify(input)))
      ;(input.target as { path: string }).path = '/changed-by-handler'
      return { ok: true }
    },
  })
}

describe('the call owns its input (check-then-use)', () => {
  it('a caller changing its nested input after invoke never changes what runs', async () => {
    const seen: unknown[] = []
    const dispatcher = createDispatcher({ tools: [pathTool(seen)], hooks: { 'tool.pre_call': async () => undefined } })
    const input = { target: { path: '/tmp/safe' } }
    const pending = dispatcher.invoke({ tool_id: 'fs__touch', input })
    input.target.path = '/etc/passwd'
    expect((await pending).status).toBe('ok')
    expect(seen).toEqual([{ target: { path: '/tmp/safe' } }])
  })

  it('a handler changing its input never reaches the caller or the post_call event', async () => {
    const seen: unknown[] = []
    const events: unknown[] = []
    const dispatcher = createDispatcher({ tools: [pathTool(seen)], hooks: { 'tool.post_call': (p) => void events.push(p.tool_input) } })
    const input = { target: { path: '/tmp/safe' } }
    await dispatcher.invoke({ tool_id: 'fs__touch', input })
    expect(input).toEqual({ target: { path: '/tmp/safe' } })
    expect(events).toEqual([{ target: { path: '/tmp/safe' } }])
  })

  it('reports throwing getters and Proxies in the request or the input as typed errors', async () => {
    const dispatcher = createDispatcher({ tools: [pathTool([])] })
    const boom = () => {
      throw new Error('boom')
    }
    const requests = [
      { tool_id: 'fs__touch', input: { get target() { return boom() } } },
      { tool_id: 'fs__touch', input: new Proxy({}, { ownKeys: boom }) },
      { tool_id: 'fs__touch', input: {}, get scope() { return boom() } },
      new Proxy({}, { get: boom }),
    ]
    for (const request of requests) {
      const error = errorOf(await dispatcher.invoke(request as never))
      expect(['non_json_input', 'request_invalid']).toContain(error.reason)
    }
  })
})

describe('post_error shows the input the call checked', () => {
  it('never reads the caller object a second time', async () => {
    let reads = 0
    const sent = {
      get n() {
        return ++reads === 1 ? 'not-an-integer' : 7
      },
    }
    const events: unknown[] = []
    const dispatcher = createDispatcher({
      tools: [defineTool({ id: 'n', description: 'd', input: Type.Object({ n: Type.Integer() }), output: Type.Object({}), handler: () => ({}) })],
      hooks: { 'tool.post_error': (payload) => void events.push(payload.tool_input) },
    })
    expect(errorOf(await dispatcher.invoke({ tool_id: 'n', input: sent })).message).toContain('wrong type at "/n": must be integer')
    expect(events).toEqual([{ n: 'not-an-integer' }])
    expect(reads).toBe(1)
  })

  const tools = () => [
    defineTool({ id: 'v', description: 'd', input: Type.Object({ secret: Type.Optional(Type.String()) }), output: { compact: Type.Object({}), full: Type.Object({}) }, handler: () => ({}) }),
  ]

  it('post_error carries the selected view when the view rules passed and the schema failed', async () => {
    const events: unknown[] = []
    const dispatcher = createDispatcher({ tools: tools(), hooks: { 'tool.post_error': (payload) => void events.push(payload.result_view) } })
    await dispatcher.invoke({ tool_id: 'v', input: { secret: 5, result_view: 'full' } })
    await dispatcher.invoke({ tool_id: 'v', input: { result_view: 'huge' } })
    expect(events).toEqual(['full', undefined])
  })
})
