// Hung code never hangs a call: the handler's time budget, the caller's signal, and deadlines
// judged by the clock when an answer settles (`docs/views.md` "Time budgets and cancellation").
import { getEventListeners } from 'node:events'
import Type from 'typebox'
import { describe, expect, it, vi } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, defineTool, isDispatcherOptionsError, isUsageError, type ToolContext } from 'result-views'
import { errorOf, thrown } from '../support/outcomes.js'

const NEVER = new Promise<never>(() => undefined)

function hungTool(seen: ToolContext[] = [], handlerTimeoutMs?: number) {
  return defineTool({
    id: 'slow__wait',
    description: 'Waits forever.',
    input: Type.Object({}),
    output: Type.Object({ done: Type.Boolean() }),
    ...(handlerTimeoutMs === undefined ? {} : { handlerTimeoutMs }),
    handler: (_input, context) => {
      seen.push(context)
      return NEVER
    },
  })
}

/** Blocks the event loop for `ms` milliseconds (no timer can fire meanwhile). */
function blockFor(ms: number): void {
  const end = performance.now() + ms
  while (performance.now() < end) {
    // busy
  }
}

describe('a handler that never settles', () => {
  it('fails with tool_execution_failed / handler_timeout past handlerTimeoutMs, fires tool.post_error and aborts context.signal', async () => {
    const seen: ToolContext[] = []
    const errors: unknown[] = []
    const dispatcher = createDispatcher({ tools: [hungTool(seen)], handlerTimeoutMs: 30, hooks: { 'tool.post_error': (payload) => void errors.push(payload.error) } })
    const error = errorOf(await dispatcher.invoke({ tool_id: 'slow__wait', input: {} }))
    expect([error.code, error.reason, error.message, error.details]).toEqual(['tool_execution_failed', 'handler_timeout', 'tool "slow__wait" did not finish within 30 ms', { timeout_ms: 30 }])
    expect(errors).toEqual([expect.objectContaining({ code: 'tool_execution_failed', reason: 'handler_timeout' })])
    expect(seen[0]!.signal.aborted).toBe(true)
    expect(seen[0]!.signal.reason).toBe(error)
  })

  it("uses the tool's own handlerTimeoutMs over the dispatcher's", async () => {
    const dispatcher = createDispatcher({ tools: [hungTool([], 20)], handlerTimeoutMs: 600_000 })
    expect(errorOf(await dispatcher.invoke({ tool_id: 'slow__wait', input: {} })).message).toBe('tool "slow__wait" did not finish within 20 ms')
  })

  it('a synchronous handler that runs past its budget is late and refused (judged by the clock, not a timer)', async () => {
    const dispatcher = createDispatcher({
      tools: [defineTool({ id: 'busy', description: 'd', input: Type.Object({}), output: Type.Object({}), handlerTimeoutMs: 20, handler: () => (blockFor(60), {}) })],
    })
    expect(errorOf(await dispatcher.invoke({ tool_id: 'busy', input: {} })).reason).toBe('handler_timeout')
  })

  it('an async handler that settles at once arms no budget timer; one still pending after a few turns does', async () => {
    const budgetTimers = (): number => setTimeoutSpy.mock.calls.filter(([, delay]) => delay === 45_000).length
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout')
    try {
      const tool = (id: string, handler: () => Promise<object>) => defineTool({ id, description: 'd', input: Type.Object({}), output: Type.Object({}), handler })
      const dispatcher = createDispatcher({
        handlerTimeoutMs: 45_000,
        tools: [
          tool('at_once', async () => ({})),
          tool('few_awaits', async () => (await Promise.resolve(), {})),
          tool('waits', () => new Promise((resolve) => setImmediate(() => resolve({})))),
        ],
      })
      expect((await dispatcher.invoke({ tool_id: 'at_once', input: {} })).status).toBe('ok')
      expect((await dispatcher.invoke({ tool_id: 'few_awaits', input: {} })).status).toBe('ok')
      expect(budgetTimers()).toBe(0)
      expect((await dispatcher.invoke({ tool_id: 'waits', input: {} })).status).toBe('ok')
      expect(budgetTimers()).toBe(1)
    } finally {
      setTimeoutSpy.mockRestore()
    }
  })

  it('an async handler that hangs after a few settled awaits still times out (the timer is armed late, the deadline is not)', async () => {
    const dispatcher = createDispatcher({
      tools: [
        defineTool({
          id: 'late_hang',
          description: 'd',
          input: Type.Object({}),
          output: Type.Object({}),
          handlerTimeoutMs: 25,
          handler: async () => {
            for (let i = 0; i < 10; i++) await Promise.resolve()
            return NEVER
          },
        }),
      ],
    })
    const started = performance.now()
    expect(errorOf(await dispatcher.invoke({ tool_id: 'late_hang', input: {} })).reason).toBe('handler_timeout')
    expect(performance.now() - started).toBeGreaterThanOrEqual(20)
  })

  it('approvals.resolve (which waits) answers with the handler_timeout outcome instead of hanging', async () => {
    const stores = createMemoryApprovalStores()
    const tool = defineTool({ id: 'ops__hang', description: 'd', approval: 'required', input: Type.Object({}), output: Type.Object({}), handler: () => NEVER })
    const dispatcher = createDispatcher({ tools: [tool], handlerTimeoutMs: 30, approvals: stores })
    const pending = await dispatcher.invoke({ tool_id: 'ops__hang', input: {}, scope: { workspace_id: 'w', profile_id: 'p' } })
    expect(pending.status).toBe('approval_pending')
    const view = await dispatcher.approvals.resolve((pending as { approval_id: string }).approval_id, { profile_id: 'p', decision: 'approved' })
    expect([view.status, view.execution_status]).toEqual(['approved', 'failed'])
    expect(view.outcome).toMatchObject({ status: 'error', error: { code: 'tool_execution_failed', reason: 'handler_timeout' } })
  })

  it('refuses a handlerTimeoutMs that is not a positive number of milliseconds (createDispatcher and defineTool)', () => {
    for (const bad of [0, -1, Number.NaN, 2 ** 31, '60000']) {
      const fromDispatcher = thrown(() => createDispatcher({ tools: [], handlerTimeoutMs: bad as number }))
      expect(isDispatcherOptionsError(fromDispatcher) && fromDispatcher.problems).toEqual([
        { path: '/handlerTimeoutMs', code: 'invalid_option', message: 'handlerTimeoutMs must be a positive number of milliseconds up to 2147483647, or Infinity' },
      ])
      const fromTool = thrown(() => hungTool([], bad as number))
      expect(isUsageError(fromTool) && fromTool.problems.map((p) => [p.path, p.code])).toEqual([['/handlerTimeoutMs', 'invalid_timeout']])
    }
    expect(() => createDispatcher({ tools: [], handlerTimeoutMs: Infinity })).not.toThrow()
  })
})

