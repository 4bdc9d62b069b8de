import { createHash, randomUUID } from 'node:crypto'
import type pg from 'pg'
import { ToolError, type UsageProblem } from 'result-views'
import { openSealedText, sealText } from '../approval/sealed-text.js'
import { resolveKeyRing, sealKeyRingAt, type KeyRingSpec, type SealKeys } from '../approval/seal.js'
import type { ContinuationFound, ContinuationPart, ContinuationRead, ContinuationResult, ContinuationStore, ContinuationStoreOptions } from '../continuation/continuation-store.js'
import { checkContinuationPut, CONTINUATION_DEFAULTS } from '../continuation/continuation-store.js'
import { boundedSteps, boundedWrites, DEFAULT_STATEMENT_TIMEOUT_MS } from './bounded-write.js'
import { readOptions, type PostgresApprovalStoresOptions } from './options.js'
import { instant, isTextKey } from './rows.js'
import { continuationLockKey, q } from './schema.js'

/**
 * Options of {@link createPostgresContinuationStore}: the connection and table prefix `migrate`
 * takes, the store's bounds, the seal keys, and the server-side bound of each write.
 */
export interface PostgresContinuationStoreOptions extends PostgresApprovalStoresOptions, ContinuationStoreOptions {
  /**
   * With it, every part is sealed at rest: AES-256-GCM under this key, bound to its row (result,
   * part, scope digest, tool), so the database never holds a tool's result in clear. 32 bytes (a
   * `Uint8Array` or `Buffer`, e.g. `Buffer.from(process.env.SEAL_KEY, 'base64')`); give every
   * instance the same key. Default none (parts stored as their UTF-8 bytes).
   */
  sealKey?: Uint8Array
  /** Older seal keys that still open parts sealed before a rotation (never seal). Only with `sealKey`. */
  previousSealKeys?: readonly Uint8Array[]
  /** The bound of each write (`put`, `deleteExpired`, the drop of an expired result), in milliseconds, as `createPostgresApprovalStores` has it. Default 4000. */
  statementTimeoutMs?: number
}

/** A continuation store on PostgreSQL, and the pool it queries. */
export interface PostgresContinuationStore extends ContinuationStore {
  /** The `pg.Pool` the store queries: the host's `pool`, or the one made from `connectionString`. */
  readonly database: pg.Pool
  /** Ends the pool if the store made it (from `connectionString`); leaves a host's `pool` open. Calling it again does nothing. */
  close(): Promise<void>
}

// The same key IDs as `approvals.sealKey` gives: one key, one name, wherever it seals.
const SEAL_KEYS: KeyRingSpec = sealKeyRingAt('')

const EXTRA_KEYS = ['maxEntries', 'maxBytes', 'ttlMs', 'sealKey', 'previousSealKeys', 'statementTimeoutMs'] as const

/** Largest `start` the table holds (`integer`): a larger one names no part. */
const MAX_START = 2 ** 31 - 1
/** The label of a part's associated data. */
const AAD_LABEL = 'result-views continuation part v1\n'

/**
 * A continuation store on PostgreSQL (`result-views/postgres`), for a host that runs several
 * HTTP or MCP instances behind a load balancer: give each instance's handler
 * `continuationStore: createPostgresContinuationStore(...)` on one database, and a handle issued
 * by one instance is read back, part by part, on any other (`docs/deploy.md` "Several
 * instances"). Results live in `<prefix>continuations` and their parts in
 * `<prefix>continuation_parts` (made by {@link migrate}, schema version 2), the scope only as a
 * SHA-256 digest.
 *
 * Bounded as the memory store is, over every instance: each `put` runs in one transaction under an
 * advisory lock, drops expired results and then the oldest until the new one fits `maxEntries` and
 * `maxBytes`, and inserts it with all its parts, or does nothing; a result larger than `maxBytes`
 * is not kept (`undefined`). A read past `ttlMs` answers `expired` and drops the result. Writes are
 * bounded on the server by `statementTimeoutMs` (rolled back past it). With `sealKey`, every part
 * is sealed at rest (see {@link PostgresContinuationStoreOptions}); a part whose key is not held is
 * `continuation_unavailable` / `seal_key_unknown`, one that does not open, or a part kept unsealed
 * (written by an instance without the key), `seal_invalid`. A
 * failing database rejects: the surface answers `continuation_unavailable` / `store_failed`.
 *
 * @param options - `{ pool }` or `{ connectionString }`, `tablePrefix?`, `maxEntries?` (default
 *   100), `maxBytes?` (default 64 MiB), `ttlMs?` (default 600,000), `sealKey?`,
 *   `previousSealKeys?`, `statementTimeoutMs?` (default 4000).
 * @throws PostgresOptionsError (`postgres_options_invalid`) listing every bad option:
 *   `invalid_limit`, `invalid_seal_key`, `seal_key_missing`, `invalid_statement_timeout`, and the
 *   connection problems `createPostgresApprovalStores` has.
 */
