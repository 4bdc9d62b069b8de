// Never a secret in telemetry: a canary in a sensitive input field, in a handler's thrown message,
// in a reported error's reason and message, and in the result never appears in any span name,
// attribute, event, link, status or metric point, whatever the call's fate (ok, failed, pending,
// approved, denied). The leak finder looks for the canary in every encoding the library knows.
import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, ToolError } from 'result-views'
import { createOtelTelemetry } from 'result-views/otel'
import { findSecretLeak, secretCanaryArbitrary } from 'result-views/testing'
import { otelHarness } from './support.js'

/** A tool that answers by `mode`: echo the token into its record, throw it, report it, or wait for an approval. */
function canaryTools() {
  const input = Type.Object({ token: Type.String(), mode: Type.String() })
  const output = Type.Object({ echoed: Type.String() })
  const handler = (given: { token: string; mode: string }) => {
    if (given.mode === 'throw') throw new Error(`could not use ${given.token}`)
    if (given.mode === 'report') throw new ToolError({ code: 'tool_not_found', reason: given.token, message: `no such thing as ${given.token}` })
    return { echoed: given.token }
  }
  return [
    defineTool({ id: 'vault__use', description: 'Use a token.', input, output, sensitiveInputFields: ['token'], handler }),
    defineTool({ id: 'vault__rotate', description: 'Rotate a token.', input, output, sensitiveInputFields: ['token'], approval: 'required', handler }),
  ]
}

describe('telemetry never records a secret', () => {
  it('a canary in a sensitive field, a thrown message, a reported reason and the result stays out of spans and metrics', async () => {
    await fc.assert(
      fc.asyncProperty(secretCanaryArbitrary(), fc.boolean(), async (canary, digest) => {
        const harness = otelHarness()
        try {
          const dispatcher = createDispatcher({
            tools: canaryTools(),
            telemetry: createOtelTelemetry({ tracer: harness.tracer, meter: harness.meter, recordInputDigest: digest, recordSizes: true, stages: digest ? 'spans' : 'events' }),
          })
          const scope = { profile_id: 'owner' }
          const outcomes = []
          for (const mode of ['echo', 'throw', 'report']) outcomes.push(await dispatcher.invoke({ tool_id: 'vault__use', input: { token: canary, mode }, scope }))
          // The call's own sensitive field, named by the caller.
          outcomes.push(await dispatcher.invoke({ tool_id: 'vault__use', input: { token: 'x', mode: 'echo', note: canary }, sensitive_input_fields: ['note'], scope }))
          const pending = await dispatcher.invoke({ tool_id: 'vault__rotate', input: { token: canary, mode: 'echo' }, scope })
          const denied = await dispatcher.invoke({ tool_id: 'vault__rotate', input: { token: canary, mode: 'throw' }, scope })
          if (pending.status !== 'approval_pending' || denied.status !== 'approval_pending') throw new Error('expected pending approvals')
          await dispatcher.approvals.resolve(pending.approval_id, { profile_id: 'owner', decision: 'approved' })
          await dispatcher.approvals.resolve(denied.approval_id, { profile_id: 'owner', decision: 'denied' })
          // The calls did run with the canary (so a leak had its chance).
          expect(outcomes[0]!.status === 'ok' && (outcomes[0]!.result.structured as { echoed: string }).echoed).toBe(canary)
          const text = await harness.everything()
          expect(text).toContain('execute_tool vault__use')
          expect(findSecretLeak(text, canary)).toBeUndefined()
        } finally {
          await harness.provider.shutdown()
        }
      }),
      { numRuns: 15 },
    )
  })
})
