// Sensitive input fields over HTTP: a canary planted in input keys and values (with "/", "~", quotes
// and backslashes) never appears in any response body or log line, on success, on an input error,
// on a handler failure that quotes its input, or through a pending approval and its outcome.
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createDispatcher } from 'result-views'
import { createHttpHandler } from 'result-views/http'
import { findSecretLeak, secretCanaryArbitrary } from 'result-views/testing'
import { approveByMode, CANARY, CANARY_CORE, plantedInput, SENSITIVE_FIELDS, vaultTool } from '../support/canary-catalog.js'
import { fetchJson, recordingLogger, serve, type Answer, type Served } from './support.js'

const handlerLog = recordingLogger()
const dispatcherLog = recordingLogger()
const SCOPE = { workspace_id: 'ws-1', agent_name: 'agent', profile_id: 'prof-1' }
let served: Served
const seen: string[] = []

beforeAll(async () => {
  const dispatcher = createDispatcher({ tools: [vaultTool], policy: approveByMode, logger: dispatcherLog.logger })
  served = await serve(createHttpHandler(dispatcher, { logger: handlerLog.logger }))
})
afterAll(() => served.close())

async function call(method: string, path: string, body?: unknown): Promise<Answer> {
  const answer = await fetchJson(served.origin, method, path, body)
  seen.push(JSON.stringify(answer.body), [...answer.headers].join('\n'))
  return answer
}
const invoke = (input: Record<string, unknown>): Promise<Answer> => call('POST', '/api/tools/vault__use/invoke', { input, scope: SCOPE, sensitive_input_fields: SENSITIVE_FIELDS })
const planted = plantedInput

it('never shows a sensitive key or value in an answer or a log line', async () => {
  expect((await invoke(planted('ok'))).status).toBe(200)
  expect((await invoke(planted('fail'))).status).toBe(500)
  expect((await invoke({ ...planted('ok'), extra: CANARY })).status).toBe(400)
  expect((await invoke({ ...planted('ok'), [CANARY]: 1 })).status).toBe(400)

  const pending = await invoke(planted('approve'))
  expect(pending.status).toBe(202)
  const shown = await call('GET', `/api/tools/approvals/${pending.body.approval_id}?profile=prof-1`)
  expect(shown.body.approval.input).toEqual({ mode: 'approve', secret_ref: '[REDACTED]', nested: '[REDACTED]' })
  const resolved = await call('POST', `/api/tools/approvals/${pending.body.approval_id}/resolve?profile=prof-1`, { decision: 'approved' })
  expect(resolved.body.approval.outcome).toEqual({ status: 'ok', result: { structured: { ok: true }, preview: expect.any(String) } })

  const failing = await invoke(planted('approve-fail'))
  const failed = await call('POST', `/api/tools/approvals/${failing.body.approval_id}/resolve?profile=prof-1`, { decision: 'approved' })
  expect(failed.body.approval.outcome).toEqual({ status: 'error', error: { code: 'tool_execution_failed', reason: 'handler_failed', message: 'tool invocation failed' } })

  const everything = [...seen, JSON.stringify(handlerLog.lines), JSON.stringify(dispatcherLog.lines)].join('\n')
  expect(seen.length).toBeGreaterThan(10)
  expect(everything).not.toContain(CANARY_CORE)
})

it('property: no part of a generated canary, in any encoding, reaches an answer or a log line', { timeout: 60_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(secretCanaryArbitrary(), fc.constantFrom('ok', 'fail', 'extra', 'approve', 'approve-fail'), async (canary, mode) => {
      seen.length = 0
      handlerLog.lines.length = 0
      dispatcherLog.lines.length = 0
      const input = mode === 'extra' ? { ...planted('ok', canary), extra: canary } : planted(mode, canary)
      const answer = await invoke(input)
      if (mode.startsWith('approve')) {
        expect(answer.status).toBe(202)
        await call('GET', `/api/tools/approvals/${answer.body.approval_id}?profile=prof-1`)
        await call('POST', `/api/tools/approvals/${answer.body.approval_id}/resolve?profile=prof-1`, { decision: 'approved' })
      }
      const everything = [...seen, JSON.stringify(handlerLog.lines), JSON.stringify(dispatcherLog.lines)].join('\n')
      expect(seen.length).toBeGreaterThan(0)
      expect(findSecretLeak(everything, canary)).toBeUndefined()
    }),
    { numRuns: 40 },
  )
})
