// Several instances, one PostgreSQL: three hosts as child processes on loopback ports
// (test/postgres/fixtures/instance.ts: HTTP under /api and MCP v2 under /mcp, the PostgreSQL
// approval stores and continuation store, shared seal and request-state keys), migrated once, and
// clients that go round-robin over them, as a load balancer would send them.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrate } from 'result-views/postgres'
import { dumpRecord, extraTables, SCOPE } from './fixtures/instance-catalog.js'
import { useTestDatabase } from './support/database.js'
import { startInstance, type Instance } from './support/instances.js'

const db = useTestDatabase('instances')
const tablePrefix = 'multi_'
let env: Record<string, string>
let instances: Instance[]

beforeAll(async () => {
  // One migration run for the deploy, before any instance starts.
  await migrate({ pool: db.pool, tablePrefix })
  await db.pool.query(extraTables(tablePrefix))
  env = { DATABASE_URL: db.url, TABLE_PREFIX: tablePrefix, SEAL_KEY: randomBytes(32).toString('base64'), STATE_KEY: randomBytes(32).toString('base64'),
    // 2,000 calls in flight per instance queue for its 20 connections on a loaded 2-core machine: the
    // default 5 s bound of a store call (503 store_timeout) and the pool's 10 s connection timeout
    // (503 store_failed) would fail the late ones closed.
    APPROVALS_TIMEOUT_MS: '60000',
    POOL_CONNECT_TIMEOUT_MS: '60000',
  }
  instances = await Promise.all(['A', 'B', 'C'].map((name) => startInstance(name, env)))
}, 120_000)

type Reply = { status: number; body: any }

async function call(instance: Instance, method: string, path: string, body?: unknown): Promise<Reply> {
  const response = await fetch(instance.origin + path, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) })
  return { status: response.status, body: await response.json() }
}

const invoke = (instance: Instance, tool: string, input: unknown, extra: Record<string, unknown> = {}) => call(instance, 'POST', `/api/tools/${tool}/invoke`, { input, scope: SCOPE, ...extra })
const runsOf = async (target: string): Promise<string[]> =>
  (await db.pool.query<{ instance: string }>(`SELECT instance FROM "${tablePrefix}runs" WHERE target = $1 ORDER BY n`, [target])).rows.map((row) => row.instance)

