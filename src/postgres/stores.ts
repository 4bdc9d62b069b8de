import type pg from 'pg'
import type { ApprovalStores } from 'result-views'
import { postgresGrantStore } from './grant-store.js'
import { readOptions, type PostgresApprovalStoresOptions } from './options.js'
import { postgresPendingStore } from './pending-store.js'
import { queryOn } from './rows.js'
import { postgresTokenStore } from './token-store.js'

/**
 * The three approval stores on one PostgreSQL database, and the pool they share. Pass it to
 * `createDispatcher({ approvals: stores })` as is (the dispatcher ignores `database` and `close`).
 */
export interface PostgresApprovalStores extends ApprovalStores {
  /** The `pg.Pool` the stores query: the host's `pool`, or the one made from `connectionString`. */
  readonly database: pg.Pool
  /**
   * Ends the pool if the stores made it (from `connectionString`); leaves a host's `pool` open.
   * Calling it again does nothing. Store calls after it fail closed (`approval_unavailable`).
   */
  close(): Promise<void>
}

/**
 * Approval stores on PostgreSQL through node-postgres (`result-views/postgres`, `pg@8` an optional
 * peer dependency), for hosts that run several instances: tokens, grants and pending approvals
 * live in three tables any number of processes share. Every method is one SQL statement, atomic
 * on the server, so single use is the database's doing, not a process's: `consume` is
 * `UPDATE … WHERE consumed_at IS NULL AND expires_at > $at RETURNING` and pending `update` is a
 * compare-and-set on the state column; a grant `put` in one instance is seen by the next call in
 * any other. Tokens are stored only as SHA-256 hashes; records are JSON text and come back as new
 * objects. Expiry is judged by the dispatcher's clock (`createDispatcher({ clock })` or
 * `approvals.now`), which passes every instant the stores compare.
 *
 * Nothing is sent to the server here: run {@link migrate} (once per deploy, or at every start:
 * it is idempotent and safe from several instances at once) before the first call; calls on
 * missing tables fail closed (`approval_unavailable` / `store_failed`, the cause is PostgreSQL's
 * `relation … does not exist`). See `docs/approvals.md` "Running on several machines".
 *
 * @param options - `{ pool }` or `{ connectionString }`, and `tablePrefix?` (default `'result_views_'`).
 * @returns `{ tokens, grants, pending, database, close }`.
 * @throws PostgresOptionsError (`code: 'postgres_options_invalid'`) listing every bad option.
 */
export function createPostgresApprovalStores(options: PostgresApprovalStoresOptions): PostgresApprovalStores {
  const { pool, owned, tables } = readOptions('createPostgresApprovalStores(options)', options, [], () => undefined).connect()
  const query = queryOn(pool)
  let closing: Promise<void> | undefined
  return Object.freeze({
    tokens: postgresTokenStore(query, tables),
    grants: postgresGrantStore(query, tables),
    pending: postgresPendingStore(query, tables),
    database: pool,
    close: (): Promise<void> => (closing ??= owned ? pool.end() : Promise.resolve()),
  })
}
