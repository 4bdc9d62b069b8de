import pg from 'pg'
import type { UsageProblem } from 'result-views'
import { PostgresOptionsError } from './postgres-options-error.js'
import { DEFAULT_TABLE_PREFIX, MAX_TABLE_PREFIX_LENGTH, TABLE_PREFIX, tableNames, type TableNames } from './schema.js'
import { isRecord } from '../json/guards.js'
import { optionsTable, readOptions as readOptionsObject } from '../options/options.js'

/**
 * Options of `createPostgresApprovalStores` (and of `migrate`): how the stores reach PostgreSQL —
 * the host's pool, or a connection string (then the entry owns a pool) — and the table prefix.
 */
export interface PostgresApprovalStoresOptions {
  /**
   * A node-postgres pool (`new pg.Pool(...)`) the stores query. It stays the host's: `close()` does
   * not end it, and the host listens for its `'error'` events. Give this or `connectionString`.
   */
  pool?: pg.Pool
  /**
   * A PostgreSQL connection URI (`postgres://user:password@host:5432/db`). The entry then makes its
   * own `pg.Pool` (node-postgres defaults, plus `connectionTimeoutMillis: 10000` so that a
   * connection attempt never hangs, and an `'error'` listener so that a dropped idle connection
   * never crashes the process); `close()` ends it. Give this or `pool`.
   */
  connectionString?: string
  /**
   * Prefix of the table names, so the tables can share a host's database: `''` or a lowercase SQL
   * identifier prefix (`[a-z_][a-z0-9_]*`, at most 30 characters). Default `'result_views_'`:
   * `result_views_approval_tokens`, `result_views_approval_grants`,
   * `result_views_pending_approvals`, `result_views_approval_migrations`. Tables are found through
   * the connection's `search_path` (put them in a schema by setting it on the pool).
   */
  tablePrefix?: string
}

/** What the options resolve to. */
export interface ResolvedConnection {
  readonly pool: pg.Pool
  /** Whether the entry made the pool (and so ends it). */
  readonly owned: boolean
  readonly tables: TableNames
}

const CONNECTION_KEYS = ['pool', 'connectionString', 'tablePrefix'] as const

/** Connection timeout of a pool made from a connection string, in milliseconds. */
export const OWNED_POOL_CONNECTION_TIMEOUT_MS = 10_000

/**
 * Reads and checks the options of `createPostgresApprovalStores` or `migrate`: every problem at
 * once, each at a JSON Pointer into the options; reads every property inside a guard (a getter or
 * a Proxy that throws is a problem, not a crash).
 *
 * @returns the values of `known` keys (beyond the connection keys, for the caller to check) and a
 *   function that makes the connection once the caller's own checks passed.
 * @throws PostgresOptionsError (`postgres_options_invalid`).
 */
export function readOptions(subject: string, options: unknown, extraKeys: readonly string[], check: (values: Record<string, unknown>, problems: UsageProblem[]) => void): { values: Record<string, unknown>; connect(poolMax?: number): ResolvedConnection } {
  const problems: UsageProblem[] = []
  const fail = (): never => {
    throw new PostgresOptionsError(subject, problems)
  }
  if (!isRecord(options)) {
    problems.push({ path: '', code: 'invalid_option', message: 'the options must be an object, e.g. { connectionString } or { pool }' })
    fail()
  }
  const values = readOptionsObject(options, optionsTable([...CONNECTION_KEYS, ...extraKeys]), '', problems) as Record<string, unknown>
  // Nothing of options that cannot be listed was read: the connection checks would only add noise.
  if (problems.some((problem) => problem.path === '')) fail()

  const { pool, connectionString } = values
  const prefix = values.tablePrefix ?? DEFAULT_TABLE_PREFIX
  if (pool === undefined && connectionString === undefined) {
    problems.push({ path: '', code: 'connection_missing', message: 'give either pool (a pg.Pool) or connectionString' })
  } else if (pool !== undefined && connectionString !== undefined) {
    problems.push({ path: '/connectionString', code: 'connection_ambiguous', message: 'give either pool or connectionString, not both' })
  }
  if (pool !== undefined && !isPool(pool)) problems.push({ path: '/pool', code: 'invalid_pool', message: 'pool must be a pg.Pool (an object with query and connect functions)' })
  if (connectionString !== undefined && (typeof connectionString !== 'string' || connectionString.length === 0)) {
    problems.push({ path: '/connectionString', code: 'invalid_connection_string', message: 'connectionString must be a non-empty string' })
  }
  if (typeof prefix !== 'string' || !TABLE_PREFIX.test(prefix) || prefix.length > MAX_TABLE_PREFIX_LENGTH) {
    problems.push({
      path: '/tablePrefix',
      code: 'invalid_table_prefix',
      message: `tablePrefix must be '' or a lowercase SQL identifier prefix ([a-z_][a-z0-9_]*) of at most ${MAX_TABLE_PREFIX_LENGTH} characters`,
    })
  }
  check(values, problems)
  if (problems.length > 0) fail()

  return {
    values,
    connect(poolMax?: number): ResolvedConnection {
      const tables = tableNames(prefix as string)
      if (pool !== undefined) return { pool: pool as pg.Pool, owned: false, tables }
      const own = new pg.Pool({ connectionString: connectionString as string, connectionTimeoutMillis: OWNED_POOL_CONNECTION_TIMEOUT_MS, ...(poolMax === undefined ? {} : { max: poolMax }) })
      // An idle connection the server drops emits 'error' on the pool; unheard, it would end the
      // process. The next query makes a new connection, and a failing one fails that call closed.
      own.on('error', () => undefined)
      return { pool: own, owned: true, tables }
    },
  }
}

function isPool(value: unknown): boolean {
  try {
    return typeof value === 'object' && value !== null && typeof (value as pg.Pool).query === 'function' && typeof (value as pg.Pool).connect === 'function'
  } catch {
    return false
  }
}
