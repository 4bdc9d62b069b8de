import type { ApprovalTokenRecord, ApprovalTokenStore } from 'result-views'
import type { CountingWrite } from './bounded-write.js'
import { instant, parseRecord, type Query } from './rows.js'
import { q, type TableNames } from './schema.js'

const HEX_HASH = /^[0-9a-f]{64}$/

/**
 * Tokens in `<prefix>approval_tokens`, keyed by the SHA-256 hash (never the token). `consume` is one
 * atomic `UPDATE … WHERE consumed_at IS NULL AND expires_at > $at RETURNING`: of any number of
 * concurrent callers, in any number of processes, exactly one gets `true`, and never for a token
 * past its `expires_at` at the consuming instant (the dispatcher's clock, passed as `consumed_at`).
 */
export function postgresTokenStore(query: Query, write: CountingWrite, t: TableNames): ApprovalTokenStore {
  const table = q(t.tokens)
  const insert = `INSERT INTO ${table} (token_hash, expires_at, consumed_at, record) VALUES ($1, ${instant('$2')}, $3, $4)`
  const get = `SELECT record, consumed_at FROM ${table} WHERE token_hash = $1`
  const consume = `UPDATE ${table} SET consumed_at = $2 WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > ${instant('$3')} RETURNING token_hash`
  const purge = `DELETE FROM ${table} WHERE expires_at < ${instant('$1')}`
  return {
    async insert(record: ApprovalTokenRecord): Promise<void> {
      const { consumed_at: consumedAt, ...rest } = record
      await write(insert, [record.token_hash, Date.parse(record.expires_at), consumedAt ?? null, JSON.stringify(rest)])
    },
    async get(tokenHash: string): Promise<ApprovalTokenRecord | undefined> {
      if (typeof tokenHash !== 'string' || !HEX_HASH.test(tokenHash)) return undefined
      const row = (await query(get, [tokenHash])).rows[0] as { record: unknown; consumed_at: unknown } | undefined
      const record = parseRecord<ApprovalTokenRecord>(row)
      if (record === undefined || row?.consumed_at === null || row?.consumed_at === undefined) return record
      return { ...record, consumed_at: String(row.consumed_at) }
    },
    async consume(tokenHash: string, consumedAt: string): Promise<boolean> {
      if (typeof tokenHash !== 'string' || !HEX_HASH.test(tokenHash)) return false
      return (await write(consume, [tokenHash, consumedAt, Date.parse(consumedAt)])).rowCount === 1
    },
    async deleteExpired(before: string): Promise<number> {
      return (await write(purge, [Date.parse(before)])).rowCount ?? 0
    },
  }
}
