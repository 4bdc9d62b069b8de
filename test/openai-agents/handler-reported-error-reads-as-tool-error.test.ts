// The OpenAI Agents adapter: an error a tool reports (reportToolError) is the text the model
// reads, `<code> (<reason>): <message>`, scrubbed of the call's sensitive values.
import { RunContext } from '@openai/agents'
import { describe, expect, it } from 'vitest'
import { createDispatcher } from 'result-views'
import { toAgentsTools } from 'result-views/openai-agents'
import { SECRET, surfaceTools } from '../support/surface-tools.js'

describe('an error a tool reports, in OpenAI Agents', () => {
  it('answers the model with code, reason and the scrubbed message', async () => {
    const tool = toAgentsTools(createDispatcher({ tools: surfaceTools() })).find((t) => t.name === 'tickets__get')!
    const text = await tool.invoke(new RunContext(), JSON.stringify({ ticket_id: 'T-1', outcome: 'resource_conflict', reason: 'ticket_closed', secret_ref: SECRET }))
    expect(text).toBe('resource_conflict (ticket_closed): ticket "T-1" cannot be read with [REDACTED]')
  })
})
