// Regressions found by the break-it review of issues 2 and 4, each named after the case it reproduces.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { REDACTED, createDispatcher, defineTool, inputDigest, isToolError, type InvokeOutcome } from 'result-views'

const errorOf = (outcome: InvokeOutcome) => {
  if (outcome.status !== 'error') throw new Error(`expected an error, got ${JSON.stringify(outcome)}`)
  expect(isToolError(outcome.error)).toBe(true)
  return outcome.error
}

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

describe("a tool's preview never costs the result", () => {
  const make = (preview: (record: { id: string }) => unknown, sensitive: string[] = []) =>
    createDispatcher({
      tools: [
        defineTool({
          id: 'p',
          description: 'd',
          input: Type.Object({ secret: Type.Optional(Type.String()) }),
          output: Type.Object({ id: Type.String() }),
          sensitiveInputFields: sensitive,
          preview: preview as never,
          handler: () => ({ id: 'r1' }),
        }),
      ],
    })

  it.each([
    ['throws', () => { throw new Error('preview boom') }],
    ['returns a number', () => 5],
    ['returns an object', (r: { id: string }) => ({ shown: r.id })],
    ['returns a promise', async () => 'late'],
  ])('falls back to the default preview when it %s', async (_name, preview) => {
    const outcome = await make(preview, ['secret']).invoke({ tool_id: 'p', input: { secret: 'sk-live-123456' } })
    expect(outcome).toMatchObject({ status: 'ok', result: { structured: { id: 'r1' }, preview: '{"id":"r1"}' } })
  })
})

describe('typed errors thrown by handlers', () => {
  it('treats a branded look-alike with a foreign code as a handler failure', async () => {
    const fake = Object.defineProperty({ code: 'x', reason: 'y', message: 'z' }, Symbol.for('result-views.ToolError'), { value: true })
    const dispatcher = createDispatcher({
      tools: [defineTool({ id: 'f', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => { throw fake } })],
      hooks: { 'tool.post_error': () => undefined },
    })
    const error = errorOf(await dispatcher.invoke({ tool_id: 'f', input: {} }))
    expect([error.code, error.reason]).toEqual(['tool_execution_failed', 'handler_failed'])
    expect(typeof error.forSurface).toBe('function')
  })
})

describe('redacted array items', () => {
  const make = (received: unknown[], patch: (items: Array<Record<string, unknown>>) => unknown) => {
    const dispatcher = createDispatcher({
      tools: [
        defineTool({
          id: 'batch',
          description: 'd',
          input: Type.Object({ items: Type.Array(Type.Object({ name: Type.String(), token: Type.String() })), extra: Type.Optional(Type.String()) }),
          output: Type.Object({}),
          sensitiveInputFields: ['items[].token', 'extra'],
          handler: (input) => (received.push(input), {}),
        }),
      ],
    })
    dispatcher.hook('tool.pre_call', (p) => ({ tool_input: patch((p.tool_input as { items: Array<Record<string, unknown>> }).items) }))
    return dispatcher
  }
  const input = { items: [{ name: 'i1', token: 'TOKEN-A-1111' }, { name: 'i2', token: 'TOKEN-B-2222' }] }

  it('restores unchanged items in place', async () => {
    const received: unknown[] = []
    expect((await make(received, (items) => ({ items })).invoke({ tool_id: 'batch', input })).status).toBe('ok')
    expect(received).toEqual([input])
  })

  it.each([
    ['reversed', (items: unknown[]) => ({ items: [...items].reverse() })],
    ['with the first dropped', (items: unknown[]) => ({ items: items.slice(1) })],
    ['with an item renamed', (items: Array<Record<string, unknown>>) => ({ items: [{ ...items[0], name: 'other' }, items[1]] })],
    ['with the marker in a field the call did not have', (items: unknown[]) => ({ items, extra: REDACTED })],
  ])('refuses a patch %s: a secret never moves to another item and the marker never reaches the handler', async (_name, patch) => {
    const received: unknown[] = []
    const error = errorOf(await make(received, patch as never).invoke({ tool_id: 'batch', input }))
    expect([error.code, error.reason]).toEqual(['tool_hook_failed', 'hook_patch_invalid'])
    expect(received).toEqual([])
  })
})