describe('InvokeRequest.signal cancels the call', () => {
  it('an already aborted signal settles at once with call_aborted; the handler never runs', async () => {
    const seen: ToolContext[] = []
    const dispatcher = createDispatcher({ tools: [hungTool(seen)] })
    const error = errorOf(await dispatcher.invoke({ tool_id: 'slow__wait', input: {}, signal: AbortSignal.abort() }))
    expect([error.code, error.reason, error.message, error.details]).toEqual(['tool_execution_failed', 'call_aborted', 'tool "slow__wait" call was aborted by the caller before the tool ran', { handler_started: false }])
    expect(seen).toEqual([])
  })

  it('aborting while the handler runs settles with call_aborted and aborts context.signal', async () => {
    const seen: ToolContext[] = []
    const dispatcher = createDispatcher({ tools: [hungTool(seen)] })
    const controller = new AbortController()
    const outcome = dispatcher.invoke({ tool_id: 'slow__wait', input: {}, signal: controller.signal })
    await new Promise((resolve) => setTimeout(resolve, 5))
    controller.abort()
    const error = errorOf(await outcome)
    expect([error.reason, error.message, error.details]).toEqual(['call_aborted', 'tool "slow__wait" call was aborted by the caller while the tool ran', { handler_started: true }])
    expect(seen[0]!.signal.aborted).toBe(true)
  })

  it('aborting while a pre_call hook hangs gives up the hook', async () => {
    const controller = new AbortController()
    const dispatcher = createDispatcher({ tools: [hungTool()], hooks: { 'tool.pre_call': () => NEVER }, hookTimeoutMs: 600_000 })
    const outcome = dispatcher.invoke({ tool_id: 'slow__wait', input: {}, signal: controller.signal })
    setTimeout(() => controller.abort(), 5)
    expect(errorOf(await outcome).details).toEqual({ handler_started: false })
  })

  it('a signal that is not an AbortSignal (its aborted getter throws) is request_invalid, not a rejection', async () => {
    const dispatcher = createDispatcher({ tools: [hungTool()] })
    const hostile = Object.defineProperty({}, 'aborted', {
      get() {
        throw new Error('boom')
      },
    })
    const error = errorOf(await dispatcher.invoke({ tool_id: 'slow__wait', input: {}, signal: hostile as AbortSignal }))
    expect([error.code, error.reason, error.message]).toEqual(['tool_invalid_input', 'request_invalid', 'invalid invoke request: signal must be an AbortSignal'])
  })
})

