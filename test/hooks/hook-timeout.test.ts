// The hook time budget (hookTimeoutMs): a pre-call handler past it fails the call closed; an
// observer past it is logged and the outcome kept.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { errorOf } from '../support/outcomes.js'

describe('hook time budget (hookTimeoutMs)', () => {

  const tool = (calls: unknown[]) => defineTool({ id: 'h', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => (calls.push(1), {}) })

  const never = () => new Promise<never>(() => {})

  it('fails a call closed when a pre-call hook does not answer in time', async () => {
    const calls: unknown[] = []
    const dispatcher = createDispatcher({ tools: [tool(calls)], hookTimeoutMs: 20, hooks: { 'tool.pre_call': never } })
    const error = errorOf(await dispatcher.invoke({ tool_id: 'h', input: {} }))
    expect([error.code, error.reason, error.message]).toEqual(['tool_hook_failed', 'hook_timeout', 'tool "h" pre-call hook did not answer within 20 ms'])
    expect(calls).toEqual([])
  })

  it('keeps the outcome when an observer does not answer in time, and logs it', async () => {
    const logged: unknown[] = []
    const logger = { debug() {}, info() {}, warn() {}, error: (fields: unknown) => void logged.push(fields) }
    const dispatcher = createDispatcher({ tools: [tool([])], hookTimeoutMs: 20, logger, hooks: { 'tool.post_call': never } })
    expect(await dispatcher.invoke({ tool_id: 'h', input: {} })).toMatchObject({ status: 'ok' })
    expect(logged).toEqual([expect.objectContaining({ event: 'tool.post_call', timed_out: true })])
  })
})
