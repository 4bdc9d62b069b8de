// Token writes (`insert`, `consume`, `deleteExpired`) go to the server in one round trip: the
// bounds (`set_config('statement_timeout' | 'lock_timeout', …, true)`), the statement and one Sync
// in one network write, one implicit transaction. These tests hold what that path must keep: the
// server-side bound is in force for the statement itself (a consume held by a table lock or a row
// lock is canceled on the server and never lands later, so the token still works), a write whose
// answer is lost after it was sent is `store_outcome_unknown` (never a `store_timeout` that did not
// happen), and a host's pool keeps its own session settings and modes.
import { createHash } from 'node:crypto'
import pg from 'pg'
import { describe, expect, inject, it } from 'vitest'
import { createDispatcher } from 'result-views'
import { createPostgresApprovalStores, migrate } from 'result-views/postgres'
import { SCOPE, deployTool, errorOf } from '../approval/fixtures.js'
import { useTestDatabase } from './support/database.js'
import { startStallingProxy } from './support/stalling-proxy.js'

const db = useTestDatabase('one_trip')
let prefixes = 0
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex')

/** Migrated tables under a new prefix, stores on `pool` (default the file's pool), and a dispatcher minting tokens into them. */
async function setUp(options: { pool?: pg.Pool; statementTimeoutMs?: number } = {}) {
  const tablePrefix = `trip${++prefixes}_`
  await migrate({ pool: db.pool, tablePrefix })
  const stores = createPostgresApprovalStores({ pool: options.pool ?? db.pool, tablePrefix, ...(options.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: options.statementTimeoutMs }) })
  const dispatcher = createDispatcher({ tools: [deployTool()], approvals: { ...stores, timeoutMs: 5_000 } })
  const mint = async () => (await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' }, ttlMs: 600_000 })).token
  const consumedAt = async (token: string): Promise<unknown> => (await db.pool.query(`SELECT consumed_at FROM "${tablePrefix}approval_tokens" WHERE token_hash = $1`, [sha256(token)])).rows[0]?.consumed_at
  const invokeWith = (token: string) => dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE, approval_token: token })
  return { tablePrefix, stores, dispatcher, mint, consumedAt, invokeWith, table: `"${tablePrefix}approval_tokens"` }
}

/** Lets any statement still queued on the server run, if one is. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1_000))

/** The error a promise rejects with. */
async function thrown(promise: unknown): Promise<{ code?: unknown; cause?: { code?: unknown } }> {
  try {
    await (promise as Promise<unknown>)
  } catch (error) {
    return error as { code?: unknown; cause?: { code?: unknown } }
  }
  throw new Error('expected a rejection')
}

describe('a consume held on the server past its bound', () => {
  it('by a table lock: canceled on the server (store_timeout), never lands once the lock is free, and the token still works', { timeout: 30_000 }, async () => {
    const { stores, mint, consumedAt, invokeWith, table } = await setUp({ statementTimeoutMs: 300 })
    const token = await mint()
    const locker = await db.pool.connect()
    // EXCLUSIVE lets reads through and holds every UPDATE: only the consume waits.
    await locker.query(`BEGIN; LOCK TABLE ${table} IN EXCLUSIVE MODE`)
    const refused = await thrown(stores.tokens.consume(sha256(token), new Date().toISOString()))
    expect(refused.code).toBe('store_timeout')
    expect(['57014', '55P03']).toContain(refused.cause?.code)
    await locker.query('COMMIT')
    locker.release()
    await settle()
    expect(await consumedAt(token)).toBeNull()
    expect((await invokeWith(token)).status).toBe('ok')
    expect(await consumedAt(token)).not.toBeNull()
  })

  it('by a row lock, through the dispatcher: approval_unavailable / store_timeout, and the token is not spent', { timeout: 30_000 }, async () => {
    const { mint, consumedAt, invokeWith, table } = await setUp({ statementTimeoutMs: 300 })
    const token = await mint()
    const locker = await db.pool.connect()
    await locker.query(`BEGIN; SELECT 1 FROM ${table} WHERE token_hash = '${sha256(token)}' FOR UPDATE`)
    expect(errorOf(await invokeWith(token))).toMatchObject({ code: 'approval_unavailable', reason: 'store_timeout' })
    await locker.query('COMMIT')
    locker.release()
    await settle()
    expect(await consumedAt(token)).toBeNull()
    expect((await invokeWith(token)).status).toBe('ok')
  })
})