export function createPostgresContinuationStore(options: PostgresContinuationStoreOptions): PostgresContinuationStore {
  let keys: SealKeys | undefined
  const read = readOptions('createPostgresContinuationStore(options)', options, EXTRA_KEYS, (values, problems: UsageProblem[]) => {
    for (const key of ['maxEntries', 'maxBytes', 'ttlMs'] as const) {
      const value = values[key]
      if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 1)) problems.push({ path: `/${key}`, code: 'invalid_limit', message: `${key} must be an integer ≥ 1` })
    }
    const bound = values.statementTimeoutMs
    if (bound !== undefined && !(Number.isInteger(bound) && (bound as number) > 0 && (bound as number) <= 2 ** 31 - 1)) {
      problems.push({ path: '/statementTimeoutMs', code: 'invalid_statement_timeout', message: 'statementTimeoutMs must be a positive integer of milliseconds of at most 2147483647' })
    }
    keys = resolveKeyRing(values.sealKey, values.previousSealKeys, SEAL_KEYS, problems)
  })
  const v = read.values
  const maxEntries = (v.maxEntries as number | undefined) ?? CONTINUATION_DEFAULTS.maxEntries
  const maxBytes = (v.maxBytes as number | undefined) ?? CONTINUATION_DEFAULTS.maxBytes
  const ttlMs = (v.ttlMs as number | undefined) ?? CONTINUATION_DEFAULTS.ttlMs
  const timeoutMs = (v.statementTimeoutMs as number | undefined) ?? DEFAULT_STATEMENT_TIMEOUT_MS
  const { pool, owned, tables } = read.connect()
  const steps = boundedSteps(pool, timeoutMs)
  const write = boundedWrites(pool, timeoutMs)
  const [results, parts] = [q(tables.continuations), q(tables.parts)]
  const lock = ['SELECT pg_advisory_xact_lock($1::bigint)', [continuationLockKey(tables.prefix)]] as const
  // Expired results first, then the oldest of the others (newest first, counting this one) past a bound.
  const put = `WITH dropped AS (
  DELETE FROM ${results} WHERE expires_at <= ${instant('$1')} OR result_id IN (
    SELECT result_id FROM (
      SELECT result_id, row_number() OVER w AS rank, sum(total_bytes) OVER w AS bytes FROM ${results}
      WHERE expires_at > ${instant('$1')} WINDOW w AS (ORDER BY position DESC)
    ) kept WHERE kept.rank >= $2 OR kept.bytes + $3 > $4)
), inserted AS (
  INSERT INTO ${results} (result_id, scope_digest, tool_id, result_view, total_bytes, expires_at) VALUES ($5, $6, $7, $8, $3, ${instant('$9')})
)
INSERT INTO ${parts} (result_id, start, part, bytes_from, next_start, body, key_id, iv, tag)
SELECT $5, * FROM unnest($10::integer[], $11::integer[], $12::bigint[], $13::integer[], $14::bytea[], $15::text[], $16::bytea[], $17::bytea[])`
  const get = `SELECT r.scope_digest, r.tool_id, r.result_view, r.total_bytes, r.expires_at <= ${instant('$3')} AS expired,
  p.part, p.bytes_from, p.next_start, p.body, p.key_id, p.iv, p.tag
FROM ${parts} p JOIN ${results} r ON r.result_id = p.result_id WHERE p.result_id = $1 AND p.start = $2`
  const drop = `DELETE FROM ${results} WHERE result_id = $1`
  const purge = `DELETE FROM ${results} WHERE expires_at <= ${instant('$1')}`
  let closing: Promise<void> | undefined
  return Object.freeze({
    database: pool,
    close: (): Promise<void> => (closing ??= owned ? pool.end() : Promise.resolve()),
    async put(result: ContinuationResult, now: number): Promise<string | undefined> {
      checkContinuationPut(result, now)
      if (result.total_bytes > maxBytes) return undefined
      const id = randomUUID()
      const scope = digestOf(result.scope_key)
      const rows = result.parts.map((part) => {
        if (!isTextKey(part.text)) throw new RangeError('a part holds U+0000 or a lone surrogate, which its UTF-8 bytes cannot hold exactly')
        if (keys === undefined) return { part, body: Buffer.from(part.text, 'utf8'), key_id: null, iv: null, tag: null }
        const sealed = sealText(keys, associatedData(id, part, scope, result), part.text)
        return { part, body: sealed.ciphertext, key_id: sealed.key_id, iv: sealed.iv, tag: sealed.tag }
      })
      await steps([
        lock,
        [
          put,
          [
            now, maxEntries, result.total_bytes, maxBytes, id, scope, result.tool_id, result.result_view ?? null, now + ttlMs,
            rows.map((row) => row.part.start), rows.map((row) => row.part.part), rows.map((row) => row.part.bytes_from), rows.map((row) => row.part.next ?? null),
            rows.map((row) => row.body), rows.map((row) => row.key_id), rows.map((row) => row.iv), rows.map((row) => row.tag),
          ],
        ],
      ])
      return id
    },
    async read(id: string, start: number, scopeKey: string, now: number): Promise<ContinuationRead> {
      if (!isTextKey(id) || !Number.isSafeInteger(start) || start < 1 || start > MAX_START) return { kind: 'unknown' }
      const row = (await pool.query(get, [id, start, now])).rows[0] as Row | undefined
      if (row === undefined) return { kind: 'unknown' }
      if (row.expired === true) {
        // Dropped now, or by the next put or sweep if this write fails: the answer is the same.
        await write(drop, [id]).catch(() => undefined)
        return { kind: 'expired' }
      }
      if (row.scope_digest !== digestOf(scopeKey)) return { kind: 'foreign' }
      const part: ContinuationPart = {
        start,
        part: Number(row.part),
        bytes_from: Number(row.bytes_from),
        text: '',
        ...(row.next_start === null ? {} : { next: Number(row.next_start) }),
      }
      const facts = { tool_id: String(row.tool_id), total_bytes: Number(row.total_bytes), ...(row.result_view === null ? {} : { result_view: String(row.result_view) }) }
      let text: string
      if (row.key_id === null) {
        // A sealed store opens sealed parts only: a clear row is planted, or written by an instance without the key.
        if (keys !== undefined) throw sealRefused('seal_invalid')
        if (!Buffer.isBuffer(row.body)) throw new TypeError('the body column did not come back as bytes')
        text = row.body.toString('utf8')
      } else {
        const opened = openSealedText(keys, associatedData(id, part, row.scope_digest, facts), { key_id: row.key_id, iv: row.iv, ciphertext: row.body, tag: row.tag })
        if (!opened.ok) throw sealRefused(opened.reason)
        text = opened.text
      }
      const found: ContinuationFound = { ...part, text, ...facts }
      return { kind: 'found', part: found }
    },
    async deleteExpired(now: number): Promise<number> {
      return (await write(purge, [now])).rowCount ?? 0
    },
  })
}

