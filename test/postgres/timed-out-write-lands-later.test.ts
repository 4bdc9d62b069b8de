// A write the caller was told failed must never take effect afterwards. On PostgreSQL a `setGrant`
// that rejected with `store_timeout` (its table locked) landed once the lock was free, and an
// invoke whose pending insert timed out left a pending approval nobody was told about: the
// statement kept waiting on the server after the dispatcher gave up. Each write is now bounded on
// the server (`SET LOCAL statement_timeout` inside its transaction, below `approvals.timeoutMs`), so
// a timeout is a rollback. A second connection holds the lock; after it is released, the write is
// checked never to land.
import { describe, expect, it } from 'vitest'
import type pg from 'pg'
import { createDispatcher } from 'result-views'
import { createPostgresApprovalStores, migrate } from 'result-views/postgres'
import { SCOPE, deployTool, errorOf, rejectionOf } from '../approval/fixtures.js'
import { useTestDatabase } from './support/database.js'

const db = useTestDatabase('late_writes')
let prefixes = 0

async function storesWithLockedTable(table: 'approval_grants' | 'pending_approvals', storeOptions: { statementTimeoutMs?: number } = {}) {
  const tablePrefix = `late${++prefixes}_`
  await migrate({ pool: db.pool, tablePrefix })
  const stores = createPostgresApprovalStores({ pool: db.pool, tablePrefix, ...storeOptions } as never)
  const locker: pg.PoolClient = await db.pool.connect()
  await locker.query(`BEGIN; LOCK TABLE "${tablePrefix}${table}" IN ACCESS EXCLUSIVE MODE`)
  const release = async () => {
    await locker.query('COMMIT')
    locker.release()
  }
  const count = async () => Number((await db.pool.query(`SELECT count(*) AS n FROM "${tablePrefix}${table}"`)).rows[0].n)
  return { stores, release, count }
}

/** Lets any statement still queued on the server run, if one is. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1_500))

describe('a write on a locked table, past the approval timeout', () => {
  it('setGrant rejects and the grant never lands once the lock is free (defaults: approvals.timeoutMs 5000)', { timeout: 30_000 }, async () => {
    const { stores, release, count } = await storesWithLockedTable('approval_grants')
    const dispatcher = createDispatcher({ tools: [deployTool()], approvals: stores })
    const refused = await rejectionOf(dispatcher.approvals.setGrant({ workspace_id: SCOPE.workspace_id, tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' }))
    expect(refused).toEqual(['approval_unavailable', 'store_timeout'])
    await release()
    await settle()
    expect(await count()).toBe(0)
    expect(await dispatcher.approvals.listGrants({ workspace_id: SCOPE.workspace_id })).toEqual([])
  })

  it('an invoke whose pending insert timed out leaves no pending approval', { timeout: 30_000 }, async () => {
    const { stores, release, count } = await storesWithLockedTable('pending_approvals', { statementTimeoutMs: 300 })
    const dispatcher = createDispatcher({ tools: [deployTool()], approvals: { ...stores, timeoutMs: 1_000 } })
    expect(errorOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE }))).toMatchObject({ code: 'approval_unavailable', reason: 'store_timeout' })
    await release()
    await settle()
    expect(await count()).toBe(0)
  })

  it('a write that did not wait on a lock lands as before, and the pool is left clean', { timeout: 30_000 }, async () => {
    const tablePrefix = `late${++prefixes}_`
    await migrate({ pool: db.pool, tablePrefix })
    const dispatcher = createDispatcher({ tools: [deployTool()], approvals: createPostgresApprovalStores({ pool: db.pool, tablePrefix }) })
    for (let i = 0; i < 12; i++) await dispatcher.approvals.setGrant({ workspace_id: `ws-${i}`, tool_id: 'ops__deploy', decision: 'reject', scope: 'tool' })
    expect((await db.pool.query(`SELECT count(*) AS n FROM "${tablePrefix}approval_grants"`)).rows[0].n).toBe('12')
    // No connection was returned to the pool inside a transaction.
    const { rows } = await db.pool.query("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'")
    expect(rows[0].n).toBe('0')
  })
})

/** A host pool whose connections lose COMMIT's answer: the server commits, the client hears a dropped connection. */
function poolLosingCommitAnswers(pool: pg.Pool): pg.Pool {
  return {
    query: pool.query.bind(pool),
    connect: async () => {
      const client = await pool.connect()
      const query = client.query.bind(client) as (text: string, values?: unknown[]) => Promise<unknown>
      return Object.assign(Object.create(client), {
        query: async (text: string, values?: unknown[]) => {
          const answer = await query(text, values)
          if (text === 'COMMIT') throw new Error('Connection terminated unexpectedly')
          return answer
        },
        release: (error?: Error) => client.release(error),
      })
    },
  } as unknown as pg.Pool
}

describe('a write whose COMMIT was sent and never answered', () => {
  it('is reported as store_outcome_unknown, never as a failure that did not happen; a pending insert names its approval', { timeout: 30_000 }, async () => {
    const tablePrefix = `late${++prefixes}_`
    await migrate({ pool: db.pool, tablePrefix })
    const stores = createPostgresApprovalStores({ pool: poolLosingCommitAnswers(db.pool), tablePrefix })
    const dispatcher = createDispatcher({ tools: [deployTool()], approvals: stores })
    const refused = await dispatcher.approvals.setGrant({ workspace_id: SCOPE.workspace_id, tool_id: 'ops__deploy', decision: 'reject', scope: 'tool' }).catch((error: unknown) => error)
    expect(refused).toMatchObject({ code: 'approval_unavailable', reason: 'store_outcome_unknown', details: { store: 'grants', operation: 'put' } })
    // It did land: reading back is how the host learns the outcome.
    expect(await dispatcher.approvals.listGrants({ workspace_id: SCOPE.workspace_id })).toHaveLength(1)

    const outcome = errorOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: { ...SCOPE, workspace_id: 'ws-other' } }))
    expect(outcome).toMatchObject({ code: 'approval_unavailable', reason: 'store_outcome_unknown', details: { store: 'pending', approval_id: expect.any(String) } })
    const approvalId = (outcome.details as { approval_id: string }).approval_id
    expect(await dispatcher.approvals.show(approvalId, { profile_id: SCOPE.profile_id })).toMatchObject({ status: 'pending' })
  })
})
