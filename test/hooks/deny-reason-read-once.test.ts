// A pre-call hook's denial is read once: a deny_reason getter answers one reason, the one shown.
import Type from 'typebox'
import { expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { errorOf } from '../support/outcomes.js'

it('reads a denial’s deny_reason once', async () => {
  let reads = 0
  const dispatcher = createDispatcher({
    tools: [defineTool({ id: 'probe__t', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })],
    hooks: {
      'tool.pre_call': () =>
        ({
          deny: true,
          get deny_reason() {
            reads++
            return reads === 1 ? 'first' : 42
          },
        }) as never,
    },
  })
  const error = errorOf(await dispatcher.invoke({ tool_id: 'probe__t', input: {} }))
  expect(reads).toBe(1)
  expect([error.reason, error.message]).toEqual(['hook_denied', 'tool "probe__t" invocation denied by a pre-call hook: first'])
})
