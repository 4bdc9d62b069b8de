// The AI SDK adapter: an error a tool reports (reportToolError) is what the model reads as the
// tool's error text, `<code> (<reason>): <message>`, scrubbed of the call's sensitive values.
import { describe, expect, it } from 'vitest'
import { createDispatcher } from 'result-views'
import { isAiSdkToolError, toAiSdkTools } from 'result-views/ai'
import { thrownOrRejected } from '../support/outcomes.js'
import { SECRET, surfaceTools } from '../support/surface-tools.js'

describe('an error a tool reports, in the AI SDK', () => {
  it('rejects execute with the model-facing text and the outcome', async () => {
    const tools = toAiSdkTools(createDispatcher({ tools: surfaceTools() }))
    const execute = tools['tickets__get']!.execute!
    const error = await thrownOrRejected(() => execute({ ticket_id: 'T-1', outcome: 'resource_not_found', reason: 'ticket_not_found', secret_ref: SECRET }, { toolCallId: 'c1', messages: [] }))
    expect(isAiSdkToolError(error)).toBe(true)
    expect((error as Error).message).toBe('resource_not_found (ticket_not_found): ticket "T-1" cannot be read with [REDACTED]')
    expect((error as { outcome: unknown }).outcome).toMatchObject({ status: 'error', code: 'resource_not_found', reason: 'ticket_not_found' })
  })
})
