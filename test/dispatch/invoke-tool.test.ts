// invokeTool at run time: the same call as invoke, the view pinned, the tool object checked.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDispatcher, invokeTool, isUsageError, type InvokeOutcome, type PostErrorPayload, type Tool } from 'result-views'
import { errorOf, thrownOrRejected } from '../support/outcomes.js'
import { extensionTool, noteTool, skillTool } from '../support/tools.js'

function setup() {
  const calls = { note: [] as unknown[], skill: [] as unknown[], ext: [] as unknown[] }
  const notes = noteTool(calls.note)
  const skills = skillTool(calls.skill)
  const ext = extensionTool(calls.ext)
  const dispatcher = createDispatcher({ tools: [notes, skills, ext] })
  const errors: PostErrorPayload[] = []
  dispatcher.hook('tool.post_error', (payload) => void errors.push(payload))
  return { dispatcher, notes, skills, ext, calls, errors }
}

/** An outcome without its tool_call_id (generated per call), for comparing two calls. */
function withoutCallId(outcome: InvokeOutcome): unknown {
  if (outcome.status === 'error') return { status: 'error', code: outcome.error.code, reason: outcome.error.reason, message: outcome.error.message }
  const { tool_call_id: _, ...rest } = outcome
  return rest
}

describe('invokeTool: the call', () => {
  it('returns the compact record by default and the full record for "full", like invoke', async () => {
    const { dispatcher, notes, calls } = setup()
    const compact = await invokeTool(dispatcher, notes, { input: { id: 'n1' }, tool_call_id: 'call-1' })
    expect(compact).toEqual({
      status: 'ok',
      tool_call_id: 'call-1',
      result: { structured: { id: 'n1', title: 'Groceries' }, preview: '{"id":"n1","title":"Groceries"}' },
      result_view: 'compact',
    })
    const full = await invokeTool(dispatcher, notes, { input: { id: 'n1', result_view: 'full' } })
    expect(full).toMatchObject({ status: 'ok', result_view: 'full', result: { structured: { id: 'n1', title: 'Groceries', body: 'eggs, milk', tags: ['home'] } } })
    expect(calls.note).toEqual([{ id: 'n1' }, { id: 'n1' }])
  })

  it('runs a single-result tool and an extension tool (whose own result_view input is passed through, never pinned)', async () => {
    const { dispatcher, skills, ext, calls } = setup()
    expect(await invokeTool(dispatcher, skills, { input: { skill_id: 's1' } })).toMatchObject({ status: 'ok', result: { structured: { skill: { id: 's1' } } } })
    const echoed = await invokeTool(dispatcher, ext, { input: { result_view: 7 } })
    expect(echoed).toMatchObject({ status: 'ok', result: { structured: { echoed: 7 } } })
    expect(echoed).not.toHaveProperty('result_view')
    expect(calls.ext).toEqual([{ result_view: 7 }])
  })

  it('reports a caller mistake as invoke does: an input the schema refuses, a selector that is no view', async () => {
    const { dispatcher, notes } = setup()
    expect(errorOf(await invokeTool(dispatcher, notes, { input: { id: 1 } as never }))).toMatchObject({ code: 'tool_invalid_input', reason: 'schema_invalid' })
    expect(errorOf(await invokeTool(dispatcher, notes, { input: { id: 'n1', result_view: 'huge' } as never }))).toMatchObject({
      code: 'tool_invalid_input',
      reason: 'schema_invalid',
      message: 'tool "notes__read" input "result_view" must be one of "compact", "full"',
    })
  })

  it('gives the same outcome as invoke for any input (no hooks that patch)', async () => {
    const { dispatcher, notes, skills } = setup()
    const input = fc.oneof(
      fc.record({ id: fc.oneof(fc.string(), fc.integer()), result_view: fc.constantFrom('compact', 'full', 'huge', 3) }, { requiredKeys: ['id'] }),
      fc.anything(),
    )
    await fc.assert(
      fc.asyncProperty(input, fc.constantFrom<Tool>(notes, skills), async (value, tool) => {
        const typed = await invokeTool(dispatcher, tool, { input: value as Record<string, unknown> })
        const plain = await dispatcher.invoke({ tool_id: tool.id, input: value })
        expect(withoutCallId(typed)).toEqual(withoutCallId(plain))
      }),
      { numRuns: 200 },
    )
  })
})

describe('invokeTool: the selected view is pinned', () => {
  it('denies a pre-call patch that selects "full" on a compact call (result_view_pinned), which invoke lets through', async () => {
    const { dispatcher, notes, calls } = setup()
    dispatcher.hook('tool.pre_call', (payload) => ({ tool_input: { ...(payload.tool_input as object), result_view: 'full' } }))
    const typed = await invokeTool(dispatcher, notes, { input: { id: 'n1' } })
    expect(errorOf(typed)).toMatchObject({ code: 'tool_denied', reason: 'result_view_pinned', message: 'tool "notes__read" result view is pinned to "compact" by the caller' })
    expect(calls.note).toEqual([])
    expect(await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })).toMatchObject({ status: 'ok', result_view: 'full' })
  })

  it('keeps the full view when a pre-call patch drops the selector, and shows the pin to hooks', async () => {
    const { dispatcher, notes } = setup()
    const pins: unknown[] = []
    dispatcher.hook('tool.pre_call', (payload) => {
      pins.push(payload.pinned_result_view)
      return { tool_input: { id: (payload.tool_input as { id: string }).id } }
    })
    const full = await invokeTool(dispatcher, notes, { input: { id: 'n1', result_view: 'full' } })
    expect(full).toMatchObject({ status: 'ok', result_view: 'full', result: { structured: { body: 'eggs, milk' } } })
    expect(pins).toEqual(['full'])
  })

  it("forwards the request's own pinned_result_view: a selection against it is denied", async () => {
    const { dispatcher, notes, calls } = setup()
    const denied = await invokeTool(dispatcher, notes, { input: { id: 'n1', result_view: 'full' }, pinned_result_view: 'compact' })
    expect(errorOf(denied)).toMatchObject({ code: 'tool_denied', reason: 'result_view_pinned' })
    expect(calls.note).toEqual([])
  })
})

