// The handler's context: own data fields, and a signal made on first read.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, type ToolContext } from 'result-views'

const Record = Type.Object({ id: Type.String() })

describe("the handler's context", () => {
  it('holds the call fields as own data properties, result_view only for a viewed tool', async () => {
    const seen: ToolContext[] = []
    const viewed = defineTool({ id: 'v', description: 'd', input: Type.Object({}), output: { compact: Record, full: Record }, handler: (_input, context) => (seen.push(context), { id: 'a' }) })
    const single = defineTool({ id: 's', description: 'd', input: Type.Object({}), output: Record, handler: (_input, context) => (seen.push(context), { id: 'a' }) })
    const dispatcher = createDispatcher({ tools: [viewed, single] })
    await dispatcher.invoke({ tool_id: 'v', input: { result_view: 'full' }, tool_call_id: 'c-1', scope: { workspace_id: 'w' } })
    await dispatcher.invoke({ tool_id: 's', input: {}, tool_call_id: 'c-2' })
    expect({ ...seen[0] }).toEqual({ tool_id: 'v', tool_call_id: 'c-1', scope: { workspace_id: 'w' }, result_view: 'full' })
    expect({ ...seen[1] }).toEqual({ tool_id: 's', tool_call_id: 'c-2', scope: {} })
    expect('result_view' in seen[1]!).toBe(false)
  })

  it('gives one AbortSignal per call, the same on every read, aborted with the timeout error', async () => {
    let context: ToolContext | undefined
    const tool = defineTool({
      id: 'slow',
      description: 'd',
      input: Type.Object({}),
      output: Record,
      handlerTimeoutMs: 20,
      handler: (_input, given) => {
        context = given
        return new Promise<never>(() => undefined)
      },
    })
    const outcome = await createDispatcher({ tools: [tool] }).invoke({ tool_id: 'slow', input: {} })
    expect(outcome).toMatchObject({ status: 'error', error: { code: 'tool_execution_failed', reason: 'handler_timeout' } })
    const signal = context!.signal
    expect(signal).toBeInstanceOf(AbortSignal)
    expect(context!.signal).toBe(signal)
    expect(signal.aborted).toBe(true)
    expect(signal.reason).toMatchObject({ code: 'tool_execution_failed', reason: 'handler_timeout' })
  })

  it('aborts a signal read before the caller aborts the call, with call_aborted', async () => {
    let signal: AbortSignal | undefined
    const controller = new AbortController()
    const tool = defineTool({
      id: 'wait',
      description: 'd',
      input: Type.Object({}),
      output: Record,
      handler: (_input, context) => {
        signal = context.signal
        setTimeout(() => controller.abort(), 5)
        return new Promise<never>(() => undefined)
      },
    })
    const outcome = await createDispatcher({ tools: [tool] }).invoke({ tool_id: 'wait', input: {}, signal: controller.signal })
    expect(outcome).toMatchObject({ status: 'error', error: { reason: 'call_aborted' } })
    expect(signal!.aborted).toBe(true)
    expect(signal!.reason).toMatchObject({ reason: 'call_aborted' })
  })
})
