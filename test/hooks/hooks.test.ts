import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, isToolError, type InvokeOutcome, type PostCallPayload, type PostErrorPayload, type PreCallPayload } from 'result-views'
import { noteTool, skillTool } from '../support/tools.js'

function setup() {
  const calls = { note: [] as unknown[], skill: [] as unknown[] }
  const dispatcher = createDispatcher({ tools: [noteTool(calls.note), skillTool(calls.skill)] })
  const events: Array<PreCallPayload | PostCallPayload | PostErrorPayload> = []
  dispatcher.hook('tool.pre_call', (p) => void events.push(p))
  dispatcher.hook('tool.post_call', (p) => void events.push(p))
  dispatcher.hook('tool.post_error', (p) => void events.push(p))
  return { dispatcher, calls, events }
}

const errorOf = (outcome: InvokeOutcome) => {
  if (outcome.status !== 'error') throw new Error(`expected an error, got ${JSON.stringify(outcome)}`)
  return outcome.error
}

describe('hook payloads (spec 000 "Hooks")', () => {
  it('tool.post_call says which view the result holds, with the envelope under tool_result', async () => {
    const { dispatcher, events } = setup()
    await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' }, tool_call_id: 'call-31', scope: { workspace_id: 'ws' } })
    expect(events).toEqual([
      { event: 'tool.pre_call', tool_id: 'notes__read', tool_call_id: 'call-31', scope: { workspace_id: 'ws' }, has_result_views: true, tool_input: { id: 'n1' }, result_view: 'compact' },
      {
        event: 'tool.post_call',
        tool_id: 'notes__read',
        tool_call_id: 'call-31',
        scope: { workspace_id: 'ws' },
        has_result_views: true,
        tool_input: { id: 'n1' },
        result_view: 'compact',
        tool_result: { structured: { id: 'n1', title: 'Groceries' }, preview: '{"id":"n1","title":"Groceries"}' },
      },
    ])
  })

  it('omits has_result_views and result_view for tools without views', async () => {
    const { dispatcher, events } = setup()
    await dispatcher.invoke({ tool_id: 'skills__view', input: { skill_id: 's' } })
    for (const event of events) {
      expect(event).not.toHaveProperty('has_result_views')
      expect(event).not.toHaveProperty('result_view')
    }
    expect(events.map((e) => e.event)).toEqual(['tool.pre_call', 'tool.post_call'])
  })

  it('tool.post_error carries the typed error and the tool reference', async () => {
    const { dispatcher, events } = setup()
    await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1', result_view: 'huge' } })
    expect(events).toEqual([
      expect.objectContaining({
        event: 'tool.post_error',
        has_result_views: true,
        tool_input: { id: 'n1', result_view: 'huge' },
        error: { code: 'tool_invalid_input', reason: 'schema_invalid', message: 'tool "notes__read" input "result_view" must be one of "compact", "full"', details: expect.anything() },
      }),
    ])
  })

  it('carries pinned_result_view on calls made by a Loop node', async () => {
    const { dispatcher, events } = setup()
    await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1', result_view: 'full' }, pinned_result_view: 'full' })
    expect(events.map((e) => [e.event, e.pinned_result_view, e.result_view])).toEqual([
      ['tool.pre_call', 'full', 'full'],
      ['tool.post_call', 'full', 'full'],
    ])
  })

  it('gives hooks frozen payloads, so a hook cannot change the call by mutation', async () => {
    const { dispatcher, calls } = setup()
    dispatcher.hook('tool.pre_call', (p) => {
      expect(Object.isFrozen(p)).toBe(true)
      expect(() => ((p.tool_input as Record<string, unknown>).id = 'other')).toThrow(TypeError)
    })
    expect((await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })).status).toBe('ok')
    expect(calls.note).toEqual([{ id: 'n1' }])
  })
})

