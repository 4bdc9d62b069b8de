// What a handler throws or returns never makes invoke reject: every case ends as a typed outcome.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { errorOf } from '../support/outcomes.js'

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

  it('turns a native promise whose constructor getter throws into tool_output_invalid (its answer cannot be read)', async () => {
    const handler = () =>
      Object.defineProperty(Promise.resolve({}), 'constructor', {
        get() {
          throw new Error('constructor getter')
        },
      })
    const error = errorOf(await toolThat(handler).invoke({ tool_id: 't', input: {} }))
    expect([error.code, error.reason, error.details]).toEqual(['tool_output_invalid', 'output_schema_invalid', { pointer: '', problem: 'unreadable' }])
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
