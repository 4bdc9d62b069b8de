import Database from 'better-sqlite3'
import { optionsTable, readOptions } from '../options/options.js'
import { ApprovalConfigError, grantKeyText } from 'result-views'
import type { ApprovalGrant, ApprovalGrantStore, ApprovalStores, ApprovalTokenRecord, ApprovalTokenStore, GrantKey, PendingApprovalRecord, PendingApprovalStore, PendingState, UsageProblem } from 'result-views'
import { prepareDatabase, SCHEMA_VERSION, TABLES } from './schema.js'

/** Options of {@link createSqliteApprovalStores}. */
export interface SqliteApprovalStoresOptions {
  /** Path of the database file, created when missing (one file, plus SQLite's `-wal` and `-shm` companions). `':memory:'` keeps nothing. */
  filename: string
  /** How long a write waits for another connection's lock, in milliseconds. Default 5000. */
  busyTimeoutMs?: number
}

/** The three approval stores on one SQLite file, and the connection they share. */
export interface SqliteApprovalStores extends ApprovalStores {
  /** The better-sqlite3 connection (for backups or inspection; the tables are `result_views_*`). */
  readonly database: Database.Database
  /** Closes the connection. The stores fail (and calls needing them fail closed) afterwards. */
  close(): void
}

/** The options `createSqliteApprovalStores` knows; any other key is refused (`unknown_option`). */
const SQLITE_OPTIONS = optionsTable(['filename', 'busyTimeoutMs'])

/**
 * Approval stores on `better-sqlite3@12` (`result-views/sqlite`): tokens, grants and pending
 * approvals in one database file in WAL mode. Every method is one SQL statement, so it is atomic
 * even between processes sharing the file: `consume` is `UPDATE … WHERE consumed_at IS NULL` and
 * `update` is `UPDATE … WHERE state = ?`, so of N concurrent callers exactly one wins. Records are
 * stored as JSON text and come back as new objects. They survive a restart of the process.
 *
 * @throws ApprovalConfigError (`code: 'approval_config_invalid'`) for bad options or a file written
 *   by a newer schema version; better-sqlite3's own error when the file cannot be opened.
 */
export function createSqliteApprovalStores(options: SqliteApprovalStoresOptions): SqliteApprovalStores {
  const problems: UsageProblem[] = []
  const read = readOptions(options, SQLITE_OPTIONS, '', problems) as Partial<SqliteApprovalStoresOptions>
  const filename = read.filename
  const busyTimeoutMs = read.busyTimeoutMs ?? 5_000
  if (typeof filename !== 'string' || filename.length === 0) problems.push({ path: '/filename', code: 'invalid_filename', message: 'filename must be a non-empty path' })
  if (typeof busyTimeoutMs !== 'number' || !Number.isSafeInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
    problems.push({ path: '/busyTimeoutMs', code: 'invalid_duration', message: 'busyTimeoutMs must be a non-negative integer of milliseconds' })
  }
  if (problems.length > 0) throw new ApprovalConfigError(problems)

  const db = new Database(filename)
  const found = prepareDatabase(db, busyTimeoutMs)
  if (found > SCHEMA_VERSION) {
    db.close()
    throw new ApprovalConfigError([{ path: '/filename', code: 'schema_version_unsupported', message: `the database has approval schema version ${found}; this version of result-views reads up to ${SCHEMA_VERSION}` }])
  }
  return Object.freeze({ tokens: tokenStore(db), grants: grantStore(db), pending: pendingStore(db), database: db, close: () => db.close() })
}

type Row = { record: string; consumed_at?: string | null }