describe('pre-call patches and denials', () => {
  it('a patch selecting the full record makes the calling agent receive the full record too', async () => {
    const { dispatcher, events } = setup()
    dispatcher.hook('tool.pre_call', (p) => (p.has_result_views ? { tool_input: { ...(p.tool_input as object), result_view: 'full' } } : undefined))
    const outcome = await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })
    expect(outcome).toMatchObject({ status: 'ok', result_view: 'full', result: { structured: { body: 'eggs, milk' } } })
    const post = events.find((e) => e.event === 'tool.post_call') as PostCallPayload
    expect(post.result_view).toBe('full')
    expect(post.tool_result.structured).toEqual((outcome as { result: { structured: unknown } }).result.structured)
  })

  it('the same patch on a tool without views fails with the single-result error; the tool does not run', async () => {
    const { dispatcher, calls } = setup()
    dispatcher.hook('tool.pre_call', (p) => ({ tool_input: { ...(p.tool_input as object), result_view: 'full' } }))
    const error = errorOf(await dispatcher.invoke({ tool_id: 'skills__view', input: { skill_id: 's' } }))
    expect([error.code, error.reason, error.message]).toEqual(['tool_invalid_input', 'schema_invalid', 'tool "skills__view" returns a single result and does not accept "result_view"'])
    expect(calls.skill).toEqual([])
  })

  it('a patch changing a pinned view fails with tool_denied / result_view_pinned and the exact message', async () => {
    const { dispatcher, calls, events } = setup()
    dispatcher.hook('tool.pre_call', (p) => ({ tool_input: { ...(p.tool_input as object), result_view: 'full' } }))
    const outcome = await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' }, pinned_result_view: 'compact' })
    const error = errorOf(outcome)
    expect([error.code, error.reason, error.message]).toEqual(['tool_denied', 'result_view_pinned', 'tool "notes__read" result view is pinned to "compact" by the caller'])
    expect(calls.note).toEqual([])
    expect(events.at(-1)).toMatchObject({ event: 'tool.post_error', pinned_result_view: 'compact', error: { reason: 'result_view_pinned' } })
  })

  it('a patch that keeps the pinned view is allowed', async () => {
    const { dispatcher } = setup()
    dispatcher.hook('tool.pre_call', (p) => ({ tool_input: { ...(p.tool_input as object), result_view: 'full' } }))
    expect(await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' }, pinned_result_view: 'full' })).toMatchObject({ status: 'ok', result_view: 'full' })
  })

  it('validates a patched input again', async () => {
    const { dispatcher, calls } = setup()
    dispatcher.hook('tool.pre_call', () => ({ tool_input: { id: 42 } }))
    const error = errorOf(await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } }))
    expect([error.code, error.reason]).toEqual(['tool_invalid_input', 'schema_invalid'])
    expect(error.details!.issues).toEqual([expect.objectContaining({ instancePath: '/id' })])
    expect(calls.note).toEqual([])
  })

  it('runs pre-call handlers in order as a pipeline, each seeing the previous patch', async () => {
    const { dispatcher, calls } = setup()
    const seen: unknown[] = []
    dispatcher.hook('tool.pre_call', () => ({ tool_input: { id: 'first' } }))
    dispatcher.hook('tool.pre_call', (p) => {
      seen.push(p.tool_input)
      return { tool_input: { id: 'second' } }
    })
    await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })
    expect(seen).toEqual([{ id: 'first' }])
    expect(calls.note).toEqual([{ id: 'second' }])
  })

  it('denies with tool_denied / hook_denied and the reason', async () => {
    const { dispatcher, calls } = setup()
    dispatcher.hook('tool.pre_call', () => ({ deny: true, deny_reason: 'outside business hours' }))
    const error = errorOf(await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } }))
    expect([error.code, error.reason, error.message]).toEqual(['tool_denied', 'hook_denied', 'tool "notes__read" invocation denied by a pre-call hook: outside business hours'])
    expect(error.forSurface('http').message).toBe('tool invocation denied')
    expect(calls.note).toEqual([])
  })

  it.each([
    ['another tool ID', { tool_id: 'skills__view', tool_input: { id: 'n1' } }, 'cannot change the tool ID'],
    ['another scope', { scope: { workspace_id: 'other' }, tool_input: { id: 'n1' } }, "cannot change the call's scope"],
    ['no tool_input', { input: { id: 'x' } }, 'must carry the whole new tool_input'],
    ['a non-JSON input', { tool_input: { id: 'n1', at: new Date(0) } }, 'not plain JSON at "/at"'],
    ['a string', 'full', 'must return nothing'],
  ])('fails the call when a hook returns %s', async (_name, patch, message) => {
    const { dispatcher, calls } = setup()
    dispatcher.hook('tool.pre_call', () => patch as never)
    const error = errorOf(await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' }, scope: { workspace_id: 'ws' } }))
    expect([error.code, error.reason]).toEqual(['tool_hook_failed', 'hook_patch_invalid'])
    expect(error.message).toContain(message)
    expect(calls.note).toEqual([])
  })

  it('a patch repeating the same tool ID and scope is fine', async () => {
    const { dispatcher, calls } = setup()
    dispatcher.hook('tool.pre_call', (p) => ({ tool_id: p.tool_id, scope: p.scope, tool_input: { id: 'patched' } }) as never)
    expect((await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' }, scope: { workspace_id: 'ws' } })).status).toBe('ok')
    expect(calls.note).toEqual([{ id: 'patched' }])
  })

  it('a throwing pre-call hook fails the call closed and is logged', async () => {
    const logged: unknown[] = []
    const logger = { debug: () => {}, info: () => {}, warn: () => {}, error: (fields: unknown, message: string) => void logged.push([fields, message]) }
    const calls: unknown[] = []
    const dispatcher = createDispatcher({ tools: [noteTool(calls)], logger, hooks: { 'tool.pre_call': () => Promise.reject(new Error('hook down')) } })
    const error = errorOf(await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } }))
    expect([error.code, error.reason, error.message]).toEqual(['tool_hook_failed', 'hook_threw', 'tool "notes__read" pre-call hook failed: hook down'])
    expect(calls).toEqual([])
    // The hook's own line, then the failed call's (tool.call_failed, `docs/hooks.md` "Logging").
    expect(logged.map((line) => ((line as [{ event: string }])[0]).event)).toEqual(['tool.pre_call', 'tool.call_failed'])
  })

  it('a throwing post-call observer is logged and the result is kept', async () => {
    const logged: unknown[] = []
    const logger = { debug: () => {}, info: () => {}, warn: () => {}, error: (fields: unknown) => void logged.push(fields) }
    const dispatcher = createDispatcher({
      tools: [noteTool()],
      logger,
      hooks: { 'tool.post_call': [() => { throw new Error('observer down') }], 'tool.post_error': () => { throw new Error('also down') } },
    })
    expect(await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })).toMatchObject({ status: 'ok' })
    expect(errorOf(await dispatcher.invoke({ tool_id: 'notes__read', input: {} })).reason).toBe('schema_invalid')
    expect(logged).toEqual([expect.objectContaining({ event: 'tool.post_call' }), expect.objectContaining({ event: 'tool.post_error' })])
  })

  it('unregisters a handler; unregistering twice is harmless', async () => {
    const { dispatcher, calls } = setup()
    const off = dispatcher.hook('tool.pre_call', () => ({ deny: true }))
    off()
    off()
    expect((await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })).status).toBe('ok')
    expect(calls.note).toHaveLength(1)
  })

  it('refuses unknown events and non-function handlers with a typed error', () => {
    const { dispatcher } = setup()
    expect(() => dispatcher.hook('tool.pre' as never, (() => {}) as never)).toThrow(expect.objectContaining({ code: 'hook_registration_invalid' }))
    expect(() => dispatcher.hook('tool.pre_call', 'x' as never)).toThrow(expect.objectContaining({ code: 'hook_registration_invalid' }))
  })

  it('keeps isToolError true for errors returned from hooks', async () => {
    const dispatcher = createDispatcher({
      tools: [defineTool({ id: 't', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })],
      hooks: { 'tool.pre_call': () => ({ deny: true }) },
    })
    expect(isToolError(errorOf(await dispatcher.invoke({ tool_id: 't', input: {} })))).toBe(true)
  })
})