describe('results and events do not share objects', () => {
  it('a post_call hook never freezes the record the handler keeps, and callers get their own copy', async () => {
    const cache = { id: 'n', title: 't', body: 'b', tags: ['x'] as string[] }
    const Full = Type.Object({ id: Type.String(), title: Type.String(), body: Type.String(), tags: Type.Array(Type.String()) })
    const dispatcher = createDispatcher({
      tools: [defineTool({ id: 'c', description: 'd', input: Type.Object({}), output: { compact: Type.Object({ id: Type.String() }, { additionalProperties: false }), full: Full }, handler: () => (cache.tags.push('y'), cache) })],
      hooks: { 'tool.post_call': () => undefined },
    })
    for (let i = 0; i < 2; i++) {
      const outcome = await dispatcher.invoke({ tool_id: 'c', input: { result_view: 'full' } })
      expect(outcome.status).toBe('ok')
      expect((outcome as { result: { structured: unknown } }).result.structured).not.toBe(cache)
    }
    expect(Object.isFrozen(cache)).toBe(false)
  })
})

describe('sensitive object keys', () => {
  it('scrubs keys found inside a sensitive object from previews and events', async () => {
    const events: unknown[] = []
    const dispatcher = createDispatcher({
      tools: [defineTool({ id: 'k', description: 'd', input: Type.Object({ nested: Type.Record(Type.String(), Type.Number()) }), output: Type.Object({ echo: Type.Record(Type.String(), Type.Number()) }), handler: (i) => ({ echo: i.nested }) })],
      hooks: { 'tool.post_call': (p) => void events.push(p) },
    })
    const outcome = await dispatcher.invoke({ tool_id: 'k', input: { nested: { 'CANARY-deep-444': 1 } }, sensitive_input_fields: ['nested'] })
    expect(JSON.stringify(events)).not.toContain('CANARY-deep-444')
    expect((outcome as { result: { preview: string } }).result.preview).not.toContain('CANARY-deep-444')
  })
})

describe('options misuse', () => {
  it('refuses unknown hook events given to createDispatcher', () => {
    expect(() => createDispatcher({ tools: [], hooks: { 'tool.bogus': () => undefined } as never })).toThrow(expect.objectContaining({ code: 'hook_registration_invalid' }))
    expect(() => createDispatcher({ tools: [], hooks: 'x' as never })).toThrow(expect.objectContaining({ code: 'hook_registration_invalid' }))
  })

  it('refuses an unknown inputDigest origin', () => {
    expect(() => inputDigest({}, { origin: 'bogus' as never })).toThrow(expect.objectContaining({ code: 'digest_options_invalid', problems: [expect.objectContaining({ path: '/origin', code: 'invalid_origin' })] }))
  })
})

describe('hook time budget (hookTimeoutMs)', () => {
  const tool = (calls: unknown[]) => defineTool({ id: 'h', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => (calls.push(1), {}) })
  const never = () => new Promise<never>(() => {})

  it('fails a call closed when a pre-call hook does not answer in time', async () => {
    const calls: unknown[] = []
    const dispatcher = createDispatcher({ tools: [tool(calls)], hookTimeoutMs: 20, hooks: { 'tool.pre_call': never } })
    const error = errorOf(await dispatcher.invoke({ tool_id: 'h', input: {} }))
    expect([error.code, error.reason, error.message]).toEqual(['tool_hook_failed', 'hook_timeout', 'tool "h" pre-call hook did not answer within 20 ms'])
    expect(calls).toEqual([])
  })

  it('keeps the outcome when an observer does not answer in time, and logs it', async () => {
    const logged: unknown[] = []
    const logger = { debug() {}, info() {}, warn() {}, error: (fields: unknown) => void logged.push(fields) }
    const dispatcher = createDispatcher({ tools: [tool([])], hookTimeoutMs: 20, logger, hooks: { 'tool.post_call': never } })
    expect(await dispatcher.invoke({ tool_id: 'h', input: {} })).toMatchObject({ status: 'ok' })
    expect(logged).toEqual([expect.objectContaining({ event: 'tool.post_call', timed_out: true })])
  })

  it('refuses a hookTimeoutMs that is not a positive number', () => {
    expect(() => createDispatcher({ tools: [], hookTimeoutMs: 0 })).toThrow(expect.objectContaining({ code: 'hook_registration_invalid' }))
  })
})