function tokenStore(db: Database.Database): ApprovalTokenStore {
  const insert = db.prepare(`INSERT INTO ${TABLES.tokens} (token_hash, expires_at, consumed_at, record) VALUES (?, ?, NULL, ?)`)
  const get = db.prepare<[string], Row>(`SELECT record, consumed_at FROM ${TABLES.tokens} WHERE token_hash = ?`)
  const consume = db.prepare(`UPDATE ${TABLES.tokens} SET consumed_at = ? WHERE token_hash = ? AND consumed_at IS NULL`)
  const purge = db.prepare(`DELETE FROM ${TABLES.tokens} WHERE expires_at < ?`)
  return {
    insert(record: ApprovalTokenRecord): void {
      const { consumed_at: _never, ...rest } = record
      insert.run(record.token_hash, record.expires_at, JSON.stringify(rest))
    },
    get(tokenHash: string): ApprovalTokenRecord | undefined {
      const row = get.get(tokenHash)
      if (row === undefined) return undefined
      const record = JSON.parse(row.record) as ApprovalTokenRecord
      return row.consumed_at === null || row.consumed_at === undefined ? record : { ...record, consumed_at: row.consumed_at }
    },
    consume: (tokenHash: string, consumedAt: string): boolean => consume.run(consumedAt, tokenHash).changes === 1,
    deleteExpired: (before: string): number => purge.run(before).changes,
  }
}

function grantStore(db: Database.Database): ApprovalGrantStore {
  const put = db.prepare(
    `INSERT INTO ${TABLES.grants} (grant_key, grant_id, workspace_id, record) VALUES (?, ?, ?, ?)
     ON CONFLICT (grant_key) DO UPDATE SET grant_id = excluded.grant_id, record = excluded.record`,
  )
  const get = db.prepare<[string], Row>(`SELECT record FROM ${TABLES.grants} WHERE grant_key = ?`)
  const list = db.prepare<[string], Row>(`SELECT record FROM ${TABLES.grants} WHERE workspace_id = ? ORDER BY rowid`)
  const remove = db.prepare(`DELETE FROM ${TABLES.grants} WHERE workspace_id = ? AND grant_id = ?`)
  return {
    put(grant: ApprovalGrant): void {
      put.run(grantKeyText(grant), grant.grant_id, grant.workspace_id, JSON.stringify(grant))
    },
    get(key: GrantKey): ApprovalGrant | undefined {
      const row = get.get(grantKeyText(key))
      return row === undefined ? undefined : (JSON.parse(row.record) as ApprovalGrant)
    },
    list: (workspaceId: string): ApprovalGrant[] => list.all(workspaceId).map((row) => JSON.parse(row.record) as ApprovalGrant),
    delete: (workspaceId: string, grantId: string): boolean => remove.run(workspaceId, grantId).changes > 0,
  }
}

function pendingStore(db: Database.Database): PendingApprovalStore {
  const insert = db.prepare(`INSERT INTO ${TABLES.pending} (approval_id, state, record) VALUES (?, ?, ?)`)
  const get = db.prepare<[string], Row>(`SELECT record FROM ${TABLES.pending} WHERE approval_id = ?`)
  const update = db.prepare(`UPDATE ${TABLES.pending} SET state = ?, record = ? WHERE approval_id = ? AND state = ?`)
  // A scan of the table (no index on the owner): for the console and listPending, not a hot path.
  const list = db.prepare<[string], Row>(`SELECT record FROM ${TABLES.pending} WHERE json_extract(record, '$.scope.profile_id') = ?`)
  return {
    insert(record: PendingApprovalRecord): void {
      insert.run(record.approval_id, record.state, JSON.stringify(record))
    },
    get(approvalId: string): PendingApprovalRecord | undefined {
      const row = get.get(approvalId)
      return row === undefined ? undefined : (JSON.parse(row.record) as PendingApprovalRecord)
    },
    update(approvalId: string, from: PendingState, next: PendingApprovalRecord): boolean {
      const record = { ...next, approval_id: approvalId }
      return update.run(record.state, JSON.stringify(record), approvalId, from).changes === 1
    },
    list(profileId: string): PendingApprovalRecord[] {
      return list.all(profileId).map((row) => JSON.parse(row.record) as PendingApprovalRecord)
    },
  }
}
