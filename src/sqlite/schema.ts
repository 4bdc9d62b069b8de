import type BetterSqlite3 from 'better-sqlite3'

/** The schema version this entry writes (`PRAGMA user_version`). */
export const SCHEMA_VERSION = 1

/** Table names: prefixed, so the stores can share a host's database file. */
export const TABLES = {
  tokens: 'result_views_approval_tokens',
  grants: 'result_views_approval_grants',
  pending: 'result_views_pending_approvals',
} as const

const DDL = `
CREATE TABLE IF NOT EXISTS ${TABLES.tokens} (
  token_hash TEXT PRIMARY KEY,
  expires_at TEXT NOT NULL,
  consumed_at TEXT,
  record TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS ${TABLES.tokens}_expires_at ON ${TABLES.tokens} (expires_at);
CREATE TABLE IF NOT EXISTS ${TABLES.grants} (
  grant_key TEXT PRIMARY KEY,
  grant_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  record TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS ${TABLES.grants}_workspace ON ${TABLES.grants} (workspace_id, grant_id);
CREATE TABLE IF NOT EXISTS ${TABLES.pending} (
  approval_id TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  record TEXT NOT NULL
) STRICT;
`

/**
 * Prepares a connection: WAL journal (readers never block the writer, and another process sees
 * every committed write), `synchronous = FULL` (a committed consume survives a crash, so a token
 * is never usable twice), a busy timeout (a second process waits for the lock instead of failing),
 * and the tables, created once in one transaction.
 *
 * @returns the schema version found before (0 for a new file).
 */
export function prepareDatabase(db: BetterSqlite3.Database, busyTimeoutMs: number): number {
  db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = FULL')
  const found = db.pragma('user_version', { simple: true }) as number
  if (found > SCHEMA_VERSION) return found
  db.transaction(() => {
    db.exec(DDL)
    db.pragma(`user_version = ${SCHEMA_VERSION}`)
  }).immediate()
  return found
}