describe('following a caller signal', () => {
  const later = (id: string, seen?: number[]) =>
    defineTool({ id, description: 'd', input: Type.Object({}), output: Type.Object({}), handler: async () => (seen?.push(1), await new Promise((resolve) => setTimeout(resolve, 5)), {}) })

  it('a call that never waits adds no listener to a genuine AbortSignal', async () => {
    const controller = new AbortController()
    const during: number[] = []
    const tool = defineTool({ id: 'quick', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => (during.push(getEventListeners(controller.signal, 'abort').length), {}) })
    const outcome = await createDispatcher({ tools: [tool] }).invoke({ tool_id: 'quick', input: {}, signal: controller.signal })
    expect(outcome.status).toBe('ok')
    expect(during).toEqual([0])
  })

  it('calls that wait on one shared signal add one listener between them, removed when the last ends, with no MaxListeners warning', async () => {
    const warnings: Error[] = []
    const onWarning = (warning: Error): void => void warnings.push(warning)
    process.on('warning', onWarning)
    try {
      const controller = new AbortController()
      const dispatcher = createDispatcher({ tools: [later('later')] })
      const calls = Array.from({ length: 50 }, () => dispatcher.invoke({ tool_id: 'later', input: {}, signal: controller.signal }))
      await new Promise((resolve) => setTimeout(resolve, 1))
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1)
      const outcomes = await Promise.all(calls)
      expect(outcomes.every((outcome) => outcome.status === 'ok')).toBe(true)
      await new Promise((resolve) => setTimeout(resolve, 1))
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([])
    } finally {
      process.off('warning', onWarning)
    }
  })

  it('aborting a shared signal ends every waiting call with call_aborted and leaves no listener', async () => {
    const controller = new AbortController()
    const dispatcher = createDispatcher({ tools: [hungTool()] })
    const calls = Array.from({ length: 30 }, () => dispatcher.invoke({ tool_id: 'slow__wait', input: {}, signal: controller.signal }))
    await new Promise((resolve) => setTimeout(resolve, 5))
    controller.abort()
    const outcomes = await Promise.all(calls)
    expect(outcomes.map((outcome) => errorOf(outcome).reason)).toEqual(Array(30).fill('call_aborted'))
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
  })

  it('the caller aborting while a synchronous handler runs settles with call_aborted and aborts context.signal', async () => {
    const controller = new AbortController()
    let context: ToolContext | undefined
    const tool = defineTool({ id: 'quick', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: (_input, given) => ((context = given), controller.abort(), {}) })
    const error = errorOf(await createDispatcher({ tools: [tool] }).invoke({ tool_id: 'quick', input: {}, signal: controller.signal }))
    expect([error.reason, error.details]).toEqual(['call_aborted', { handler_started: true }])
    expect(context!.signal.aborted).toBe(true)
  })

  it('a caller signal that aborted in a pre_call hook stops the call before the handler (handler_started: false)', async () => {
    const seen: unknown[] = []
    const tool = defineTool({ id: 'quick', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => (seen.push(1), {}) })
    const controller = new AbortController()
    const dispatcher = createDispatcher({ tools: [tool], hooks: { 'tool.pre_call': () => void controller.abort() } })
    const error = errorOf(await dispatcher.invoke({ tool_id: 'quick', input: {}, signal: controller.signal }))
    expect([error.reason, error.details]).toEqual(['call_aborted', { handler_started: false }])
    expect(seen).toEqual([])
  })

  it('aborting while a grant store read is in flight waits for it, then opens no pending approval (call_aborted)', async () => {
    const stores = createMemoryApprovalStores()
    const controller = new AbortController()
    const inserted: unknown[] = []
    const grants = { ...stores.grants, get: async (...args: Parameters<typeof stores.grants.get>) => (setTimeout(() => controller.abort(), 1), await new Promise((resolve) => setTimeout(resolve, 20)), stores.grants.get(...args)) }
    const pending = { ...stores.pending, insert: (...args: Parameters<typeof stores.pending.insert>) => (inserted.push(args), stores.pending.insert(...args)) }
    const tool = defineTool({ id: 'ops__gate', description: 'd', approval: 'required', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })
    const dispatcher = createDispatcher({ tools: [tool], approvals: { tokens: stores.tokens, grants, pending } })
    const error = errorOf(await dispatcher.invoke({ tool_id: 'ops__gate', input: {}, signal: controller.signal, scope: { workspace_id: 'w', profile_id: 'p' } }))
    expect([error.reason, error.details]).toEqual(['call_aborted', { handler_started: false }])
    expect(inserted).toEqual([])
  })

  it('a genuine signal with an own throwing constructor getter is read as a host object: request_invalid, the getter never breaks invoke', async () => {
    const seen: number[] = []
    const controller = new AbortController()
    Object.defineProperty(controller.signal, 'constructor', {
      get() {
        throw new Error('caller getter ran')
      },
    })
    const error = errorOf(await createDispatcher({ tools: [later('later', seen)] }).invoke({ tool_id: 'later', input: {}, signal: controller.signal }))
    expect([error.code, error.reason]).toEqual(['tool_invalid_input', 'request_invalid'])
    expect(seen).toEqual([])
  })

  it('a genuine signal whose prototype was swapped is request_invalid, not a rejection', async () => {
    const controller = new AbortController()
    Object.setPrototypeOf(controller.signal, Object.prototype)
    const error = errorOf(await createDispatcher({ tools: [later('later')] }).invoke({ tool_id: 'later', input: {}, signal: controller.signal }))
    expect([error.code, error.reason]).toEqual(['tool_invalid_input', 'request_invalid'])
  })

  it('a signal changed under the call so that its listener cannot be removed does not crash the process', async () => {
    const controller = new AbortController()
    const tool = defineTool({
      id: 'changes',
      description: 'd',
      input: Type.Object({}),
      output: Type.Object({}),
      handler: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5))
        Object.defineProperty(controller.signal, 'constructor', { value: Object, configurable: true })
        return {}
      },
    })
    const outcome = await createDispatcher({ tools: [tool] }).invoke({ tool_id: 'changes', input: {}, signal: controller.signal })
    expect(outcome.status).toBe('ok')
    // The release runs after the outcome: a throw there would be an unhandled rejection.
    await new Promise((resolve) => setTimeout(resolve, 5))
  })

  it('a signal changed under the call so that no listener can be added aborts the call when it first waits', async () => {
    const controller = new AbortController()
    const tool = defineTool({
      id: 'changes_first',
      description: 'd',
      input: Type.Object({}),
      output: Type.Object({}),
      handler: () => {
        Object.defineProperty(controller.signal, 'constructor', { value: Object, configurable: true })
        return new Promise<Record<string, never>>((resolve) => setTimeout(() => resolve({}), 5))
      },
    })
    const error = errorOf(await createDispatcher({ tools: [tool] }).invoke({ tool_id: 'changes_first', input: {}, signal: controller.signal }))
    expect([error.reason, error.details]).toEqual(['call_aborted', { handler_started: true }])
  })

  it.each([
    ['an earlier listener stops the abort event', (signal: AbortSignal) => signal.addEventListener('abort', (event) => event.stopImmediatePropagation())],
    ['the signal has an own dispatchEvent that drops events', (signal: AbortSignal) => Object.defineProperty(signal, 'dispatchEvent', { value: () => true })],
  ])('an abort whose event never reaches the dispatcher (%s) still ends the call with call_aborted when the handler settles', async (_label, tamper) => {
    const controller = new AbortController()
    tamper(controller.signal)
    let contextSignal: AbortSignal | undefined
    const tool = defineTool({
      id: 'waits',
      description: 'd',
      input: Type.Object({}),
      output: Type.Object({}),
      handler: async (_input, context) => ((contextSignal = context.signal), await new Promise((resolve) => setTimeout(resolve, 20)), {}),
    })
    const outcome = createDispatcher({ tools: [tool] }).invoke({ tool_id: 'waits', input: {}, signal: controller.signal })
    await new Promise((resolve) => setTimeout(resolve, 5))
    controller.abort()
    const error = errorOf(await outcome)
    expect([error.reason, error.details]).toEqual(['call_aborted', { handler_started: true }])
    expect(contextSignal!.aborted).toBe(true)
  })

  it.each([
    ['fails', () => new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('store down')), 10))],
    ['times out', () => new Promise<never>(() => undefined)],
  ])('aborting while a grant store read is in flight that then %s ends the call with call_aborted, not approval_unavailable', async (_label, answer) => {
    const stores = createMemoryApprovalStores()
    const controller = new AbortController()
    const grants = { ...stores.grants, get: () => (setTimeout(() => controller.abort(), 1), answer()) }
    const tool = defineTool({ id: 'ops__gate', description: 'd', approval: 'required', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })
    const dispatcher = createDispatcher({ tools: [tool], approvals: { tokens: stores.tokens, grants, pending: stores.pending, timeoutMs: 30 } })
    const error = errorOf(await dispatcher.invoke({ tool_id: 'ops__gate', input: {}, signal: controller.signal, scope: { workspace_id: 'w', profile_id: 'p' } }))
    expect([error.code, error.reason, error.details]).toEqual(['tool_execution_failed', 'call_aborted', { handler_started: false }])
  })

  it("a signal-like object's members are each read once: a getter that answers another function later is never consulted", async () => {
    const calls: string[] = []
    let addReads = 0
    let removeReads = 0
    const hostile = {
      aborted: false,
      get addEventListener() {
        addReads++
        return () => calls.push('add')
      },
      get removeEventListener() {
        removeReads++
        return () => calls.push('remove')
      },
    }
    const outcome = await createDispatcher({ tools: [later('later')] }).invoke({ tool_id: 'later', input: {}, signal: hostile as unknown as AbortSignal })
    expect(outcome.status).toBe('ok')
    await new Promise((resolve) => setTimeout(resolve, 1))
    expect([addReads, removeReads, calls]).toEqual([1, 1, ['add', 'remove']])
  })

  it('aborting while a token is being consumed, which another process then wins, ends with call_aborted, not token_replayed', async () => {
    const stores = createMemoryApprovalStores()
    const controller = new AbortController()
    let armed = false
    const tokens = {
      ...stores.tokens,
      consume: async (...args: Parameters<typeof stores.tokens.consume>) => {
        if (!armed) return stores.tokens.consume(...args)
        setTimeout(() => controller.abort(), 1)
        await new Promise((resolve) => setTimeout(resolve, 10))
        return false
      },
    }
    const tool = defineTool({ id: 'ops__gate', description: 'd', approval: 'required', input: Type.Object({ x: Type.String() }), output: Type.Object({}), handler: () => ({}) })
    const dispatcher = createDispatcher({ tools: [tool], approvals: { tokens, grants: stores.grants, pending: stores.pending } })
    const scope = { workspace_id: 'w', profile_id: 'p' }
    const { token } = await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__gate', scope, input: { x: 'a' } })
    armed = true
    const error = errorOf(await dispatcher.invoke({ tool_id: 'ops__gate', input: { x: 'a' }, scope, approval_token: token, signal: controller.signal }))
    expect([error.code, error.reason]).toEqual(['tool_execution_failed', 'call_aborted'])
  })

  it('after an abort during a token read, no grant store read starts', async () => {
    const stores = createMemoryApprovalStores()
    const controller = new AbortController()
    let armed = false
    const grantReads: unknown[] = []
    const tokens = {
      ...stores.tokens,
      get: async (...args: Parameters<typeof stores.tokens.get>) => {
        if (armed) {
          setTimeout(() => controller.abort(), 1)
          await new Promise((resolve) => setTimeout(resolve, 10))
        }
        return stores.tokens.get(...args)
      },
    }
    const grants = { ...stores.grants, get: (...args: Parameters<typeof stores.grants.get>) => (grantReads.push(args), stores.grants.get(...args)) }
    const tool = defineTool({ id: 'ops__gate', description: 'd', approval: 'required', input: Type.Object({ x: Type.String() }), output: Type.Object({}), handler: () => ({}) })
    const dispatcher = createDispatcher({ tools: [tool], approvals: { tokens, grants, pending: stores.pending } })
    const scope = { workspace_id: 'w', profile_id: 'p', agent_name: 'a' }
    const { token } = await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__gate', scope, input: { x: 'a' } })
    // Minting reads the call's grants (a remembered reject refuses it); the call's own reads count.
    grantReads.length = 0
    armed = true
    const error = errorOf(await dispatcher.invoke({ tool_id: 'ops__gate', input: { x: 'a' }, scope, approval_token: token, signal: controller.signal }))
    expect([error.code, error.reason]).toEqual(['tool_execution_failed', 'call_aborted'])
    expect(grantReads).toEqual([])
  })

  it('an abort whose event was stopped, while a policy hangs, ends as call_aborted when the policy budget runs out (not policy_failed)', async () => {
    const controller = new AbortController()
    controller.signal.addEventListener('abort', (event) => event.stopImmediatePropagation())
    const tool = defineTool({ id: 'ok', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })
    const dispatcher = createDispatcher({ tools: [tool], policy: { decide: () => new Promise<never>(() => undefined) }, approvals: { timeoutMs: 40 } })
    const outcome = dispatcher.invoke({ tool_id: 'ok', input: {}, signal: controller.signal })
    await new Promise((resolve) => setTimeout(resolve, 5))
    controller.abort()
    const error = errorOf(await outcome)
    expect([error.code, error.reason]).toEqual(['tool_execution_failed', 'call_aborted'])
  })

  it('a signal-like object without listener methods is request_invalid', async () => {
    const dispatcher = createDispatcher({ tools: [hungTool()] })
    const error = errorOf(await dispatcher.invoke({ tool_id: 'slow__wait', input: {}, signal: { aborted: false } as AbortSignal }))
    expect([error.code, error.reason]).toEqual(['tool_invalid_input', 'request_invalid'])
  })

  it('a signal-like object whose addEventListener throws is request_invalid, and no handler runs', async () => {
    const seen: number[] = []
    const hostile = {
      aborted: false,
      addEventListener() {
        throw new Error('boom')
      },
      removeEventListener() {},
    }
    for (const tool of [later('async_tool', seen), defineTool({ id: 'sync_tool', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => (seen.push(1), {}) })]) {
      const error = errorOf(await createDispatcher({ tools: [tool] }).invoke({ tool_id: tool.id, input: {}, signal: hostile as unknown as AbortSignal }))
      expect([error.code, error.reason]).toEqual(['tool_invalid_input', 'request_invalid'])
    }
    expect(seen).toEqual([])
  })

  it("a signal-like object's aborted is read once: a getter that would throw on a later read never does", async () => {
    let reads = 0
    const hostile = {
      get aborted() {
        if (++reads > 1) throw new Error('boom')
        return false
      },
      addEventListener() {},
      removeEventListener() {},
    }
    const outcome = await createDispatcher({ tools: [later('later')], hooks: { 'tool.pre_call': async () => undefined } }).invoke({ tool_id: 'later', input: {}, signal: hostile as unknown as AbortSignal })
    expect(outcome.status).toBe('ok')
    expect(reads).toBe(1)
  })

  it('a Proxy of a genuine signal is read as a host object: read once, listened to at once, released after', async () => {
    const controller = new AbortController()
    const proxy = new Proxy(controller.signal, {})
    const outcome = await createDispatcher({ tools: [later('later')] }).invoke({ tool_id: 'later', input: {}, signal: proxy })
    expect(outcome.status).toBe('ok')
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
  })
})

