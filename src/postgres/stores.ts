import type pg from 'pg'
import type { ApprovalStores, UsageProblem } from 'result-views'
import { postgresGrantStore } from './grant-store.js'
import { readOptions, type PostgresApprovalStoresOptions } from './options.js'
import { postgresPendingStore } from './pending-store.js'
import { queryOn } from './rows.js'
import { boundedWrites, DEFAULT_STATEMENT_TIMEOUT_MS, oneTripWrites } from './bounded-write.js'
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
 * Options of `createPostgresApprovalStores`: the connection and table prefix `migrate` takes too,
 * and how long one store write may take on the server (`migrate` has its own `lockTimeoutMs`).
 */
export interface PostgresStoresOptions extends PostgresApprovalStoresOptions {
  /**
   * The bound of each write (`insert`, `put`, `update`, `consume`, `delete`, `deleteExpired`), in
   * milliseconds, from asking the pool for a connection to the end of the statement: it runs with
   * `statement_timeout` and `lock_timeout` set to what is left, local to its own transaction (an
   * explicit one for grant and pending writes; for token writes, the implicit one of a single round
   * trip), so a write past it is rolled back (or never sent) and never lands afterwards. A positive
   * integer of at most 2147483647; default 4000. Keep it below the dispatcher's
   * `approvals.timeoutMs` (default 5000) by the COMMIT round trip, or the dispatcher may give up on
   * a write that still commits (`docs/approvals.md` "PostgreSQL: `result-views/postgres`").
   */
  statementTimeoutMs?: number
}

function checkStatementTimeout(values: Record<string, unknown>, problems: UsageProblem[]): void {
  const bound = values.statementTimeoutMs
  if (bound !== undefined && !(Number.isInteger(bound) && (bound as number) > 0 && (bound as number) <= 2 ** 31 - 1)) {
    problems.push({ path: '/statementTimeoutMs', code: 'invalid_statement_timeout', message: 'statementTimeoutMs must be a positive integer of milliseconds of at most 2147483647' })
  }
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
 * Every write is bounded on the server by `statementTimeoutMs` (see {@link PostgresStoresOptions}):
 * a write the dispatcher reports as `approval_unavailable` / `store_timeout` was rolled back or
 * never sent. A write whose COMMIT was sent and never answered (the connection failed), or a token
 * write (one round trip, no explicit transaction: `docs/approvals.md` "One round trip for token
 * writes") sent and never answered within `statementTimeoutMs` + 250 ms, is reported as
 * `store_outcome_unknown`: read it back before trying again.
 *
 * @param options - `{ pool }` or `{ connectionString }`, `tablePrefix?` (default `'result_views_'`),
 *   `statementTimeoutMs?` (default 4000).
 * @returns `{ tokens, grants, pending, database, close }`.
 * @throws PostgresOptionsError (`code: 'postgres_options_invalid'`) listing every bad option.
 */
export function createPostgresApprovalStores(options: PostgresStoresOptions): PostgresApprovalStores {
  const read = readOptions('createPostgresApprovalStores(options)', options, ['statementTimeoutMs'], checkStatementTimeout)
  const { pool, owned, tables } = read.connect()
  const query = queryOn(pool)
  const timeoutMs = (read.values.statementTimeoutMs as number | undefined) ?? DEFAULT_STATEMENT_TIMEOUT_MS
  const write = boundedWrites(pool, timeoutMs)
  let closing: Promise<void> | undefined
  return Object.freeze({
    // A token write landing after its caller gave up is harmless (see `oneTripWrites`): one round trip.
    tokens: postgresTokenStore(query, oneTripWrites(pool, timeoutMs), tables),
    grants: postgresGrantStore(query, write, tables),
    pending: postgresPendingStore(query, write, tables),
    database: pool,
    close: (): Promise<void> => (closing ??= owned ? pool.end() : Promise.resolve()),
  })
}