describe('a consume whose answer is lost after it was sent', () => {
  it('is store_outcome_unknown, not store_timeout: the statement was on its way and lands when the network thaws', { timeout: 30_000 }, async () => {
    const proxy = await startStallingProxy()
    const server = inject('postgres')
    const pool = new pg.Pool({ host: '127.0.0.1', port: proxy.port, user: server.user, password: server.password, database: db.name, max: 1 })
    pool.on('error', () => undefined)
    const { stores, mint, consumedAt } = await setUp({ pool, statementTimeoutMs: 300 })
    const token = await mint()
    proxy.stallOn('UPDATE')
    const refused = thrown(stores.tokens.consume(sha256(token), new Date().toISOString()))
    await proxy.stalled
    expect((await refused).code).toBe('store_outcome_unknown')
    expect(await consumedAt(token)).toBeNull()
    proxy.thaw()
    await proxy.drained()
    await settle()
    // Why the store could not say "nothing was written": it was written, after the caller gave up.
    expect(await consumedAt(token)).not.toBeNull()
    // The broken connection was destroyed; the next call gets a new one.
    expect(await stores.tokens.consume(sha256(await mint()), new Date().toISOString())).toBe(true)
    await pool.end()
  })
})

describe("a host's pool", () => {
  it('keeps its own session settings: the bounds are local to the write, after a success and after a failure', { timeout: 30_000 }, async () => {
    const pool = db.newPool({ max: 1, statement_timeout: 12_345, lock_timeout: 6_789, idle_in_transaction_session_timeout: 23_456 })
    const { stores, mint, tablePrefix } = await setUp({ pool })
    const settings = async () => (await pool.query("SELECT current_setting('statement_timeout') AS s, current_setting('lock_timeout') AS l, current_setting('idle_in_transaction_session_timeout') AS i")).rows[0]
    const host = { s: '12345ms', l: '6789ms', i: '23456ms' }
    expect(await settings()).toEqual(host)
    const hash = sha256(await mint())
    expect(await stores.tokens.consume(hash, new Date().toISOString())).toBe(true)
    expect(await settings()).toEqual(host)
    expect(await stores.tokens.consume(hash, new Date().toISOString())).toBe(false)
    // A statement the server refuses (NaN is no instant): rolled back, the driver's error as it is, the session as it was.
    expect((await thrown(stores.tokens.deleteExpired!('not a date'))).code).toBe('22008')
    expect(await settings()).toEqual(host)
    // The one connection was never left inside a transaction.
    expect((await pool.query(`SELECT count(*)::int AS n FROM "${tablePrefix}approval_tokens" WHERE consumed_at IS NOT NULL`)).rows[0].n).toBe(1)
    const client = await pool.connect()
    expect(client.getTransactionStatus()).toBe('I')
    client.release()
  })

  it('in pipeline mode works the same: each write is one Sync, answered in order', { timeout: 30_000 }, async () => {
    const pool = db.newPool({ max: 1, pipeline: true } as pg.PoolConfig)
    const { stores, mint } = await setUp({ pool })
    const hashes = await Promise.all(Array.from({ length: 8 }, async () => sha256(await mint())))
    const first = await Promise.all(hashes.map((hash) => stores.tokens.consume(hash, new Date().toISOString())))
    expect(first).toEqual(hashes.map(() => true))
    expect(await Promise.all(hashes.map((hash) => stores.tokens.consume(hash, new Date().toISOString())))).toEqual(hashes.map(() => false))
  })

  it('whose connections do not expose the protocol interface get the bounded transaction instead (its lost COMMIT answer is store_outcome_unknown)', { timeout: 30_000 }, async () => {
    const hiding = {
      query: db.pool.query.bind(db.pool),
      connect: async () => {
        const client = await db.pool.connect()
        const query = client.query.bind(client) as (text: string, values?: unknown[]) => Promise<unknown>
        return Object.assign(Object.create(client), {
          connection: undefined,
          query: async (text: string, values?: unknown[]) => {
            const answer = await query(text, values)
            if (text === 'COMMIT') throw new Error('Connection terminated unexpectedly')
            return answer
          },
          release: (error?: Error) => client.release(error),
        })
      },
    } as unknown as pg.Pool
    const { tablePrefix, mint, consumedAt } = await setUp()
    const token = await mint()
    const stores = createPostgresApprovalStores({ pool: hiding, tablePrefix })
    expect((await thrown(stores.tokens.consume(sha256(token), new Date().toISOString()))).code).toBe('store_outcome_unknown')
    expect(await consumedAt(token)).not.toBeNull()
  })
})
