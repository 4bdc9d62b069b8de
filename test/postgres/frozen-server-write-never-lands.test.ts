// A write the caller was told failed must never land later, when the server (or the network to
// it) freezes mid-transaction: the server's own statement_timeout counts only running time, so
// before the fix a put or a setGrant whose statement reached a frozen server hung, the caller was
// told store_timeout by whoever gave up first, and the write committed once the server thawed.
// Each bounded write now has one client-side deadline before COMMIT: past it the connection is
// destroyed (the server can only roll back) and COMMIT is never sent. And a client that stalls
// inside its transaction, holding the continuation store's advisory lock, is ended by the server
// after the bound (`idle_in_transaction_session_timeout`), so other instances' puts go on.
// The freeze is a loopback proxy that stops forwarding (test/postgres/support/stalling-proxy.ts).
import pg from 'pg'
import { describe, expect, inject, it } from 'vitest'
import { createDispatcher } from 'result-views'
import { createPostgresApprovalStores, createPostgresContinuationStore, migrate } from 'result-views/postgres'
import { SCOPE, deployTool, rejectionOf } from '../approval/fixtures.js'
import { useTestDatabase } from './support/database.js'
import { startStallingProxy, type StallingProxy } from './support/stalling-proxy.js'

const db = useTestDatabase('frozen')
let prefixes = 0

function poolThrough(proxy: StallingProxy): pg.Pool {
  const server = inject('postgres')
  const pool = new pg.Pool({ host: '127.0.0.1', port: proxy.port, user: server.user, password: server.password, database: db.name, max: 2 })
  pool.on('error', () => undefined)
  return pool
}

const result = (scope_key = 'S') => ({ scope_key, tool_id: 'docs__dump', total_bytes: 20, parts: [{ start: 10, part: 2, bytes_from: 10, text: 'x'.repeat(10) }] })

/** Waits until no other session on this database runs a statement or holds a transaction open (what a thawed server had queued has run). */
async function untilSettled(): Promise<void> {
  for (;;) {
    const { rows } = await db.pool.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'")
    if (rows[0].n === 0) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe('a bounded write whose server freezes before COMMIT', () => {
  it('a continuation put rejects store_timeout while the server is still frozen, and its result is not there after the thaw', { timeout: 30_000 }, async () => {
    const tablePrefix = `frozen${++prefixes}_`
    await migrate({ pool: db.pool, tablePrefix })
    const proxy = await startStallingProxy()
    const pool = poolThrough(proxy)
    const store = createPostgresContinuationStore({ pool, tablePrefix, statementTimeoutMs: 500 })
    await pool.query('SELECT 1')
    // Frozen once the put's statement (after BEGIN and the advisory lock were answered) is on its way.
    proxy.stallOn('INSERT INTO')
    const put = store.put(result(), Date.now())
    await proxy.stalled
    await expect(put).rejects.toMatchObject({ code: 'store_timeout' })
    proxy.thaw()
    await proxy.drained()
    await untilSettled()
    expect((await db.pool.query(`SELECT count(*)::int AS n FROM "${tablePrefix}continuations"`)).rows[0].n).toBe(0)
    expect((await db.pool.query(`SELECT count(*)::int AS n FROM "${tablePrefix}continuation_parts"`)).rows[0].n).toBe(0)
    // The store goes on with a new connection.
    expect(await store.put(result(), Date.now())).toEqual(expect.any(String))
    await pool.end()
  })

  it('setGrant answers approval_unavailable / store_timeout while frozen, and the grant is not there after the thaw', { timeout: 30_000 }, async () => {
    const tablePrefix = `frozen${++prefixes}_`
    await migrate({ pool: db.pool, tablePrefix })
    const proxy = await startStallingProxy()
    const pool = poolThrough(proxy)
    const dispatcher = createDispatcher({ tools: [deployTool()], approvals: createPostgresApprovalStores({ pool, tablePrefix, statementTimeoutMs: 500 }) })
    await pool.query('SELECT 1')
    proxy.stallOn('INSERT INTO')
    const refused = rejectionOf(dispatcher.approvals.setGrant({ workspace_id: SCOPE.workspace_id, tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' }))
    await proxy.stalled
    expect(await refused).toEqual(['approval_unavailable', 'store_timeout'])
    proxy.thaw()
    await proxy.drained()
    await untilSettled()
    expect((await db.pool.query(`SELECT count(*)::int AS n FROM "${tablePrefix}approval_grants"`)).rows[0].n).toBe(0)
    await pool.end()
  })

  it('a server that freezes before BEGIN is answered: store_timeout, nothing written', { timeout: 30_000 }, async () => {
    const tablePrefix = `frozen${++prefixes}_`
    await migrate({ pool: db.pool, tablePrefix })
    const proxy = await startStallingProxy()
    const pool = poolThrough(proxy)
    const store = createPostgresContinuationStore({ pool, tablePrefix, statementTimeoutMs: 300 })
    await pool.query('SELECT 1')
    proxy.stall()
    await expect(store.put(result(), Date.now())).rejects.toMatchObject({ code: 'store_timeout' })
    proxy.thaw()
    await proxy.drained()
    await untilSettled()
    expect((await db.pool.query(`SELECT count(*)::int AS n FROM "${tablePrefix}continuations"`)).rows[0].n).toBe(0)
    await pool.end()
  })
})

describe('an instance that stalls inside its put, holding the advisory lock', () => {
  it("does not hold up the other instances' puts: the server ends its idle transaction after the bound", { timeout: 30_000 }, async () => {
    const tablePrefix = `frozen${++prefixes}_`
    await migrate({ pool: db.pool, tablePrefix })
    const proxy = await startStallingProxy()
    const stalledPool = poolThrough(proxy)
    const stalledInstance = createPostgresContinuationStore({ pool: stalledPool, tablePrefix, statementTimeoutMs: 500 })
    const other = createPostgresContinuationStore({ pool: db.pool, tablePrefix, statementTimeoutMs: 4_000 })
    await stalledPool.query('SELECT 1')
    // The lock was granted; the instance's next message never reaches the server (nor its close).
    proxy.stallOn('INSERT INTO')
    const stalledPut = stalledInstance.put(result('A'), Date.now()).catch((error: unknown) => error)
    await proxy.stalled
    const { rows } = await db.pool.query("SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted AND a.datname = current_database()")
    expect(rows[0].n).toBe(1)
    // Still frozen: the other instance's put waits for the lock at most until the server ends the idle session.
    const id = await other.put(result('B'), Date.now())
    expect(id).toEqual(expect.any(String))
    expect(await other.read(id!, 10, 'B', Date.now())).toMatchObject({ kind: 'found' })
    expect(await stalledPut).toMatchObject({ code: 'store_timeout' })
    proxy.thaw()
    await proxy.drained()
    expect((await db.pool.query(`SELECT count(*)::int AS n FROM "${tablePrefix}continuations"`)).rows[0].n).toBe(1)
    await stalledPool.end()
  })
})
