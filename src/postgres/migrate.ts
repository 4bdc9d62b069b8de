import type pg from 'pg'
import type { UsageProblem } from 'result-views'
import { readOptions, type PostgresApprovalStoresOptions } from './options.js'
import { PostgresOptionsError } from './postgres-options-error.js'
import { MIGRATIONS, SCHEMA_VERSION, migrationLockKey, migrationsTableDdl, q, type TableNames } from './schema.js'

/** Options of {@link migrate}: the stores' options, plus how long to wait for another instance's migration. */
export interface MigrateOptions extends PostgresApprovalStoresOptions {
  /**
   * How long to wait for the migration lock (another instance migrating the same tables), in
   * milliseconds. Default 30000. Past it, `migrate` rejects with PostgreSQL's `lock_timeout` error
   * (SQLSTATE `55P03`) and changes nothing.
   */
  lockTimeoutMs?: number
}

/** What {@link migrate} did. */
export interface MigrateResult {
  /** The schema version found (0 for new tables). */
  readonly from: number
  /** The schema version now (`POSTGRES_APPROVAL_SCHEMA_VERSION`). */
  readonly to: number
}

/** Default of `lockTimeoutMs`. */
export const DEFAULT_MIGRATE_LOCK_TIMEOUT_MS = 30_000

/**
 * Creates or upgrades the approval tables and the continuation tables (`result-views/postgres`;
 * schema version 2 adds `<prefix>continuations` and `<prefix>continuation_parts`): idempotent and versioned (the
 * `<prefix>approval_migrations` table records each version applied), and safe to run from several
 * instances at once: everything runs in one transaction under a transaction-level advisory lock
 * keyed by the table prefix, so one instance migrates and the others wait, then find the work
 * done. A failure rolls the whole migration back. With `connectionString`, a one-connection pool is
 * made and ended before it settles.
 *
 * @param options - `{ pool }` or `{ connectionString }`, `tablePrefix?`, `lockTimeoutMs?` (default 30000).
 * @returns `{ from, to }`, the schema versions before and after.
 * @throws PostgresOptionsError (`postgres_options_invalid`) for bad options, or (problem code
 *   `schema_too_new`, nothing changed) when the tables were written by a newer release.
 *   PostgreSQL's own error (from `pg`) when the server refuses or fails, e.g. `55P03` past
 *   `lockTimeoutMs`. See `docs/approvals.md` "Running on several machines".
 */
export async function migrate(options: MigrateOptions): Promise<MigrateResult> {
  const subject = 'migrate(options)'
  const read = readOptions(subject, options, ['lockTimeoutMs'], (values, problems: UsageProblem[]) => {
    const timeout = values.lockTimeoutMs
    if (timeout !== undefined && !(typeof timeout === 'number' && Number.isSafeInteger(timeout) && timeout > 0 && timeout <= 2 ** 31 - 1)) {
      problems.push({ path: '/lockTimeoutMs', code: 'invalid_lock_timeout', message: 'lockTimeoutMs must be a positive integer of milliseconds (at most 2147483647)' })
    }
  })
  const lockTimeoutMs = (read.values.lockTimeoutMs as number | undefined) ?? DEFAULT_MIGRATE_LOCK_TIMEOUT_MS
  const { pool, owned, tables } = read.connect(1)
  try {
    const client = await pool.connect()
    const session = { broken: false }
    // A connection that fails while checked out emits 'error' on the client (pg-pool listens on idle
    // clients only): noted here, so it never reaches the process; the statement in flight rejects.
    const failed = (): void => void (session.broken = true)
    client.on('error', failed)
    try {
      return await migrateOn(client, session, tables, lockTimeoutMs, subject)
    } finally {
      client.removeListener('error', failed)
      // A connection whose ROLLBACK failed may sit in a transaction: destroy it, never reuse it.
      client.release(session.broken)
    }
  } finally {
    if (owned) await pool.end()
  }
}

async function migrateOn(client: pg.PoolClient, session: { broken: boolean }, tables: TableNames, lockTimeoutMs: number, subject: string): Promise<MigrateResult> {
  try {
    await client.query('BEGIN')
    await client.query(`SET LOCAL lock_timeout = ${lockTimeoutMs}`)
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [migrationLockKey(tables.prefix)])
    await client.query(migrationsTableDdl(tables))
    const found = Number((await client.query(`SELECT coalesce(max(version), 0) AS version FROM ${q(tables.migrations)}`)).rows[0]?.version ?? 0)
    if (found > SCHEMA_VERSION) {
      throw new PostgresOptionsError(subject, [
        {
          path: '/tablePrefix',
          code: 'schema_too_new',
          message: `the tables "${tables.prefix}*" have approval schema version ${found}; this release of result-views reads up to ${SCHEMA_VERSION}`,
        },
      ])
    }
    for (const migration of MIGRATIONS) {
      if (migration.version <= found) continue
      await client.query(migration.sql(tables))
      await client.query(`INSERT INTO ${q(tables.migrations)} (version) VALUES ($1)`, [migration.version])
    }
    await client.query('COMMIT')
    return Object.freeze({ from: found, to: SCHEMA_VERSION })
  } catch (error) {
    await client.query('ROLLBACK').catch(() => void (session.broken = true))
    throw error
  }
}
