// Regression (final read of the change): runLoop read its options by destructuring, so a misspelt
// `input` (for `inputs`) or `scopes` ran the Loop without them. They are refused by the options
// reader, with the key it was likely meant to be.
import { describe, expect, it } from 'vitest'
import { createDispatcher } from 'result-views'
import { runLoop } from 'result-views/loop'

const definition = { graph: { nodes: [], edges: [] } }

describe('runLoop options', () => {
  it('refuses a misspelt option with loop_options_invalid / unknown_option and a suggestion', async () => {
    const dispatcher = createDispatcher({ tools: [] })
    await expect(runLoop(definition as never, { dispatcher, input: {} } as never)).rejects.toThrow(
      expect.objectContaining({ code: 'loop_options_invalid', problems: [expect.objectContaining({ path: '/input', code: 'unknown_option', message: expect.stringContaining('"inputs"') })] }),
    )
  })
})
