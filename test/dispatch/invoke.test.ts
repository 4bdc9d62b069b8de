import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, isToolDefinitionError, isToolError, type InvokeOutcome } from 'result-views'
import { extensionTool, noteTool, skillTool } from '../support/tools.js'

function setup() {
  const calls = { note: [] as unknown[], skill: [] as unknown[], ext: [] as unknown[] }
  const dispatcher = createDispatcher({ tools: [noteTool(calls.note), skillTool(calls.skill), extensionTool(calls.ext)] })
  return { dispatcher, calls }
}

function errorOf(outcome: InvokeOutcome) {
  if (outcome.status !== 'error') throw new Error(`expected an error, got ${JSON.stringify(outcome)}`)
  expect(isToolError(outcome.error)).toBe(true)
  return outcome.error
}

describe('invoke: views', () => {
  it('returns the compact view by default, with result_view "compact"', async () => {
    const { dispatcher, calls } = setup()
    const outcome = await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' }, tool_call_id: 'call-1' })
    expect(outcome).toEqual({
      status: 'ok',
      tool_call_id: 'call-1',
      result: { structured: { id: 'n1', title: 'Groceries' }, preview: '{"id":"n1","title":"Groceries"}' },
      result_view: 'compact',
    })
    expect(calls.note).toEqual([{ id: 'n1' }])
  })

  it('returns the full record when asked, and the handler never sees result_view', async () => {
    const { dispatcher, calls } = setup()
    const outcome = await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1', result_view: 'full' } })
    expect(outcome).toMatchObject({
      status: 'ok',
      result: { structured: { id: 'n1', title: 'Groceries', body: 'eggs, milk', tags: ['home'] } },
      result_view: 'full',
    })
    const compact = await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1', result_view: 'compact' } })
    expect(compact).toMatchObject({ result: { structured: { id: 'n1', title: 'Groceries' } }, result_view: 'compact' })
    expect(calls.note).toEqual([{ id: 'n1' }, { id: 'n1' }])
  })

  it('single-result tools return their record with no result_view', async () => {
    const { dispatcher } = setup()
    const outcome = await dispatcher.invoke({ tool_id: 'skills__view', input: { skill_id: 's' } })
    expect(outcome.status).toBe('ok')
    expect(outcome).not.toHaveProperty('result_view')
    expect(outcome).toMatchObject({ result: { structured: { skill: { id: 's' } } } })
  })

  it('generates a tool_call_id when none is given', async () => {
    const { dispatcher } = setup()
    const outcome = await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })
    expect(outcome.tool_call_id).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe('invoke: the result_view rows of spec 000 "Errors"', () => {
  it.each([
    ['an unknown value', 'huge'],
    ['a value of the wrong case', 'Full'],
    ['a number', 1],
    ['null', null],
    ['an array', ['full']],
    ['an object', { view: 'full' }],
  ])('rejects %s: tool_invalid_input / schema_invalid with the exact message; the handler never runs', async (_name, value) => {
    const { dispatcher, calls } = setup()
    const error = errorOf(await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1', result_view: value } }))
    expect(error.code).toBe('tool_invalid_input')
    expect(error.reason).toBe('schema_invalid')
    expect(error.message).toBe('tool "notes__read" input "result_view" must be one of "compact", "full"')
    expect(calls.note).toEqual([])
  })

  it('rejects result_view sent to a single-result tool, whatever its value', async () => {
    const { dispatcher, calls } = setup()
    for (const value of ['compact', 'full', 'huge', 3]) {
      const error = errorOf(await dispatcher.invoke({ tool_id: 'skills__view', input: { skill_id: 's', result_view: value } }))
      expect([error.code, error.reason, error.message]).toEqual([
        'tool_invalid_input',
        'schema_invalid',
        'tool "skills__view" returns a single result and does not accept "result_view"',
      ])
    }
    expect(calls.skill).toEqual([])
  })

  it('keeps the invalid_request code for tools that report input errors with it', async () => {
    const calls: unknown[] = []
    const dispatcher = createDispatcher({ tools: [noteTool(calls, { inputErrorCode: 'invalid_request' })] })
    const bad = errorOf(await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n', result_view: 'huge' } }))
    expect([bad.code, bad.reason]).toEqual(['invalid_request', 'schema_invalid'])
    const schema = errorOf(await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 7 } }))
    expect(schema.code).toBe('invalid_request')
    expect(calls).toEqual([])
  })

  it('passes an extension tool its own result_view untouched', async () => {
    const { dispatcher, calls } = setup()
    const outcome = await dispatcher.invoke({ tool_id: 'ext__render', input: { result_view: 42 } })
    expect(outcome).toMatchObject({ status: 'ok', result: { structured: { echoed: 42 } } })
    expect(outcome).not.toHaveProperty('result_view')
    expect(calls.ext).toEqual([{ result_view: 42 }])
  })

  it('denies a view other than the pinned one (row 6), and applies the pinned view when none is selected', async () => {
    const { dispatcher, calls } = setup()
    const error = errorOf(await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n', result_view: 'compact' }, pinned_result_view: 'full' }))
    expect([error.code, error.reason, error.message]).toEqual(['tool_denied', 'result_view_pinned', 'tool "notes__read" result view is pinned to "full" by the caller'])
    expect(calls.note).toEqual([])
    const pinned = await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n' }, pinned_result_view: 'full' })
    expect(pinned).toMatchObject({ status: 'ok', result_view: 'full' })
  })
})

describe('invoke: input validation', () => {
  it('reports schema issues with instancePath and schemaPath, without echoing values', async () => {
    const { dispatcher, calls } = setup()
    const error = errorOf(await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'hunter2-secret', extra: 'also-secret' } }))
    expect(error.reason).toBe('schema_invalid')
    expect(error.details).toEqual({
      issues: [expect.objectContaining({ instancePath: '', schemaPath: '#/additionalProperties', keyword: 'additionalProperties' })],
    })
    expect(JSON.stringify(error)).not.toContain('secret')
    const typed = errorOf(await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 12 } }))
    expect(typed.details!.issues).toEqual([expect.objectContaining({ instancePath: '/id', schemaPath: '#/properties/id/type' })])
    expect(typed.message).toBe('tool "notes__read" input does not match its schema: wrong type at "/id": must be string')
    expect(calls.note).toEqual([])
  })

  it('rejects non-JSON input with a typed error naming the pointer', async () => {
    const { dispatcher, calls } = setup()
    const error = errorOf(await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n', at: new Date() } }))
    expect([error.code, error.reason, error.details]).toEqual(['tool_invalid_input', 'non_json_input', { pointer: '/at', problem: 'non_plain_object' }])
    const cases: Array<[unknown, { pointer: string; problem: string }]> = [
      [{ id: 'n', tags: Object.assign(['a'], { toJSON: () => [] }) }, { pointer: '/tags', problem: 'to_json' }],
      [{ id: 'n', meta: Object.defineProperty({}, 'toJSON', { value: () => ({}) }) }, { pointer: '/meta', problem: 'to_json' }],
      [{ id: 'n', list: [1, , 3] }, { pointer: '/list/1', problem: 'sparse_array' }],
      [{ id: 'n', deep: { x: 'a\udc00' } }, { pointer: '/deep/x', problem: 'lone_surrogate' }],
    ]
    for (const [input, details] of cases) {
      expect(errorOf(await dispatcher.invoke({ tool_id: 'notes__read', input })).details).toEqual(details)
    }
    expect(calls.note).toEqual([])
  })

  it('reports unknown tools and malformed requests as typed errors, never throwing', async () => {
    const { dispatcher } = setup()
    expect(errorOf(await dispatcher.invoke({ tool_id: 'nope', input: {} }))).toMatchObject({ code: 'tool_not_found', reason: 'unknown_tool', message: 'tool "nope" is not registered' })
    for (const request of [null, 7, { input: {} }, { tool_id: 1 }, { tool_id: 'notes__read', input: {}, scope: 'ws' }, { tool_id: 'notes__read', input: {}, pinned_result_view: 'big' }]) {
      expect(errorOf(await dispatcher.invoke(request as never))).toMatchObject({ code: 'tool_invalid_input', reason: 'request_invalid' })
    }
  })
})

