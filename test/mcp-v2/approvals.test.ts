// Approvals through the protocol (docs/mcp.md "Approvals as `input_required`"), with the official
// v2 client, over the three transports: a call that needs approval answers `input_required` (an
// elicitation and a signed request state), and the client's retry resolves the pending approval
// under its rules. Every refusal is an `approval_invalid` result and the tool does not run: the
// `ops__runs` tool counts the deploy handler's runs, in process and in a child process alike.
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Client } from '@modelcontextprotocol/client'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createMemoryApprovalStores, type ApprovalStores } from 'result-views'
import { createMcpServerFactory, MCP_OUTCOME_META_KEY } from 'result-views/mcp-v2'
import { approvalDispatcher, DEPLOY, RUNS } from './support/approval-catalog.js'
import { connectHttp, connectInMemory, connectStdio, elicited, serveHttp, type ClientOptions, type V2Connection } from './support/connect.js'

/** Where a server runs: its key, owner profile and state lifetime. */
interface ServerSetup {
  readonly key?: Buffer
  readonly profile?: string
  readonly ttlMs?: number
}

/** One transport: connects a client to a server; in-process servers share one set of stores and one run counter. */
interface Harness {
  connect(server: ServerSetup, client: ClientOptions): Promise<V2Connection>
}

const sharedKey = randomBytes(32)
let stores: ApprovalStores
let runs: { count: number }
const open: (() => Promise<void>)[] = []

beforeEach(() => {
  stores = createMemoryApprovalStores()
  runs = { count: 0 }
})
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close()
})

/** A factory over the shared stores: every call of it is another instance of the same service. */
function factoryOf(server: ServerSetup) {
  return createMcpServerFactory(approvalDispatcher(stores, runs), {
    name: 'approvals',
    version: '1.0.0',
    scope: { workspace_id: 'ws_ops', profile_id: server.profile ?? 'prof_a' },
    approvalStateKey: server.key ?? sharedKey,
    ...(server.ttlMs === undefined ? {} : { approvalStateTtlMs: server.ttlMs }),
  })
}

const harnesses: Record<string, Harness> = {
  'in-memory': { connect: (server, client) => connectInMemory(factoryOf(server), client) },
  'stdio, child process': {
    connect: (server, client) =>
      connectStdio(
        'test/mcp-v2/support/approval-server.ts',
        {
          APPROVAL_STATE_KEY: (server.key ?? sharedKey).toString('base64'),
          PROFILE_ID: server.profile ?? 'prof_a',
          ...(server.ttlMs === undefined ? {} : { APPROVAL_STATE_TTL_MS: String(server.ttlMs) }),
        },
        client,
      ),
  },
  'stateless Streamable HTTP': {
    connect: async (server, client) => {
      const served = await serveHttp(factoryOf(server))
      const connection = await connectHttp(served.url, client)
      return {
        client: connection.client,
        close: async () => {
          await connection.close()
          await served.close()
        },
      }
    },
  },
}

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text: string }[]; _meta?: Record<string, unknown> }
type InputRequired = { resultType: 'input_required'; requestState: string; inputRequests: Record<string, { method: string; params: { requestedSchema: unknown } }> }

/** The first round by hand: the `input_required` answer of a deploy call. */
async function ask(client: Client, args: Record<string, unknown> = { env: 'prod' }): Promise<InputRequired> {
  const answer = (await client.callTool({ name: DEPLOY, arguments: args }, { allowInputRequired: true })) as unknown as InputRequired
  expect(answer.resultType).toBe('input_required')
  expect(Object.keys(answer.inputRequests)).toEqual(['approval'])
  expect(answer.inputRequests.approval!.method).toBe('elicitation/create')
  return answer
}

/** The retry by hand: `requestState` echoed and the answer to the approval question. */
async function retry(client: Client, requestState: string, decision = 'approve', args: Record<string, unknown> = { env: 'prod' }, name = DEPLOY): Promise<Result> {
  const params = { name, arguments: args, inputResponses: { approval: { action: 'accept', content: { decision } } }, requestState }
  return (await client.callTool(params as never, { allowInputRequired: true })) as unknown as Result
}

async function runsOf(client: Client): Promise<number> {
  const result = (await client.callTool({ name: RUNS, arguments: {} })) as unknown as Result
  return result.structuredContent!.runs as number
}

function outcomeOf(result: Result): Record<string, unknown> {
  return result._meta![MCP_OUTCOME_META_KEY] as Record<string, unknown>
}

