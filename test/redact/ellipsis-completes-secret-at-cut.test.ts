// Regression (break-it review): the `…` a cut adds could finish a secret that ends in `…`. A record
// string `x…xabcdzzzz` cut at 200 characters read `…xxabcd…`, holding the secret `abcd…`, and so
// did a marker cut in two (`[REDACTE…` holds `REDACTE…`). Text cut with an ellipsis is scrubbed
// again when a secret ends in one. A thrown message cut at 500 was already scrubbed again as the
// error's message; its test holds that.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'

function setup(secret: string) {
  const tool = defineTool({
    id: 'v',
    description: 'd',
    input: Type.Object({ token: Type.String(), text: Type.String(), fail: Type.Boolean() }),
    output: Type.Object({ a: Type.String() }),
    sensitiveInputFields: ['token'],
    handler: ({ text, fail }) => {
      if (fail) throw new Error(text)
      return { a: text }
    },
  })
  const dispatcher = createDispatcher({ tools: [tool] })
  return async (text: string, fail: boolean): Promise<string> => {
    const outcome = await dispatcher.invoke({ tool_id: 'v', input: { token: secret, text, fail }, scope: { workspace_id: 'w' } })
    if (outcome.status === 'approval_pending') throw new Error('unexpected pending approval')
    return outcome.status === 'ok' ? outcome.result.preview : outcome.error.message
  }
}

describe.each(['abcd…', 'REDACTE…'])('a secret ending in the ellipsis a cut adds (%s)', (secret) => {
  const rest = secret.slice(0, -1) + 'zzzz'
  it('is not finished by the default preview cut, wherever the cut falls', async () => {
    const run = setup(secret)
    for (let pad = 170; pad <= 210; pad++) {
      for (const text of ['x'.repeat(pad) + rest, 'x'.repeat(pad) + secret + 'y'.repeat(30)]) {
        expect(await run(text, false)).not.toContain(secret)
      }
    }
  })

  it('is not finished by the thrown message cut, wherever the cut falls', async () => {
    const run = setup(secret)
    for (let pad = 470; pad <= 510; pad++) {
      for (const text of ['x'.repeat(pad) + rest, 'x'.repeat(pad) + secret + 'y'.repeat(30)]) expect(await run(text, true)).not.toContain(secret)
    }
  })
})