describe('invoke: handler and output', () => {
  const make = (handler: () => unknown) =>
    createDispatcher({
      tools: [
        defineTool({
          id: 't',
          description: 'd',
          input: Type.Object({}),
          output: { compact: Type.Object({ id: Type.String() }, { additionalProperties: false }), full: Type.Object({ id: Type.String(), n: Type.Number() }) },
          handler: handler as never,
        }),
      ],
    })

  it('turns a throwing or rejecting handler into tool_execution_failed', async () => {
    for (const handler of [
      () => {
        throw new Error('db down')
      },
      () => Promise.reject(new Error('db down')),
    ]) {
      const error = errorOf(await make(handler).invoke({ tool_id: 't', input: {} }))
      expect([error.code, error.reason, error.message]).toEqual(['tool_execution_failed', 'handler_failed', 'tool "t" failed: db down'])
      expect((error as Error & { cause?: unknown }).cause).toBeInstanceOf(Error)
    }
    const odd = errorOf(await make(() => Promise.reject(42)).invoke({ tool_id: 't', input: {} }))
    expect(odd.message).toBe('tool "t" failed: a non-Error value was thrown')
  })

  it('rejects a record that fails the full schema, returning nothing of it', async () => {
    for (const record of [{ id: 1, n: 2 }, { id: 'x' }, null, 'text', { id: 'x', n: NaN }, { id: 'x', n: Infinity }]) {
      for (const result_view of ['compact', 'full']) {
        const outcome = await make(() => record).invoke({ tool_id: 't', input: { result_view } })
        const error = errorOf(outcome)
        expect([error.code, error.reason]).toEqual(['tool_output_invalid', 'output_schema_invalid'])
        expect(outcome).not.toHaveProperty('result')
      }
    }
  })

  it('returns plain JSON only: a non-JSON value is named by its pointer in the view that would carry it', async () => {
    // `when` lies in a part of the full record the full schema leaves open and the compact view
    // leaves out: a full result would carry it, so a full call fails; a compact one never sees it
    // (docs/views.md, "What the caller receives").
    const record = { id: 'x', n: 1, when: new Date(0) }
    const full = errorOf(await make(() => record).invoke({ tool_id: 't', input: { result_view: 'full' } }))
    expect(full).toMatchObject({ code: 'tool_output_invalid', details: { pointer: '/when', problem: 'non_plain_object' } })
    const compact = await make(() => record).invoke({ tool_id: 't', input: {} })
    expect(compact).toMatchObject({ status: 'ok', result: { structured: { id: 'x' } } })
  })

  it('takes the strings of a record as they are, lone surrogates included, in both views', async () => {
    // Results are not digested: a lone surrogate reaches the caller, and JSON.stringify writes it
    // as an escape (docs/views.md, "What the caller receives").
    const record = { id: 'a\udc00', n: 1, ['k\ud800']: 'b\ud800' }
    for (const [input, structured] of [
      [{}, { id: 'a\udc00' }],
      [{ result_view: 'full' }, record],
    ] as const) {
      const outcome = await make(() => record).invoke({ tool_id: 't', input })
      expect(outcome).toMatchObject({ status: 'ok', result: { structured } })
      if (outcome.status === 'ok') expect(JSON.stringify(outcome.result)).toContain('\\udc00')
    }
  })
})

