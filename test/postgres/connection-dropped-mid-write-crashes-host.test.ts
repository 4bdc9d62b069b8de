// A connection that drops while a store write waits for its answer used to crash the host:
// node-postgres emits 'error' on the checked-out client, pg-pool listens on idle clients only, and
// an 'error' event with no listener ends the process. Here the write is sent and held on the
// server by a lock another connection keeps, the proxy between pool and server then destroys the
// connection: the write must settle with its typed error (`docs/approvals.md` "PostgreSQL:
// `result-views/postgres`"), nothing reaches the process, and the stores work afterwards.
import { createHash } from 'node:crypto'
import pg from 'pg'
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest'
import { createDispatcher } from 'result-views'
import { createPostgresApprovalStores, createPostgresContinuationStore, migrate } from 'result-views/postgres'
import { SCOPE, deployTool } from '../approval/fixtures.js'
import { useTestDatabase } from './support/database.js'
import { startStallingProxy } from './support/stalling-proxy.js'

const db = useTestDatabase('dropped')
let prefixes = 0
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex')

// Any error that escapes to the process fails the test that caused it.
const escaped: unknown[] = []
const onEscaped = (error: unknown): void => void escaped.push(error)
beforeEach(() => {
  escaped.length = 0
  process.on('uncaughtException', onEscaped)
})
afterEach(() => {
  process.removeListener('uncaughtException', onEscaped)
  expect(escaped).toEqual([])
})

/** Stores on a pool of one connection through a proxy that can cut it, on tables migrated under a new prefix. */
async function setUp() {
  const tablePrefix = `drop${++prefixes}_`
  await migrate({ pool: db.pool, tablePrefix })
  const proxy = await startStallingProxy()
  const server = inject('postgres')
  const pool = new pg.Pool({ host: '127.0.0.1', port: proxy.port, user: server.user, password: server.password, database: db.name, max: 1 })
  pool.on('error', () => undefined)
  const stores = createPostgresApprovalStores({ pool, tablePrefix, statementTimeoutMs: 5_000 })
  return { tablePrefix, proxy, pool, stores }
}

/** Waits until a statement containing `text` waits on a lock on the server. */
async function waitingOnLock(text: string): Promise<void> {
  for (;;) {
    const { rows } = await db.pool.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%' || $1 || '%'`, [text])
    if (rows.length > 0) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** How a promise settles: its value, or its error's code. */
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ value }),
    (error: { code?: unknown; message?: unknown }) => ({ code: error.code, message: error.message }),
  )

const token = (hash: string) => {
  const now = Date.now()
  return { token_hash: hash, tool_id: 'ops__deploy', scope: {}, input_digest: 'd', created_at: new Date(now).toISOString(), expires_at: new Date(now + 600_000).toISOString() }
}