function expectRefused(result: Result, reason: string): void {
  expect(result.isError).toBe(true)
  expect(outcomeOf(result)).toMatchObject({ status: 'error', code: 'approval_invalid', reason })
  expect(result.content[0]!.text).toMatch(new RegExp(`^approval_invalid \\(${reason}\\): approval request state for tool|^approval_invalid \\(${reason}\\): approval request state does not match`))
  expect(result).not.toHaveProperty('structuredContent')
}

/** The state with one character of part `index` (1 payload, 2 key ID, 3 MAC) changed. */
function tampered(state: string, index: number): string {
  const parts = state.split('.')
  const part = parts[index]!
  const at = Math.floor(part.length / 2)
  parts[index] = part.slice(0, at) + (part[at] === 'A' ? 'B' : 'A') + part.slice(at + 1)
  return parts.join('.')
}

for (const [transport, harness] of Object.entries(harnesses)) {
  describe(`approvals as input_required (SDK v2, ${transport})`, () => {
    const connect = async (server: ServerSetup = {}, client: ClientOptions = {}): Promise<Client> => {
      const connection = await harness.connect(server, client)
      open.push(connection.close)
      return connection.client
    }

    it('approve: the client asks the user once, the retry runs the tool once and returns its result', async () => {
      const client = await connect({}, { elicit: 'approve' })
      const result = (await client.callTool({ name: DEPLOY, arguments: { env: 'prod' } })) as unknown as Result
      expect(result.isError).toBeFalsy()
      expect(result.structuredContent).toEqual({ deployed: 'prod', run: 1 })
      expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ deployed: 'prod', run: 1 }) }])
      expect(outcomeOf(result)).toMatchObject({ status: 'ok' })
      expect(elicited.get(client)).toBe(1)
      expect(await runsOf(client)).toBe(1)
    })

    it('deny (and a declined elicitation): tool_denied / approval_rejected, and nothing runs', async () => {
      for (const elicit of ['deny', 'decline'] as const) {
        const client = await connect({}, { elicit })
        const result = (await client.callTool({ name: DEPLOY, arguments: { env: 'prod' } })) as unknown as Result
        expect(result.isError).toBe(true)
        expect(outcomeOf(result)).toMatchObject({ status: 'error', code: 'tool_denied', reason: 'approval_rejected', details: { source: 'elicitation' } })
        expect(result.content[0]!.text).toMatch(/^tool_denied \(approval_rejected\): tool "ops__deploy" invocation rejected by the user \(approval [0-9a-f-]{36}\)$/)
        expect(await runsOf(client)).toBe(0)
      }
    })

    it('a dismissed (canceled) elicitation leaves the approval pending: the pending-approval text, nothing runs', async () => {
      const client = await connect({}, { elicit: 'cancel' })
      const result = (await client.callTool({ name: DEPLOY, arguments: { env: 'prod' } })) as unknown as Result
      expect(result.isError).toBe(true)
      expect(result.content[0]!.text).toMatch(/^approval_pending: approval_id=[0-9a-f-]{36}: tool "ops__deploy" did not run/)
      expect(await runsOf(client)).toBe(0)
    })

    it('a client that cannot elicit gets the pending-approval text of today', async () => {
      const client = await connect({}, { elicit: 'none' })
      const result = (await client.callTool({ name: DEPLOY, arguments: { env: 'prod' } })) as unknown as Result
      expect(result.isError).toBe(true)
      expect(outcomeOf(result)).toMatchObject({ status: 'approval_pending' })
      expect(result.content[0]!.text).toMatch(/^approval_pending: approval_id=[0-9a-f-]{36}: tool "ops__deploy" did not run/)
      expect(await runsOf(client)).toBe(0)
    })

    it('replay: a state answered once is state_replayed the second time, and the tool ran once', async () => {
      const client = await connect({}, { elicit: 'approve', manual: true })
      const { requestState } = await ask(client)
      expect((await retry(client, requestState)).structuredContent).toEqual({ deployed: 'prod', run: 1 })
      expectRefused(await retry(client, requestState), 'state_replayed')
      expectRefused(await retry(client, requestState, 'deny'), 'state_replayed')
      expect(await runsOf(client)).toBe(1)
    })

    it('tamper: a changed payload, key ID or MAC is state_invalid, nothing runs, and the real state still works', async () => {
      const client = await connect({}, { elicit: 'approve', manual: true })
      const { requestState } = await ask(client)
      for (const index of [1, 2, 3]) expectRefused(await retry(client, tampered(requestState, index)), 'state_invalid')
      for (const junk of ['', 'rvs1', 'rvs1...', `${requestState}.x`, requestState.replace('rvs1', 'rvs2')]) expectRefused(await retry(client, junk), 'state_invalid')
      expect(await runsOf(client)).toBe(0)
      expect((await retry(client, requestState)).structuredContent).toEqual({ deployed: 'prod', run: 1 })
    })

    it('foreign: a state signed with another key is state_invalid', async () => {
      const other = await connect({ key: randomBytes(32) }, { elicit: 'approve', manual: true })
      const { requestState } = await ask(other)
      const client = await connect({}, { elicit: 'approve', manual: true })
      expectRefused(await retry(client, requestState), 'state_invalid')
      expect(await runsOf(client)).toBe(0)
    })

    it('expiry: a state past approvalStateTtlMs is state_expired and nothing runs', async () => {
      const client = await connect({ ttlMs: 1 }, { elicit: 'approve', manual: true })
      const { requestState } = await ask(client)
      await sleep(20)
      const result = await retry(client, requestState)
      expectRefused(result, 'state_expired')
      expect(outcomeOf(result).details).toMatchObject({ expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) })
      expect(await runsOf(client)).toBe(0)
    })

    it('another scope, input or tool: state_mismatch naming what differs, and nothing runs', async () => {
      const asked = await connect({ profile: 'prof_a' }, { elicit: 'approve', manual: true })
      const { requestState } = await ask(asked)
      const elsewhere = await connect({ profile: 'prof_b' }, { elicit: 'approve', manual: true })
      const scope = await retry(elsewhere, requestState)
      expectRefused(scope, 'state_mismatch')
      expect(outcomeOf(scope).details).toEqual({ mismatch: ['scope'] })
      const input = await retry(asked, requestState, 'approve', { env: 'staging' })
      expect(outcomeOf(input)).toMatchObject({ reason: 'state_mismatch', details: { mismatch: ['input'] } })
      const tool = await retry(asked, requestState, 'approve', { env: 'prod' }, RUNS)
      expect(outcomeOf(tool)).toMatchObject({ reason: 'state_mismatch', details: { mismatch: ['tool'] } })
      expect(await runsOf(asked)).toBe(0)
    })

    it('a concurrent double retry runs the tool once: one result, one state_replayed', async () => {
      const client = await connect({}, { elicit: 'approve', manual: true })
      const { requestState } = await ask(client)
      const results = await Promise.all([retry(client, requestState), retry(client, requestState)])
      const ok = results.filter((result) => result.isError !== true)
      expect(ok).toHaveLength(1)
      expect(ok[0]!.structuredContent).toEqual({ deployed: 'prod', run: 1 })
      expectRefused(results.find((result) => result.isError === true)!, 'state_replayed')
      expect(await runsOf(client)).toBe(1)
    })
  })
}