describe('createDispatcher', () => {
  it('rejects duplicate IDs and hand-made tools with a typed error', () => {
    for (const tools of [[noteTool(), noteTool()], [{ ...noteTool() }], 'tools']) {
      let thrown: unknown
      try {
        createDispatcher({ tools: tools as never })
      } catch (error) {
        thrown = error
      }
      expect(isToolDefinitionError(thrown)).toBe(true)
    }
  })
})

describe('invoke: typed errors thrown by handlers', () => {
  it('passes a ToolError thrown by the handler through unchanged', async () => {
    const { ToolError } = await import('result-views')
    const dispatcher = createDispatcher({
      tools: [
        defineTool({
          id: 'lookup',
          description: 'd',
          input: Type.Object({}),
          output: Type.Object({}),
          handler: () => {
            throw new ToolError({ code: 'tool_not_found', reason: 'unknown_tool', message: 'tool "x" is not registered' })
          },
        }),
      ],
    })
    expect(errorOf(await dispatcher.invoke({ tool_id: 'lookup', input: {} }))).toMatchObject({ code: 'tool_not_found', reason: 'unknown_tool', message: 'tool "x" is not registered' })
  })
})

describe('invoke: Object.prototype member names as input keys', () => {
  const tool = (calls: unknown[]) =>
    defineTool({
      id: 'proto_keys',
      description: 'd',
      input: Type.Object({ toString: Type.String(), constructor: Type.Optional(Type.String()) }, { additionalProperties: false }),
      output: Type.Object({}),
      handler: (input) => (calls.push(input), {}),
    })

  it('never counts an inherited member as present: a missing required "toString" is an input error', async () => {
    const calls: unknown[] = []
    const dispatcher = createDispatcher({ tools: [tool(calls)] })
    const error = errorOf(await dispatcher.invoke({ tool_id: 'proto_keys', input: {} }))
    expect(error.details!.issues).toEqual([expect.objectContaining({ keyword: 'required', params: { missingProperty: 'toString' } })])
    expect(calls).toEqual([])
  })

  it('accepts an absent optional "constructor" and own keys with those names', async () => {
    const calls: unknown[] = []
    const dispatcher = createDispatcher({ tools: [tool(calls)] })
    expect((await dispatcher.invoke({ tool_id: 'proto_keys', input: JSON.parse('{"toString":"a"}') })).status).toBe('ok')
    expect((await dispatcher.invoke({ tool_id: 'proto_keys', input: JSON.parse('{"toString":"a","constructor":"b"}') })).status).toBe('ok')
    expect(calls).toHaveLength(2)
  })
})
