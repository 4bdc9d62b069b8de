import { createHash } from 'node:crypto'

/** The schema version this release writes and reads: the highest migration below. */
export const SCHEMA_VERSION = 2

/** The default table prefix: the tables are `result_views_approval_tokens`, ... */
export const DEFAULT_TABLE_PREFIX = 'result_views_'

/**
 * Longest prefix: the longest name derived from it (`<prefix>approval_grants_position_seq`, 28 more
 * characters) stays within PostgreSQL's 63-byte identifiers, so no name is ever silently truncated
 * into another prefix's.
 */
export const MAX_TABLE_PREFIX_LENGTH = 30

/** A lowercase SQL identifier prefix: unquoted, it folds to itself, so `psql` users type the names as they read them. */
export const TABLE_PREFIX = /^(?:[a-z_][a-z0-9_]*)?$/

/** The table names for one prefix (validated by the options; every name is double-quoted in SQL anyway). */
export interface TableNames {
  readonly prefix: string
  readonly migrations: string
  readonly tokens: string
  readonly grants: string
  readonly pending: string
  /** Kept results of the continuation store (one row per cut result). */
  readonly continuations: string
  /** Their parts after the first (one row per part). */
  readonly parts: string
}

export function tableNames(prefix: string): TableNames {
  return Object.freeze({
    prefix,
    migrations: `${prefix}approval_migrations`,
    tokens: `${prefix}approval_tokens`,
    grants: `${prefix}approval_grants`,
    pending: `${prefix}pending_approvals`,
    continuations: `${prefix}continuations`,
    parts: `${prefix}continuation_parts`,
  })
}

/** `"name"`: the names are `[a-z0-9_]` only (checked), so quoting is plain. */
export const q = (name: string): string => `"${name}"`

/**
 * The key of the transaction-level advisory lock `migrate` holds: the first 8 bytes of
 * SHA-256(`result-views/postgres migrate <prefix>`) as a signed 64-bit integer (decimal text), so
 * every instance and every release computes the same key for the same tables.
 */
export function migrationLockKey(prefix: string): string {
  return createHash('sha256').update(`result-views/postgres migrate ${prefix}`, 'utf8').digest().readBigInt64BE(0).toString()
}

/**
 * The key of the transaction-level advisory lock each continuation `put` holds, so that the bounds
 * (entries, bytes) hold over every instance: as {@link migrationLockKey}, of
 * `result-views/postgres continuations <prefix>`.
 */
export function continuationLockKey(prefix: string): string {
  return createHash('sha256').update(`result-views/postgres continuations ${prefix}`, 'utf8').digest().readBigInt64BE(0).toString()
}

/** The table that records which migrations ran (one row per version). */
export function migrationsTableDdl(t: TableNames): string {
  return `CREATE TABLE IF NOT EXISTS ${q(t.migrations)} (
  version integer PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now()
)`
}

/**
 * The migrations, in order: `version` N brings the schema from N-1 to N. Each runs once, inside
 * `migrate`'s transaction. Records are JSON text (`text`, not `jsonb`: `jsonb` rejects `\u0000`
 * and lone surrogates, and reorders keys), so a pending record's input stays opaque to the
 * database; the other columns exist to find and change rows atomically.
 */
export const MIGRATIONS: ReadonlyArray<{ readonly version: number; readonly sql: (t: TableNames) => string }> = [
  {
    version: 1,
    sql: (t) => `
CREATE TABLE ${q(t.tokens)} (
  token_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  consumed_at text,
  record text NOT NULL,
  CONSTRAINT ${q(`${t.tokens}_pkey`)} PRIMARY KEY (token_hash),
  CONSTRAINT ${q(`${t.tokens}_hash`)} CHECK (token_hash ~ '^[0-9a-f]{64}$')
);
CREATE INDEX ${q(`${t.tokens}_expires_at`)} ON ${q(t.tokens)} (expires_at);
CREATE TABLE ${q(t.grants)} (
  grant_key text NOT NULL,
  workspace_key text NOT NULL,
  grant_id text NOT NULL,
  position bigint GENERATED ALWAYS AS IDENTITY,
  record text NOT NULL,
  CONSTRAINT ${q(`${t.grants}_pkey`)} PRIMARY KEY (grant_key)
);
CREATE INDEX ${q(`${t.grants}_workspace`)} ON ${q(t.grants)} (workspace_key, grant_id);
CREATE TABLE ${q(t.pending)} (
  approval_id text NOT NULL,
  state text NOT NULL,
  expires_at timestamptz NOT NULL,
  record text NOT NULL,
  CONSTRAINT ${q(`${t.pending}_pkey`)} PRIMARY KEY (approval_id),
  CONSTRAINT ${q(`${t.pending}_state`)} CHECK (state IN ('pending', 'dispatching', 'completed', 'failed', 'denied', 'canceled', 'expired'))
);`,
  },
  {
    // The continuation store (`createPostgresContinuationStore`): a result row and its parts,
    // dropped together. A part's text is its UTF-8 bytes, or with a seal key its AES-256-GCM
    // ciphertext (`key_id`, `iv`, `tag` set). The scope is kept as a SHA-256 digest only.
    version: 2,
    sql: (t) => `
CREATE TABLE ${q(t.continuations)} (
  result_id text NOT NULL,
  position bigint GENERATED ALWAYS AS IDENTITY,
  scope_digest text NOT NULL,
  tool_id text NOT NULL,
  result_view text,
  total_bytes bigint NOT NULL,
  expires_at timestamptz NOT NULL,
  CONSTRAINT ${q(`${t.continuations}_pkey`)} PRIMARY KEY (result_id)
);
CREATE INDEX ${q(`${t.continuations}_expires_at`)} ON ${q(t.continuations)} (expires_at);
CREATE TABLE ${q(t.parts)} (
  result_id text NOT NULL,
  start integer NOT NULL,
  part integer NOT NULL,
  bytes_from bigint NOT NULL,
  next_start integer,
  body bytea NOT NULL,
  key_id text,
  iv bytea,
  tag bytea,
  CONSTRAINT ${q(`${t.parts}_pkey`)} PRIMARY KEY (result_id, start),
  CONSTRAINT ${q(`${t.parts}_result`)} FOREIGN KEY (result_id) REFERENCES ${q(t.continuations)} (result_id) ON DELETE CASCADE
);`,
  },
]
