// Secrets that contain one another are scrubbed longest first: scrubbing the shorter first would
// leave the rest of the longer one in the text ("[REDACTED]-efgh/5678"). Held for one field with
// a nested value (several texts, each with its forms) and for two fields, in either order.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { errorOf } from '../support/outcomes.js'

const SHORT = 'abcd/1234'
const LONG = 'abcd/1234-efgh/5678'

const dispatcher = createDispatcher({
  tools: [
    defineTool({
      id: 'vault__echo',
      description: 'throws a message quoting its secrets in every form',
      input: Type.Object({ a: Type.Unknown(), b: Type.Unknown() }),
      output: Type.Object({}),
      handler: (input) => {
        const texts = [JSON.stringify(input), encodeURIComponent(LONG), encodeURIComponent(SHORT), LONG.replaceAll('/', '~1'), LONG, SHORT]
        throw new Error(texts.join(' | '))
      },
    }),
  ],
})

describe('secrets that contain one another', () => {
  for (const [name, input, fields] of [
    ['two fields, short first', { a: SHORT, b: LONG }, ['a', 'b']],
    ['two fields, long first', { a: LONG, b: SHORT }, ['a', 'b']],
    ['one field holding both', { a: { x: SHORT, y: [LONG] }, b: null }, ['a']],
  ] as const) {
    it(`leave no part of the longer one: ${name}`, async () => {
      const message = errorOf(await dispatcher.invoke({ tool_id: 'vault__echo', input, sensitive_input_fields: [...fields] })).message
      expect(message).toContain('[REDACTED]')
      for (const part of ['efgh', '5678', '1234', 'abcd']) expect(message).not.toContain(part)
    })
  }
})