/** A row of the read. */
interface Row {
  readonly scope_digest: string
  readonly tool_id: unknown
  readonly result_view: unknown
  readonly total_bytes: unknown
  readonly expired: unknown
  readonly part: unknown
  readonly bytes_from: unknown
  readonly next_start: unknown
  readonly body: unknown
  readonly key_id: unknown
  readonly iv: unknown
  readonly tag: unknown
}

/**
 * The scope as the table keeps it: hex SHA-256 of its key's WTF-8 bytes, which are its UTF-8 bytes
 * for every well-formed key (so rows kept before stay readable), and encode a lone surrogate as its
 * own three bytes, never as U+FFFD (so `'S\ud800'` and `'S\ufffd'` are two scopes, as in memory).
 */
function digestOf(scopeKey: string): string {
  return createHash('sha256').update(wtf8(scopeKey)).digest('hex')
}

/** A string's generalised UTF-8: UTF-8, with each lone surrogate encoded as if it were a code point. */
function wtf8(text: string): Buffer {
  if (!/[\ud800-\udfff]/u.test(text)) return Buffer.from(text, 'utf8')
  const chunks: Buffer[] = []
  for (const char of text) {
    const unit = char.charCodeAt(0)
    if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) chunks.push(Buffer.from([0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]))
    else chunks.push(Buffer.from(char, 'utf8'))
  }
  return Buffer.concat(chunks)
}

/** What a part's seal is bound to: every column a read answers from, so no changed row opens. */
function associatedData(id: string, part: Omit<ContinuationPart, 'text'>, scopeDigest: string, result: { tool_id: string; result_view?: string | undefined; total_bytes: number }): string {
  return AAD_LABEL + JSON.stringify([id, part.start, part.part, part.bytes_from, part.next ?? null, scopeDigest, result.tool_id, result.result_view ?? null, result.total_bytes])
}

function sealRefused(reason: 'seal_key_unknown' | 'seal_invalid'): ToolError {
  const message =
    reason === 'seal_key_unknown'
      ? 'the continuation part is sealed with a key this store does not have: give that key as sealKey or in previousSealKeys'
      : 'the continuation part does not open with its key (changed, copied, malformed, or kept unsealed by an instance without sealKey)'
  return new ToolError({ code: 'continuation_unavailable', reason, message })
}