describe('definitions that cannot be read', () => {
  it('turns a throwing getter into a ToolDefinitionError', () => {
    const definition = { get id(): string { throw new Error('getter boom') } }
    expect(() => defineTool(definition as never)).toThrow(expect.objectContaining({ code: 'tool_definition_invalid' }))
  })
})

describe('the dispatcher clock', () => {
  it('drives token expiry (createDispatcher({ clock }))', async () => {
    let now = Date.parse('2026-11-10T14:00:00Z')
    const tool = defineTool({ id: 'c2', description: 'd', approval: 'required', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })
    const dispatcher = createDispatcher({ tools: [tool], clock: () => now })
    const { token, expires_at } = await dispatcher.approvals.mintApprovalToken({ tool_id: 'c2', input: {}, ttlMs: 1000 })
    expect(expires_at).toBe('2026-11-10T14:00:01.000Z')
    now += 2000
    expect(errorOf(await dispatcher.invoke({ tool_id: 'c2', input: {}, approval_token: token })).reason).toBe('token_expired')
  })
})

// Found by the break-it review of the stop-8 speed work (helper report, cases 2-7).
describe('invoke never rejects on what a handler throws or returns', () => {
  const BRAND = Symbol.for('result-views.ToolError')
  const thrown: Record<string, () => unknown> = {
    'an Error whose message is a symbol': () => Object.assign(new Error('x'), { message: Symbol('s') }),
    'an Error whose message getter throws': () =>
      Object.defineProperty(new Error('x'), 'message', {
        get() {
          throw new Error('getter')
        },
      }),
    'a Proxy whose traps throw': () =>
      new Proxy(
        {},
        {
          get() {
            throw new Error('trap')
          },
          getPrototypeOf() {
            throw new Error('trap')
          },
        },
      ),
    'a branded look-alike whose code getter throws': () => ({
      [BRAND]: true,
      get code() {
        throw new Error('code')
      },
    }),
    'a look-alike whose details turn into a cycle on a second read': () => {
      const cycle: Record<string, unknown> = {}
      cycle.self = cycle
      let reads = 0
      return {
        [BRAND]: true,
        code: 'tool_execution_failed',
        reason: 'r',
        message: 'm',
        details: {
          get x() {
            return ++reads === 1 ? 1 : cycle
          },
        },
      }
    },
  }
  const toolThat = (handler: () => unknown) =>
    createDispatcher({ tools: [defineTool({ id: 't', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: handler as never })] })

  for (const [name, make] of Object.entries(thrown)) {
    it(`turns ${name}, thrown or rejected, into tool_execution_failed`, async () => {
      for (const handler of [
        () => {
          throw make()
        },
        () => Promise.reject(make()),
      ]) {
        expect(errorOf(await toolThat(handler).invoke({ tool_id: 't', input: {} })).code).toBe('tool_execution_failed')
      }
    })
  }

  it('turns a native promise whose constructor getter throws into tool_execution_failed', async () => {
    const handler = () =>
      Object.defineProperty(Promise.resolve({}), 'constructor', {
        get() {
          throw new Error('constructor getter')
        },
      })
    expect(errorOf(await toolThat(handler).invoke({ tool_id: 't', input: {} })).code).toBe('tool_execution_failed')
  })

  it('names an array Proxy whose has trap throws as unreadable, in the input and in the record', async () => {
    const trapped = () =>
      new Proxy(['a'], {
        has() {
          throw new Error('has trap')
        },
      })
    const dispatcher = createDispatcher({
      tools: [
        defineTool({
          id: 'tags',
          description: 'd',
          input: Type.Object({ tags: Type.Optional(Type.Array(Type.String())) }),
          output: { compact: Type.Object({ id: Type.String() }), full: Type.Object({ id: Type.String(), tags: Type.Array(Type.String()) }) },
          handler: () => ({ id: 'a', tags: trapped() }),
        }),
      ],
    })
    const input = errorOf(await dispatcher.invoke({ tool_id: 'tags', input: { tags: trapped() } }))
    expect([input.code, input.details]).toEqual(['tool_invalid_input', { pointer: '/tags/0', problem: 'unreadable' }])
    const output = errorOf(await dispatcher.invoke({ tool_id: 'tags', input: { result_view: 'full' } }))
    expect([output.code, output.details]).toEqual(['tool_output_invalid', { pointer: '/tags/0', problem: 'unreadable' }])
  })
})