describe('a connection dropped while a write waits for its answer', () => {
  it('one-trip consume: store_outcome_unknown, no crash, and the token store works afterwards', { timeout: 30_000 }, async () => {
    const { tablePrefix, proxy, pool, stores } = await setUp()
    const hash = sha256(`t-${Date.now()}`)
    await stores.tokens.insert(token(hash) as never)
    const locker = await db.pool.connect()
    try {
      await locker.query('BEGIN')
      await locker.query(`SELECT 1 FROM "${tablePrefix}approval_tokens" WHERE token_hash = $1 FOR UPDATE`, [hash])
      const consumed = outcome(Promise.resolve(stores.tokens.consume(hash, new Date().toISOString())))
      await waitingOnLock('UPDATE')
      proxy.cut()
      expect(await consumed).toMatchObject({ code: 'store_outcome_unknown' })
    } finally {
      await locker.query('ROLLBACK')
      locker.release()
    }
    // The statement and its Sync had reached the server, which may commit it once the lock is free
    // (hence store_outcome_unknown); the broken connection was destroyed and a new one serves the next writes.
    const next = sha256(`t-${Date.now()}-next`)
    await stores.tokens.insert(token(next) as never)
    expect(await stores.tokens.consume(next, new Date().toISOString())).toBe(true)
    expect(await stores.tokens.consume(next, new Date().toISOString())).toBe(false)
    await pool.end()
  })

  it('grant delete in a transaction: the driver error before COMMIT (nothing written), no crash, and the grant store works afterwards', { timeout: 30_000 }, async () => {
    const { tablePrefix, proxy, pool, stores } = await setUp()
    const grant = { grant_id: 'g-1', workspace_id: 'ws-1', tool_id: 'ops__deploy', scope: 'tool', decision: 'allow', origin: 'management', created_at: '2026-11-10T14:00:00.000Z' } as const
    await stores.grants.put(grant)
    const locker = await db.pool.connect()
    try {
      await locker.query(`BEGIN; LOCK TABLE "${tablePrefix}approval_grants" IN ACCESS EXCLUSIVE MODE`)
      const deleted = outcome(Promise.resolve(stores.grants.delete('ws-1', 'g-1')))
      await waitingOnLock('DELETE')
      proxy.cut()
      const settled = await deleted
      // Not a store_timeout or store_outcome_unknown: COMMIT was never sent, so the server rolled back.
      expect(settled).toMatchObject({ message: expect.stringMatching(/Connection terminated/) })
      expect(settled).not.toHaveProperty('code', 'store_outcome_unknown')
    } finally {
      await locker.query('ROLLBACK')
      locker.release()
    }
    expect((await stores.grants.list('ws-1')).map((g) => g.grant_id)).toEqual(['g-1'])
    expect(await stores.grants.delete('ws-1', 'g-1')).toBe(true)
    expect(await stores.grants.list('ws-1')).toEqual([])
    await pool.end()
  })

  it('continuation put in a transaction: rejects, no crash, and the continuation store works afterwards', { timeout: 30_000 }, async () => {
    const tablePrefix = `drop${++prefixes}_`
    await migrate({ pool: db.pool, tablePrefix })
    const proxy = await startStallingProxy()
    const server = inject('postgres')
    const pool = new pg.Pool({ host: '127.0.0.1', port: proxy.port, user: server.user, password: server.password, database: db.name, max: 1 })
    pool.on('error', () => undefined)
    const store = createPostgresContinuationStore({ pool, tablePrefix, statementTimeoutMs: 5_000 })
    const result = { scope_key: 'S', tool_id: 't', total_bytes: 2, parts: [{ start: 1, part: 1, bytes_from: 0, text: 'ab' }] }
    const now = Date.now()
    const locker = await db.pool.connect()
    try {
      await locker.query(`BEGIN; LOCK TABLE "${tablePrefix}continuations" IN ACCESS EXCLUSIVE MODE`)
      const put = outcome(Promise.resolve(store.put(result, now)))
      await waitingOnLock('INSERT')
      proxy.cut()
      expect(await put).toMatchObject({ message: expect.stringMatching(/Connection terminated/) })
    } finally {
      await locker.query('ROLLBACK')
      locker.release()
    }
    const id = await store.put(result, now)
    expect(await store.read(id!, 1, 'S', now)).toMatchObject({ kind: 'found', part: { text: 'ab' } })
    await pool.end()
  })
})

describe('a mint the server cancels at its own bound', () => {
  it('says the store gave up at its bound, not that it did not answer within approvals.timeoutMs', { timeout: 30_000 }, async () => {
    const tablePrefix = `drop${++prefixes}_`
    await migrate({ pool: db.pool, tablePrefix })
    const stores = createPostgresApprovalStores({ pool: db.pool, tablePrefix, statementTimeoutMs: 300 })
    const dispatcher = createDispatcher({ tools: [deployTool()], approvals: { ...stores, timeoutMs: 5_000 } })
    const locker = await db.pool.connect()
    try {
      await locker.query('BEGIN')
      await locker.query(`LOCK TABLE "${tablePrefix}approval_tokens" IN ACCESS EXCLUSIVE MODE`)
      const error = (await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' }, ttlMs: 600_000 }).then(
        () => expect.fail('the mint should be refused'),
        (refused: unknown) => refused,
      )) as Error
      expect(error).toMatchObject({ code: 'approval_unavailable', reason: 'store_timeout' })
      expect(error.message).toMatch(/gave up on insert at its own bound/)
      expect(error.message).not.toMatch(/5000/)
      expect((error as { cause?: { message?: string } }).cause?.message).toMatch(/canceled on the server after 300 ms/)
    } finally {
      await locker.query('ROLLBACK')
      locker.release()
    }
  })
})
