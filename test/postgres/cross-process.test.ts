// The stores shared by several processes, each with its own pool (test/postgres/fixtures/worker.ts):
// single use, one run per pending approval (sealed sensitive inputs included), grants seen at once,
// and no committed grant lost to a SIGKILL.
import { createHash, randomBytes } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { REDACTED, createDispatcher, grantKeyText, type ApprovalGrant } from 'result-views'
import { POSTGRES_APPROVAL_SCHEMA_VERSION, createPostgresApprovalStores, migrate, type PostgresApprovalStores } from 'result-views/postgres'
import { SCOPE, deployTool } from '../approval/fixtures.js'
import { useTestDatabase } from './support/database.js'
import { startWorker, type Worker } from './support/workers.js'

const db = useTestDatabase('cross')
const tablePrefix = 'cross_'
const RACES = 1_000
/** The seal key, and the one a rotation moves to. */
const [OLD_KEY, NEW_KEY] = [randomBytes(32), randomBytes(32)]
/** The seal keys a worker's dispatcher gets (base64): the seal key, then older ones that only open. */
const KEYS = {
  old: [OLD_KEY.toString('base64')],
  rotated: [NEW_KEY.toString('base64'), OLD_KEY.toString('base64')],
  newOnly: [NEW_KEY.toString('base64')],
}
let stores: PostgresApprovalStores
let workers: Worker[]

beforeAll(async () => {
  await migrate({ pool: db.pool, tablePrefix })
  stores = createPostgresApprovalStores({ pool: db.pool, tablePrefix })
  workers = await Promise.all(Array.from({ length: 4 }, () => startWorker(db.url, tablePrefix)))
})

const parent = () => createDispatcher({ tools: [deployTool()], approvals: stores })
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

