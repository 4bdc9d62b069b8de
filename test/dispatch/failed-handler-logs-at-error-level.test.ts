// createDispatcher({ logger: console }) logged nothing for a failed handler: a failure is now logged
// at error level, scrubbed of the call's sensitive input values.
import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, type Logger } from 'result-views'
import { findSecretLeak, secretCanaryArbitrary } from 'result-views/testing'

type Line = { level: keyof Logger; fields: Record<string, unknown>; message: string }

function capturingLogger(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = []
  const at = (level: keyof Logger) => (fields: Record<string, unknown>, message: string): void => void lines.push({ level, fields, message })
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } }
}

const failing = defineTool({
  id: 'vault__use',
  description: 'uses a secret and fails',
  input: Type.Object({ secret_ref: Type.String() }),
  output: Type.Object({}),
  sensitiveInputFields: ['secret_ref'],
  handler: (input) => {
    throw new TypeError(`failed with ${input.secret_ref}`)
  },
})

describe('a failed handler is logged at error level', () => {
  it('logs tool.call_failed with the tool, the call, code and reason, scrubbed of the secret', async () => {
    const { logger, lines } = capturingLogger()
    const dispatcher = createDispatcher({ tools: [failing], logger })
    const secret = 'vault://provider/token-XYZ123'
    const outcome = await dispatcher.invoke({ tool_id: 'vault__use', tool_call_id: 'call-1', input: { secret_ref: secret } })
    expect(outcome.status).toBe('error')
    expect(lines).toHaveLength(1)
    const [line] = lines
    expect(line!.level).toBe('error')
    expect(line!.fields).toEqual({ event: 'tool.call_failed', tool_id: 'vault__use', tool_call_id: 'call-1', code: 'tool_execution_failed', reason: 'handler_failed', error: 'TypeError' })
    expect(line!.message).toBe('tool "vault__use" failed: failed with [REDACTED]')
    expect(JSON.stringify(lines)).not.toContain('XYZ123')
  })

  it('never logs any part of a canary secret', async () => {
    await fc.assert(
      fc.asyncProperty(secretCanaryArbitrary(), async (canary) => {
        const { logger, lines } = capturingLogger()
        const dispatcher = createDispatcher({ tools: [failing], logger })
        await dispatcher.invoke({ tool_id: 'vault__use', input: { secret_ref: canary } })
        expect(lines.map((l) => l.level)).toEqual(['error'])
        expect(findSecretLeak(JSON.stringify(lines), canary)).toBeUndefined()
      }),
      { numRuns: 50 },
    )
  })

  it('logs a timed-out handler, and no input error or denial', async () => {
    const { logger, lines } = capturingLogger()
    const slow = defineTool({ id: 'slow', description: 'd', input: Type.Object({}, { additionalProperties: false }), output: Type.Object({}), handlerTimeoutMs: 5, handler: () => new Promise(() => {}) })
    const dispatcher = createDispatcher({ tools: [slow], logger })
    await dispatcher.invoke({ tool_id: 'slow', input: { bogus: 1 } })
    await dispatcher.invoke({ tool_id: 'nope', input: {} })
    expect(lines).toEqual([])
    await dispatcher.invoke({ tool_id: 'slow', input: {} })
    expect(lines.map((l) => [l.level, l.fields.reason])).toEqual([['error', 'handler_timeout']])
  })

  it('keeps the outcome when the logger throws', async () => {
    const throwing: Logger = { debug() {}, info() {}, warn() {}, error() { throw new Error('logger down') } }
    const outcome = await createDispatcher({ tools: [failing], logger: throwing }).invoke({ tool_id: 'vault__use', input: { secret_ref: 'abcd-1234' } })
    expect(outcome.status === 'error' && outcome.error.reason).toBe('handler_failed')
  })
})
