// One approval token, 1,000 concurrent invocations over real HTTP: exactly one runs (the memory
// token store consumes a token atomically within one process), every other is refused as a replay.
// A pre-call hook holds every call until all 1,000 are in flight, so they reach the token check
// together (without it the fast in-memory path would serve them one after another).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createDispatcher, createPatternPolicy } from 'result-views'
import { createHttpHandler } from 'result-views/http'
import { countingCatalog, fetchJson, serve, type Served } from './support.js'

const CALLS = 1_000
const SCOPE = { workspace_id: 'ws-1', agent_name: 'runner', profile_id: 'prof-1' }
const catalog = countingCatalog()
const dispatcher = createDispatcher({ tools: catalog.tools, policy: createPatternPolicy({ owner: 'agent:runner', tools: ['*'], approval: 'always' }) })

let waiting = 0
let release: () => void = () => {}
const allArrived = new Promise<void>((done) => (release = done))
dispatcher.hook('tool.pre_call', async () => {
  if (++waiting === CALLS) release()
  await allArrived
})

let served: Served
let inFlight = 0
let peak = 0
beforeAll(async () => {
  const handler = createHttpHandler(dispatcher)
  served = await serve((request, response) => {
    peak = Math.max(peak, ++inFlight)
    response.on('close', () => inFlight--)
    handler(request, response)
  })
})
afterAll(() => served.close())

it('runs exactly one of 1,000 concurrent invocations that share one token', async () => {
  const input = { job: 'once' }
  const { token } = await dispatcher.approvals.mintApprovalToken({ tool_id: 'jobs__run', scope: SCOPE, input })
  const body = { input, scope: SCOPE, approval_token: token }
  const answers = await Promise.all(Array.from({ length: CALLS }, () => fetchJson(served.origin, 'POST', '/api/tools/jobs__run/invoke', body)))

  expect(peak).toBe(CALLS)
  expect(catalog.runs()).toBe(1)
  const statuses = new Map<number, number>()
  for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
  expect(Object.fromEntries(statuses)).toEqual({ 200: 1, 403: CALLS - 1 })
  const refusals = answers.filter((answer) => answer.status === 403).map((answer) => JSON.stringify(answer.body))
  expect(new Set(refusals)).toEqual(new Set([JSON.stringify({ error: { code: 'approval_invalid', reason: 'token_replayed', message: 'tool invocation denied' } })]))
})
