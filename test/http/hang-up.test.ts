// A client that hangs up cancels the call it started: the handler's `context.signal` aborts.
import Type from 'typebox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { createHttpHandler } from 'result-views/http'
import { waitingTool } from '../support/waiting-tool.js'
import { fetchJson, serve, type Served } from './support.js'

const { tool: slow, running, abortSeen } = waitingTool()
const quick = defineTool({ id: 'quick', description: 'Answers at once.', input: Type.Object({}), output: Type.Object({ ok: Type.Boolean() }), handler: () => ({ ok: true }) })

let served: Served
beforeAll(async () => {
  served = await serve(createHttpHandler(createDispatcher({ tools: [slow, quick] })))
})
afterAll(async () => {
  await served.close()
})

describe('POST /tools/{tool_id}/invoke and a client that hangs up', () => {
  it("aborts the running handler's context.signal with call_aborted", async () => {
    const controller = new AbortController()
    const request = fetch(`${served.origin}/api/tools/slow__wait/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: {} }),
      signal: controller.signal,
    })
    await running
    controller.abort()
    await expect(request).rejects.toThrow()
    expect(await abortSeen).toMatchObject({ code: 'tool_execution_failed', reason: 'call_aborted', details: { handler_started: true } })
  })

  it('a call that finishes still answers 200 with its record (a closed, finished response aborts nothing)', async () => {
    const answer = await fetchJson(served.origin, 'POST', '/api/tools/quick/invoke', { input: {} })
    expect([answer.status, answer.body.result?.structured]).toEqual([200, { ok: true }])
  })
})