/** Mints `count` tokens for ops__deploy {target: 'prod'} through the parent's dispatcher, 20 at a time. */
async function mintTokens(count: number): Promise<string[]> {
  const dispatcher = parent()
  const out: string[] = []
  for (let i = 0; i < count; i += 20) {
    const batch = await Promise.all(Array.from({ length: Math.min(20, count - i) }, () => dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' }, ttlMs: 600_000 })))
    out.push(...batch.map((minted) => minted.token))
  }
  return out
}

/** Inserts `count` token records straight into the store; returns their hashes. */
async function insertTokenRecords(count: number): Promise<string[]> {
  const hashes = Array.from({ length: count }, () => randomBytes(32).toString('hex'))
  const now = Date.now()
  for (let i = 0; i < count; i += 50) {
    await Promise.all(
      hashes.slice(i, i + 50).map((token_hash) =>
        stores.tokens.insert({ token_hash, tool_id: 'ops__deploy', input_digest: 'sha256:' + '1'.repeat(64), created_at: new Date(now).toISOString(), expires_at: new Date(now + 600_000).toISOString() }),
      ),
    )
  }
  return hashes
}

describe.each([2, 4])('%i processes racing each of 1,000 tokens', (processes) => {
  it('through the dispatcher: exactly one call per token runs, every other is token_replayed', async () => {
    const tokens = await mintTokens(RACES)
    const racers = workers.slice(0, processes)
    // Batches of 50 sent to every racer at once, so that no process runs ahead of the others for
    // long: the racers meet on the same tokens, and many losers pass the dispatcher's read of the
    // record and lose at the consume statement (both reach token_replayed).
    const reasons: string[][] = racers.map(() => [])
    let lostAtConsume = 0
    for (let i = 0; i < tokens.length; i += 50) {
      const batch = await Promise.all(racers.map((worker) => worker.send<{ reasons: string[]; consumes_lost: number }>('invokeTokens', { tokens: tokens.slice(i, i + 50) })))
      batch.forEach((result, w) => reasons[w]!.push(...result.reasons))
      lostAtConsume += batch.reduce((sum, result) => sum + result.consumes_lost, 0)
    }
    for (let t = 0; t < tokens.length; t++) {
      expect(reasons.map((r) => r[t]).sort(), `token ${t}`).toEqual(['ok', ...Array.from({ length: processes - 1 }, () => 'token_replayed')])
    }
    // The racers met: some losers were refused by the database's consume, not by an earlier read.
    expect(lostAtConsume).toBeGreaterThan(0)
    const { rows } = await db.pool.query(`SELECT count(*)::int AS consumed FROM "${tablePrefix}approval_tokens" WHERE token_hash = ANY($1) AND consumed_at IS NOT NULL`, [tokens.map(sha256)])
    expect(rows[0].consumed).toBe(RACES)
  })

  it('on the consume statement itself: every process runs it for every token, exactly one wins each', async () => {
    const hashes = await insertTokenRecords(RACES)
    const at = new Date().toISOString()
    const results = await Promise.all(workers.slice(0, processes).map((worker) => worker.send<boolean[]>('consume', { hashes, at })))
    for (let t = 0; t < hashes.length; t++) expect(results.filter((r) => r[t] === true), `token ${t}`).toHaveLength(1)
    expect(results.flat().filter((won) => won === true)).toHaveLength(RACES)
  })
})

describe('pending approvals across processes', () => {
  it('two processes approving the same 40 pending approvals at once: each tool call runs exactly once', async () => {
    const dispatcher = parent()
    const targets = Array.from({ length: 40 }, (_, i) => `target-${i}`)
    const ids: string[] = []
    for (const target of targets) {
      const outcome = await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target }, scope: SCOPE })
      expect(outcome.status).toBe('approval_pending')
      ids.push((outcome as { approval_id: string }).approval_id)
    }
    const [a, b] = await Promise.all(workers.slice(0, 2).map((worker) => worker.send<{ outcomes: string[]; runs: Array<{ target: string }> }>('resolve', { approval_ids: ids })))
    for (let i = 0; i < ids.length; i++) expect([a!.outcomes[i], b!.outcomes[i]].sort(), ids[i]).toEqual(['approval_resolved', 'completed'])
    expect([...a!.runs, ...b!.runs].map((run) => run.target).sort()).toEqual([...targets].sort())
    for (const id of ids) expect((await stores.pending.get(id))?.state).toBe('completed')
  })

  it('an approval with a sensitive input field opened in one process is refused in another and stays pending: the tool never runs there', async () => {
    const opener = parent()
    const outcome = await opener.invoke({ tool_id: 'ops__deploy', input: { target: 'prod', note: 'hunter2' }, scope: SCOPE, sensitive_input_fields: ['note'] })
    const id = (outcome as { approval_id: string }).approval_id
    const result = await workers[0]!.send<{ outcomes: string[]; runs: unknown[] }>('resolve', { approval_ids: [id] })
    expect(result).toEqual({ outcomes: ['input_held_elsewhere'], runs: [] })
    expect(await opener.approvals.show(id, { profile_id: SCOPE.profile_id })).toMatchObject({ status: 'pending' })
  })

  it('with the seal key, two other processes approving the same sealed approvals: each runs once, on the real input', async () => {
    const opener = createDispatcher({ tools: [deployTool()], approvals: { ...stores, sealKey: OLD_KEY } })
    const inputs = Array.from({ length: 20 }, (_, i) => ({ target: `sealed-${i}`, note: `hunter2-${randomBytes(6).toString('hex')}` }))
    const ids: string[] = []
    for (const input of inputs) {
      const outcome = await opener.invoke({ tool_id: 'ops__deploy', input, scope: SCOPE, sensitive_input_fields: ['note'] })
      expect(outcome.status).toBe('approval_pending')
      ids.push((outcome as { approval_id: string }).approval_id)
    }
    const { rows } = await db.pool.query<{ record: string }>(`SELECT record FROM "${tablePrefix}pending_approvals" WHERE approval_id = ANY($1)`, [ids])
    expect(rows).toHaveLength(ids.length)
    for (const { record } of rows) expect(JSON.parse(record)).toMatchObject({ input: { note: REDACTED }, sealed_input: { alg: 'AES-256-GCM' } })

    const [a, b] = await Promise.all([KEYS.old, KEYS.rotated].map((seal_keys, w) => workers[w]!.send<{ outcomes: string[]; runs: Array<{ target: string; note: string }> }>('resolve', { approval_ids: ids, seal_keys })))
    for (let i = 0; i < ids.length; i++) expect([a!.outcomes[i], b!.outcomes[i]].sort(), ids[i]).toEqual(['approval_resolved', 'completed'])
    const runs = [...a!.runs, ...b!.runs].sort((x, y) => x.target.localeCompare(y.target, 'en', { numeric: true }))
    expect(runs).toEqual(inputs)
    for (const id of ids) {
      const record = await stores.pending.get(id)
      expect(record?.state).toBe('completed')
      expect(record).not.toHaveProperty('sealed_input')
    }
  })

  it('a process without the key refuses, one with the rotated keys opens: the approval waits pending until then', async () => {
    const opener = createDispatcher({ tools: [deployTool()], approvals: { ...stores, sealKey: OLD_KEY } })
    const outcome = await opener.invoke({ tool_id: 'ops__deploy', input: { target: 'rotated', note: 'hunter2-rotated' }, scope: SCOPE, sensitive_input_fields: ['note'] })
    const id = (outcome as { approval_id: string }).approval_id
    expect(await workers[0]!.send('resolve', { approval_ids: [id] })).toEqual({ outcomes: ['seal_key_unknown'], runs: [] })
    expect(await workers[1]!.send('resolve', { approval_ids: [id], seal_keys: KEYS.newOnly })).toEqual({ outcomes: ['seal_key_unknown'], runs: [] })
    expect((await stores.pending.get(id))?.state).toBe('pending')
    expect(await workers[2]!.send('resolve', { approval_ids: [id], seal_keys: KEYS.rotated })).toEqual({ outcomes: ['completed'], runs: [{ target: 'rotated', note: 'hunter2-rotated' }] })
    // What a rotated process seals, a process with only the new key opens, and one with only the old key cannot.
    const sealedNew = await workers[2]!.send<string>('open', { target: 'rotated-new', note: 'hunter2-new', seal_keys: KEYS.rotated })
    expect(await workers[3]!.send('resolve', { approval_ids: [sealedNew], seal_keys: KEYS.old })).toEqual({ outcomes: ['seal_key_unknown'], runs: [] })
    expect(await workers[1]!.send('resolve', { approval_ids: [sealedNew], seal_keys: KEYS.newOnly })).toEqual({ outcomes: ['completed'], runs: [{ target: 'rotated-new', note: 'hunter2-new' }] })
  })
})