describe('three instances on one PostgreSQL', () => {
  it('answer list, describe and invoke the same on every instance', async () => {
    const answers = await Promise.all(
      instances.map(async (instance) => [
        await call(instance, 'GET', '/api/tools'),
        await call(instance, 'GET', '/api/tools/docs__dump'),
        await invoke(instance, 'util__echo', { text: 'same' }, { tool_call_id: 'same-call' }),
      ]),
    )
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0])
    expect(answers[0]!.map((reply) => reply.status)).toEqual([200, 200, 200])
  })

  it('a result cut into parts on A is read back part by part from B and C, and rejoins byte-exact', async () => {
    const first = await invoke(instances[0]!, 'docs__dump', { count: 200 })
    expect(first.status).toBe(200)
    let part = first.body.result_part
    const texts: string[] = [part.result_part]
    const readers: string[] = []
    for (let i = 0; part.continuation !== undefined; i++) {
      const reader = instances[1 + (i % 2)]!
      const next = await call(reader, 'POST', '/api/results/continue', { continuation: part.continuation, scope: SCOPE })
      expect(next.status, JSON.stringify(next.body)).toBe(200)
      part = next.body.result_part
      texts.push(part.result_part)
      readers.push(reader.name)
    }
    expect(new Set(readers)).toEqual(new Set(['B', 'C']))
    expect(Buffer.from(texts.join(''), 'utf8').equals(Buffer.from(JSON.stringify(dumpRecord(200)), 'utf8'))).toBe(true)
    // Another scope reads nothing of it, on any instance.
    const foreign = await call(instances[2]!, 'POST', '/api/results/continue', { continuation: first.body.result_part.continuation, scope: { workspace_id: 'ws_other' } })
    expect([foreign.status, foreign.body.error.reason]).toEqual([403, 'continuation_scope_mismatch'])
  })

  it('a token minted on A, raced by 20 clients on B and 20 on C, runs exactly once', async () => {
    const target = `token-${randomBytes(4).toString('hex')}`
    const minted = await call(instances[0]!, 'POST', '/admin/mint', { tool_id: 'ops__deploy', input: { target } })
    expect(minted.status).toBe(200)
    const racers = Array.from({ length: 40 }, (_, i) => invoke(instances[1 + (i % 2)]!, 'ops__deploy', { target }, { approval_token: minted.body.token }))
    const replies = await Promise.all(racers)
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1)
    for (const reply of replies.filter((r) => r.status !== 200)) expect([reply.status, reply.body.error.code]).toEqual([403, 'approval_invalid'])
    expect(await runsOf(target)).toHaveLength(1)
  })

  it('a pending approval opened on A and resolved on B (raced by C) runs once, and the status read on C says so', async () => {
    const target = `pending-${randomBytes(4).toString('hex')}`
    const opened = await invoke(instances[0]!, 'ops__deploy', { target })
    expect(opened.status).toBe(202)
    const id = opened.body.approval_id as string
    const resolve = (instance: Instance) => call(instance, 'POST', `/api/tools/approvals/${id}/resolve?profile=${SCOPE.profile_id}`, { decision: 'approved' })
    const [onB, onC] = await Promise.all([resolve(instances[1]!), resolve(instances[2]!)])
    const [won, lost] = onB.status === 200 ? [onB, onC] : [onC, onB]
    expect(won.status, JSON.stringify(won.body)).toBe(200)
    expect([lost.status, lost.body.error.code, lost.body.error.reason]).toEqual([403, 'approval_state', 'approval_resolved'])
    expect(await runsOf(target)).toHaveLength(1)
    const shown = await call(instances[2]!, 'GET', `/api/tools/approvals/${id}?profile=${SCOPE.profile_id}`)
    expect(shown.status).toBe(200)
    expect(shown.body.approval).toMatchObject({ status: 'approved', execution_status: 'completed', outcome: { status: 'ok', result: { structured: { deployed: target } } } })
  })

  it('a grant set on C applies to the next call on A', async () => {
    const workspace_id = `ws_grant_${randomBytes(3).toString('hex')}`
    const target = `grant-${workspace_id}`
    const before = await call(instances[0]!, 'POST', '/api/tools/ops__deploy/invoke', { input: { target }, scope: { ...SCOPE, workspace_id } })
    expect(before.status).toBe(202)
    const grant = await call(instances[2]!, 'PUT', `/api/tool-approval-grants?workspace_id=${workspace_id}`, { tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' })
    expect(grant.status).toBe(200)
    const after = await call(instances[0]!, 'POST', '/api/tools/ops__deploy/invoke', { input: { target }, scope: { ...SCOPE, workspace_id } })
    expect([after.status, after.body.result?.structured]).toEqual([200, { deployed: target, instance: 'A' }])
  })

  describe('MCP v2 (stateless Streamable HTTP) across instances', () => {
    const clients: Client[] = []
    afterAll(async () => {
      await Promise.all(clients.map((client) => client.close()))
    })
    async function connect(instance: Instance): Promise<Client> {
      // The 2026-07-28 revision (stateless: every request may reach any instance); input_required handed back to the test.
      const client = new Client({ name: 'several-instances', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } }, inputRequired: { autoFulfill: false } } as never)
      await client.connect(new StreamableHTTPClientTransport(new URL(`${instance.origin}/mcp`)))
      clients.push(client)
      return client
    }
    type Result = { isError?: boolean; structuredContent?: any; content: Array<{ text: string }>; _meta?: Record<string, any>; resultType?: string; requestState?: string }
    const retry = (client: Client, target: string, requestState: string) =>
      client.callTool({ name: 'ops__deploy', arguments: { target }, inputResponses: { approval: { action: 'accept', content: { decision: 'approve' } } }, requestState } as never, { allowInputRequired: true } as never) as Promise<unknown> as Promise<Result>

    it('an input_required approval asked on A and answered through B and C at once runs exactly once; the loser is state_replayed', async () => {
      const [a, b, c] = [await connect(instances[0]!), await connect(instances[1]!), await connect(instances[2]!)]
      const target = `mcp-${randomBytes(4).toString('hex')}`
      const asked = (await a.callTool({ name: 'ops__deploy', arguments: { target } }, { allowInputRequired: true } as never)) as unknown as Result
      expect(asked.resultType).toBe('input_required')
      const [onB, onC] = await Promise.all([retry(b, target, asked.requestState!), retry(c, target, asked.requestState!)])
      const answers = [onB, onC]
      expect(answers.filter((answer) => answer.isError !== true).map((answer) => answer.structuredContent.deployed)).toEqual([target])
      const loser = answers.find((answer) => answer.isError === true)!
      expect(JSON.stringify(loser._meta)).toContain('state_replayed')
      expect(await runsOf(target)).toHaveLength(1)
    })

    it('a result cut on A over MCP continues through result_continue on B and C', async () => {
      const [a, b, c] = [await connect(instances[0]!), await connect(instances[1]!), await connect(instances[2]!)]
      const first = (await a.callTool({ name: 'docs__dump', arguments: { count: 200 } })) as unknown as Result
      let part = first.structuredContent
      const texts = [part.result_part as string]
      for (let i = 0; part.continuation !== undefined; i++) {
        const next = (await (i % 2 === 0 ? b : c).callTool({ name: 'result_continue', arguments: { continuation: part.continuation } })) as unknown as Result
        expect(next.isError, next.content[0]?.text).not.toBe(true)
        part = next.structuredContent
        texts.push(part.result_part)
      }
      expect(texts.length).toBeGreaterThan(2)
      expect(texts.join('')).toBe(JSON.stringify(dumpRecord(200)))
    })
  })

  it('load: 3 × 2,000 concurrent requests, 0 errors (p50/p99 printed, not asserted)', async () => {
    const latencies: number[] = []
    const outcomes = new Map<string, number>()
    // CPU of the instances (utime + stime of /proc/<pid>/stat, in clock ticks of 10 ms): a figure the machine's load does not inflate.
    const ticks = () => instances.map((instance) => readFileSync(`/proc/${instance.pid}/stat`, 'utf8').split(') ')[1]!.split(' ').slice(11, 13).reduce((sum, field) => sum + Number(field), 0))
    const before = ticks()
    const started = performance.now()
    const cpu = process.cpuUsage()
    await Promise.all(
      Array.from({ length: 6_000 }, async (_, i) => {
        const at = performance.now()
        const reply = await call(instances[i % 3]!, 'POST', '/api/tools/util__echo/invoke', { input: { text: `load-${i}` }, scope: SCOPE })
        latencies.push(performance.now() - at)
        const outcome = reply.status === 200 ? '200' : `${reply.status} ${reply.body.error?.code}/${reply.body.error?.reason}`
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
        if (reply.status === 200) expect(reply.body.result.structured).toEqual({ echo: `load-${i}` })
      }),
    )
    const wall = performance.now() - started
    const used = process.cpuUsage(cpu)
    const instanceCpuMs = ticks().map((after, i) => (after - before[i]!) * 10)
    latencies.sort((x, y) => x - y)
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1)
    console.info(
      `several instances load: 6000 requests (3 × 2000 in flight, scope with workspace: a grant lookup each), wall ${wall.toFixed(0)} ms, ` +
        `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms, client CPU ${((used.user + used.system) / 1000).toFixed(0)} ms, ` +
        `instance CPU ${instanceCpuMs.join(' / ')} ms (${(instanceCpuMs.reduce((a, b) => a + b, 0) / 6_000).toFixed(2)} ms per request), load average ${loadavg()[0]!.toFixed(1)}, outcomes ${JSON.stringify([...outcomes])}`,
    )
    expect([...outcomes]).toEqual([['200', 6_000]])
  })

  it('kill -9 of one instance under load: the others keep serving, no acknowledged write is lost, the killed one’s in-flight calls end typed on retry', async () => {
    const victim = instances[0]!
    const cut = await invoke(victim, 'docs__dump', { count: 200 })
    expect(cut.body.result_part.continuation).toBeDefined()
    const acknowledged: string[] = []
    const retried: string[] = []
    const survivorFailures: string[] = []
    let killed = false
    const write = async (i: number): Promise<void> => {
      const id = `note-${i}`
      const first = instances[i % 3]!
      try {
        const reply = await invoke(first, 'notes__add', { id })
        if (reply.status === 200) return void acknowledged.push(id)
        if (first !== victim) survivorFailures.push(`${id}: ${reply.status}`)
      } catch (error) {
        // The connection to the killed instance broke: the balancer's retry goes to another instance.
        if (first !== victim) survivorFailures.push(`${id}: ${String(error)}`)
      }
      if (first !== victim) return
      const again = await invoke(instances[1 + (i % 2)]!, 'notes__add', { id })
      expect(again.status, JSON.stringify(again.body)).toBe(200)
      retried.push(id)
      acknowledged.push(id)
    }
    const writes: Promise<void>[] = []
    for (let i = 0; i < 1_500; i++) {
      writes.push(write(i))
      if (i === 600) {
        process.kill(victim.pid, 'SIGKILL')
        killed = true
      }
      if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve))
    }
    await Promise.all(writes)
    await victim.exited
    expect(killed).toBe(true)
    expect(victim.process.signalCode).toBe('SIGKILL')
    expect(survivorFailures).toEqual([])
    expect(retried.length).toBeGreaterThan(0)
    const { rows } = await db.pool.query<{ id: string }>(`SELECT id FROM "${tablePrefix}notes" WHERE id = ANY($1)`, [acknowledged])
    expect(rows).toHaveLength(acknowledged.length)
    expect(acknowledged).toHaveLength(1_500)
    // The survivors still answer, and a handle the killed instance issued is read on them.
    expect((await invoke(instances[1]!, 'util__echo', { text: 'after' })).status).toBe(200)
    const rest = await call(instances[2]!, 'POST', '/api/results/continue', { continuation: cut.body.result_part.continuation, scope: SCOPE })
    expect([rest.status, rest.body.result_part?.part]).toEqual([200, 2])
  })
})