describe('deadlines hold when the event loop was blocked', () => {
  it('a policy answering in 450 ms with timeoutMs: 200 while the loop was busy is late and refused (policy_failed)', async () => {
    const calls: unknown[] = []
    const tool = defineTool({ id: 'ok', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => (calls.push(1), {}) })
    const dispatcher = createDispatcher({
      tools: [tool],
      policy: { decide: () => (blockFor(450), Promise.resolve({ decision: 'allow' as const })) },
      approvals: { timeoutMs: 200 },
    })
    const error = errorOf(await dispatcher.invoke({ tool_id: 'ok', input: {} }))
    expect([error.code, error.reason, error.details]).toEqual(['tool_denied', 'policy_failed', { problem: 'timeout' }])
    expect(calls).toEqual([])
  })

  it('a prompt nobody answers fails with prompt_timeout within promptTimeoutMs', async () => {
    const tool = defineTool({ id: 'ops__ask', description: 'd', approval: 'required', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })
    const dispatcher = createDispatcher({ tools: [tool], approvals: { prompt: () => NEVER, promptTimeoutMs: 30 } })
    const error = errorOf(await dispatcher.invoke({ tool_id: 'ops__ask', input: {}, scope: { workspace_id: 'w' } }))
    expect([error.code, error.reason, error.details]).toEqual(['approval_unavailable', 'prompt_timeout', { timeout_ms: 30 }])
  })
})