describe('approval states across instances (SDK v2, in memory)', () => {
  it('a state issued by one instance is answered by another that shares the key and the stores, nothing held in memory', async () => {
    const first = await connectInMemory(factoryOf({}), { elicit: 'approve', manual: true })
    open.push(first.close)
    const { requestState } = await ask(first.client)
    await first.close()
    open.pop()
    // A new dispatcher and a new factory: only the key and the stores are shared.
    const second = await connectInMemory(factoryOf({}), { elicit: 'approve', manual: true })
    open.push(second.close)
    expect((await retry(second.client, requestState)).structuredContent).toEqual({ deployed: 'prod', run: 1 })
  })

  it('a rotated key still verifies the states it signed (previousApprovalStateKeys)', async () => {
    const old = randomBytes(32)
    const before = await connectInMemory(factoryOf({ key: old }), { elicit: 'approve', manual: true })
    open.push(before.close)
    const { requestState } = await ask(before.client)
    const rotated = createMcpServerFactory(approvalDispatcher(stores, runs), {
      name: 'approvals',
      version: '1.0.0',
      scope: { workspace_id: 'ws_ops', profile_id: 'prof_a' },
      approvalStateKey: randomBytes(32),
      previousApprovalStateKeys: [old],
    })
    const after = await connectInMemory(rotated, { elicit: 'approve', manual: true })
    open.push(after.close)
    expect((await retry(after.client, requestState)).structuredContent).toEqual({ deployed: 'prod', run: 1 })
  })

  it('without approvalStateKey a call that needs approval keeps the pending-approval text, even for a client that can elicit', async () => {
    const factory = createMcpServerFactory(approvalDispatcher(stores, runs), { name: 'approvals', version: '1.0.0', scope: { workspace_id: 'ws_ops', profile_id: 'prof_a' } })
    const connection = await connectInMemory(factory, { elicit: 'approve' })
    open.push(connection.close)
    const result = (await connection.client.callTool({ name: DEPLOY, arguments: { env: 'prod' } })) as unknown as Result
    expect(result.content[0]!.text).toMatch(/^approval_pending: approval_id=/)
    expect(elicited.get(connection.client)).toBeUndefined()
  })
})