describe('invokeTool: the tool must be the one the dispatcher holds', () => {
  it('refuses another tool object under the same ID with tool_not_found / tool_mismatch, running neither and firing no event', async () => {
    const { dispatcher, calls, errors } = setup()
    const lookAlikeCalls: unknown[] = []
    const lookAlike = noteTool(lookAlikeCalls)
    const outcome = await invokeTool(dispatcher, lookAlike, { input: { id: 'n1' }, tool_call_id: 'call-9' })
    expect(outcome.tool_call_id).toBe('call-9')
    expect(errorOf(outcome)).toMatchObject({ code: 'tool_not_found', reason: 'tool_mismatch', message: 'tool "notes__read" is registered as another tool than the one given' })
    expect([calls.note, lookAlikeCalls, errors]).toEqual([[], [], []])
  })

  it('refuses a tool the dispatcher does not have with tool_not_found / unknown_tool', async () => {
    const notes = noteTool()
    const outcome = await invokeTool(createDispatcher({ tools: [skillTool()] }), notes, { input: { id: 'n1' } })
    expect(errorOf(outcome)).toMatchObject({ code: 'tool_not_found', reason: 'unknown_tool', message: 'tool "notes__read" is not registered' })
  })
})

describe('invokeTool: misuse and hostile values', () => {
  it('rejects a dispatcher createDispatcher did not return (a copy, a Proxy) and a hand-made tool, listing both', async () => {
    const { dispatcher, notes } = setup()
    const copy = { ...dispatcher }
    const proxy = new Proxy(dispatcher, {})
    const handMade = { ...notes }
    const throwing = new Proxy(notes, {
      get() {
        throw new Error('trap')
      },
    })
    for (const [d, t, paths] of [
      [copy, notes, ['/dispatcher']],
      [proxy, notes, ['/dispatcher']],
      [dispatcher, handMade, ['/tool']],
      [dispatcher, throwing, ['/tool']],
      [null, null, ['/dispatcher', '/tool']],
    ] as const) {
      const error = (await thrownOrRejected(() => invokeTool(d as never, t as never, { input: { id: 'n1' } }))) as { code: string; problems: Array<{ path: string; code: string }> }
      expect(isUsageError(error)).toBe(true)
      expect(error.code).toBe('invoke_tool_argument_invalid')
      expect(error.problems.map((p) => p.path)).toEqual(paths)
    }
  })

  it('answers a request that is not an object, or whose getter throws, with request_invalid', async () => {
    const { dispatcher, notes, calls } = setup()
    expect(errorOf(await invokeTool(dispatcher, notes, null as never))).toMatchObject({ code: 'tool_invalid_input', reason: 'request_invalid' })
    const hostile = {
      get input(): never {
        throw new Error('getter')
      },
    }
    expect(errorOf(await invokeTool(dispatcher, notes, hostile as never))).toMatchObject({
      code: 'tool_invalid_input',
      reason: 'request_invalid',
      message: 'invalid invoke request: input could not be read (a getter or a Proxy threw)',
    })
    expect(calls.note).toEqual([])
  })

  it('answers an input Proxy that throws as invoke does (non_json_input), never rejecting', async () => {
    const { dispatcher, notes } = setup()
    const input = new Proxy(
      { id: 'n1' },
      {
        getOwnPropertyDescriptor() {
          throw new Error('trap')
        },
        get() {
          throw new Error('trap')
        },
      },
    )
    const outcome = await invokeTool(dispatcher, notes, { input })
    expect(outcome.status).toBe('error')
    expect(withoutCallId(outcome)).toEqual(withoutCallId(await dispatcher.invoke({ tool_id: 'notes__read', input })))
  })

  it('takes __proto__ and constructor keys of a JSON-parsed request as data', async () => {
    const { dispatcher, notes } = setup()
    const request = JSON.parse('{"input":{"id":"n1","__proto__":{"result_view":"full"}},"__proto__":{"pinned_result_view":"full"}}')
    // A top-level `__proto__` key is an unknown field on both paths (never a prototype, never ignored).
    for (const outcome of [await invokeTool(dispatcher, notes, request), await dispatcher.invoke({ ...request, tool_id: 'notes__read' })]) {
      expect(errorOf(outcome)).toMatchObject({ code: 'tool_invalid_input', reason: 'request_invalid', message: expect.stringContaining('unknown field "__proto__"') })
    }
  })
})