describe('compact results are plain JSON at positions copied whole', () => {
  class Secretive {
    token = 'sk-live'
  }
  const values: Array<[string, unknown, string]> = [
    ['a Date', new Date(0), 'non_plain_object'],
    ['a Map', new Map([['a', 1]]), 'non_plain_object'],
    ['a class instance', new Secretive(), 'non_plain_object'],
    ['a boxed string', new String('x'), 'non_plain_object'],
    ['an array with toJSON', Object.assign([1, 2], { toJSON: () => [] }), 'to_json'],
  ]
  for (const [name, meta, problem] of values) {
    it(`refuses ${name} in an unconstrained compact position, in both views`, async () => {
      const dispatcher = createDispatcher({
        tools: [
          defineTool({
            id: 'm',
            description: 'd',
            input: Type.Object({}),
            output: { compact: Type.Object({ id: Type.String(), meta: Type.Any() }), full: Type.Object({ id: Type.String(), meta: Type.Any() }) },
            handler: () => ({ id: 'a', meta }),
          }),
        ],
      })
      for (const result_view of ['compact', 'full']) {
        const outcome = await dispatcher.invoke({ tool_id: 'm', input: { result_view } })
        expect(errorOf(outcome)).toMatchObject({ code: 'tool_output_invalid', details: { pointer: '/meta', problem } })
        expect(JSON.stringify(outcome)).not.toContain('sk-live')
      }
    })
  }
})

describe('schemas with a __proto__ key', () => {
  it('are refused by defineTool with the pointer of the key', () => {
    const closed = Type.Object({ ['__proto__']: Type.String() }, { additionalProperties: false })
    let thrown: unknown
    try {
      defineTool({ id: 'p', description: 'd', input: closed, output: Type.Object({}), handler: () => ({}) })
    } catch (error) {
      thrown = error
    }
    expect((thrown as { problems?: unknown }).problems).toEqual([
      expect.objectContaining({ path: '/input/properties/__proto__', code: 'schema_proto_key' }),
    ])
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
    expect(errorOf(await dispatcher.invoke({ tool_id: 'n', input: sent })).message).toContain('/n must be integer')
    expect(events).toEqual([{ n: 'not-an-integer' }])
    expect(reads).toBe(1)
  })
})

describe('a class instance returned as the whole record', () => {
  it('is refused in both views, before anything reads it through its prototype', async () => {
    class Session {
      get id() {
        return 'a'
      }
    }
    const dispatcher = createDispatcher({
      tools: [
        defineTool({
          id: 's',
          description: 'd',
          input: Type.Object({}),
          output: { compact: Type.Object({ id: Type.String() }), full: Type.Object({ id: Type.String() }) },
          handler: () => new Session() as never,
        }),
      ],
    })
    for (const result_view of ['compact', 'full']) {
      const error = errorOf(await dispatcher.invoke({ tool_id: 's', input: { result_view } }))
      expect([error.code, error.details]).toEqual(['tool_output_invalid', { pointer: '', problem: 'non_plain_object' }])
    }
  })
})

