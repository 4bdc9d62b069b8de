// A secret that starts inside a "[REDACTED]" marker already in the text (here, one a handler wrote
// itself) and runs past it is scrubbed: skipping it as "part of the marker" would leave its rest.
import Type from 'typebox'
import { expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { errorOf } from '../support/outcomes.js'

const SECRET = ']sk-live-9f8e7d6c'

it('scrubs a secret that starts inside a marker already in the text', async () => {
  const dispatcher = createDispatcher({
    tools: [
      defineTool({
        id: 'vault__marker',
        description: 'throws a message that holds a marker and, right after it, the secret',
        input: Type.Object({ token: Type.String() }),
        output: Type.Object({}),
        handler: (input) => {
          throw new Error(`token [REDACTED${input.token}`)
        },
      }),
    ],
  })
  const message = errorOf(await dispatcher.invoke({ tool_id: 'vault__marker', input: { token: SECRET }, sensitive_input_fields: ['token'] })).message
  expect(message).not.toContain('sk-live-9f8e7d6c')
  expect(message).toContain('[REDACTED')
})