describe('grants across processes', () => {
  it('a grant set, replaced or revoked through one process holds on the very next call in another', async () => {
    const [a, b] = [workers[0]!, workers[1]!]
    const key = { workspace_id: SCOPE.workspace_id, tool_id: 'ops__deploy', scope: 'tool' }
    for (let round = 0; round < 10; round++) {
      await a.send('setGrant', { request: { ...key, decision: 'allow' } })
      expect(await b.send('invoke', { target: `allowed-${round}` })).toBe('ok')
      const rejected = await a.send<ApprovalGrant>('setGrant', { request: { ...key, decision: 'reject' } })
      expect(await b.send('invoke', { target: `rejected-${round}` })).toBe('approval_rejected')
      expect(await a.send('revokeGrant', { request: { workspace_id: SCOPE.workspace_id, grant_id: rejected.grant_id } })).toBe(true)
      expect(await b.send('invoke', { target: `asked-${round}` })).toBe('approval_pending')
    }
  })

  it('a process killed with SIGKILL while setting grants loses none it reported committed, and leaves no half-written row', async () => {
    const writer = await startWorker(`${db.url}?application_name=rv_killed_writer`, tablePrefix)
    const workspace_id = `ws-kill-${randomBytes(4).toString('hex')}`
    const committed = new Map<string, string>()
    await new Promise<void>((resolve) => {
      writer.stream('setGrantsForever', { workspace_id, concurrency: 8 }, (line) => {
        committed.set(line.committed as string, line.agent_name as string)
        if (committed.size === 200) {
          process.kill(writer.process.pid!, 'SIGKILL')
          resolve()
        }
      })
    })
    await writer.exited
    expect(writer.process.signalCode).toBe('SIGKILL')
    // A statement the server already received still completes after its client died: read once
    // the killed process's connections are gone.
    await untilNoConnections('rv_killed_writer')
    const listed = await stores.grants.list(workspace_id)
    const byId = new Map(listed.map((grant) => [grant.grant_id, grant]))
    for (const [grantId, agent] of committed) expect(byId.get(grantId)?.agent_name, grantId).toBe(agent)
    expect(listed.length).toBeGreaterThanOrEqual(committed.size)
    const { rows } = await db.pool.query(`SELECT grant_key, workspace_key, grant_id, record FROM "${tablePrefix}approval_grants" WHERE workspace_key = $1`, [JSON.stringify(workspace_id)])
    expect(rows).toHaveLength(listed.length)
    for (const row of rows) {
      const grant = JSON.parse(row.record) as ApprovalGrant
      expect([row.grant_key, row.grant_id]).toEqual([grantKeyText(grant), grant.grant_id])
    }
  })
})

async function untilNoConnections(applicationName: string): Promise<void> {
  const deadline = Date.now() + 10_000
  while ((await db.pool.query('SELECT 1 FROM pg_stat_activity WHERE application_name = $1', [applicationName])).rowCount !== 0) {
    if (Date.now() > deadline) throw new Error(`connections of ${applicationName} stayed open`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('migrate from several instances at once', () => {
  it('four processes migrating new tables together: one creates them, the others find them done', async () => {
    const fresh = `cross_migrate_${randomBytes(3).toString('hex')}_`
    const results = await Promise.all(workers.map((worker) => worker.send<{ from: number; to: number }>('migrate', { tablePrefix: fresh })))
    expect(results.map((r) => r.from).sort()).toEqual([0, POSTGRES_APPROVAL_SCHEMA_VERSION, POSTGRES_APPROVAL_SCHEMA_VERSION, POSTGRES_APPROVAL_SCHEMA_VERSION])
    expect((await db.pool.query(`SELECT version FROM "${fresh}approval_migrations" ORDER BY version`)).rows).toEqual([{ version: 1 }, { version: 2 }])
  })
})