// Found by the second break-it review.
describe('what a tool preview and odd records can do to a checked result', () => {
  it("a tool's own preview never changes the result, and a label that is not well-formed falls back", async () => {
    const Full = Type.Object({ id: Type.String(), n: Type.Number() })
    const meddle = (r: Record<string, unknown>) => {
      r.n = NaN
      r.when = new Date(0)
      r.id = '\ud800'
      return 'label \udc00'
    }
    const dispatcher = createDispatcher({
      tools: [
        defineTool({ id: 'v', description: 'd', input: Type.Object({}), output: { compact: Type.Object({ id: Type.String() }), full: Full }, handler: () => ({ id: 'a', n: 1 }), preview: meddle as never }),
        defineTool({ id: 's', description: 'd', input: Type.Object({}), output: Full, handler: () => ({ id: 'a', n: 1 }), preview: meddle as never }),
      ],
    })
    for (const [tool_id, input, structured] of [
      ['v', {}, { id: 'a' }],
      ['v', { result_view: 'full' }, { id: 'a', n: 1 }],
      ['s', {}, { id: 'a', n: 1 }],
    ] as const) {
      const outcome = await dispatcher.invoke({ tool_id, input })
      if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome))
      expect(outcome.result.structured).toEqual(structured)
      expect(outcome.result.preview).toBe(JSON.stringify(structured))
    }
  })

  it('judges a record ajv cannot read as it is (null-prototype objects under uniqueItems) on a checked copy', async () => {
    const dispatcher = createDispatcher({
      tools: [
        defineTool({
          id: 't',
          description: 'd',
          input: Type.Object({}),
          output: { compact: Type.Object({ id: Type.String() }), full: Type.Object({ id: Type.String(), tags: Type.Array(Type.Object({}), { uniqueItems: true }) }) },
          handler: () => ({ id: 'a', tags: [Object.create(null), Object.create(null)] }),
        }),
      ],
    })
    for (const result_view of ['compact', 'full']) {
      const error = errorOf(await dispatcher.invoke({ tool_id: 't', input: { result_view } }))
      expect(error.details!.issues).toEqual([expect.objectContaining({ instancePath: '/tags', keyword: 'uniqueItems' })])
    }
  })

  it('answers a valid record nested deeper than the call stack allows with ok or too_deep, never unreadable', async () => {
    const Node = Type.Cyclic({ Node: Type.Object({ child: Type.Optional(Type.Ref('Node')) }) }, 'Node')
    let deep: Record<string, unknown> = {}
    for (let i = 0; i < 4_990; i++) deep = { child: deep }
    const dispatcher = createDispatcher({
      tools: [defineTool({ id: 'deep', description: 'd', input: Type.Object({}), output: { compact: Node, full: Node }, handler: () => deep as never })],
    })
    const outcome = await dispatcher.invoke({ tool_id: 'deep', input: {} })
    if (outcome.status === 'error') expect(outcome.error.details).toEqual({ pointer: '', problem: 'too_deep' })
    else expect(outcome.status).toBe('ok')
  })
})

// Found by the third break-it review.
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

  it('post_error carries the selected view when the view rules passed and the schema failed', async () => {
    const events: unknown[] = []
    const dispatcher = createDispatcher({ tools: tools(), hooks: { 'tool.post_error': (payload) => void events.push(payload.result_view) } })
    await dispatcher.invoke({ tool_id: 'v', input: { secret: 5, result_view: 'full' } })
    await dispatcher.invoke({ tool_id: 'v', input: { result_view: 'huge' } })
    expect(events).toEqual(['full', undefined])
  })
})
