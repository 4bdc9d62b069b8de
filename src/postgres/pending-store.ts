import type { PendingApprovalRecord, PendingApprovalStore, PendingState } from 'result-views'
import { instant, isTextKey, parseRecord, requireTextKey, type Query } from './rows.js'
import { q, type TableNames } from './schema.js'

/**
 * Pending approvals in `<prefix>pending_approvals`. `update` is one compare-and-set on the state
 * column (`UPDATE … WHERE approval_id = $1 AND state = $from`): of any number of concurrent
 * updates from one state, in any number of processes, exactly one wins. The record, input
 * included, is opaque JSON text to the database. `list(profileId)` (for `listPending` and the
 * console) scans the table for records whose text holds the owner as `JSON.stringify` writes it,
 * then keeps those whose parsed `scope.profile_id` is exactly the owner: no index, not a hot path.
 */
export function postgresPendingStore(query: Query, write: Query, t: TableNames): PendingApprovalStore {
  const table = q(t.pending)
  const insert = `INSERT INTO ${table} (approval_id, state, expires_at, record) VALUES ($1, $2, ${instant('$3')}, $4)`
  const get = `SELECT record FROM ${table} WHERE approval_id = $1`
  const list = `SELECT record FROM ${table} WHERE strpos(record, $1) > 0`
  const update = `UPDATE ${table} SET state = $3, expires_at = ${instant('$4')}, record = $5 WHERE approval_id = $1 AND state = $2`
  return {
    async insert(record: PendingApprovalRecord): Promise<void> {
      await write(insert, [requireTextKey(record.approval_id, 'approval_id'), record.state, Date.parse(record.expires_at), JSON.stringify(record)])
    },
    async get(approvalId: string): Promise<PendingApprovalRecord | undefined> {
      if (!isTextKey(approvalId)) return undefined
      return parseRecord<PendingApprovalRecord>((await query(get, [approvalId])).rows[0])
    },
    async update(approvalId: string, from: PendingState, next: PendingApprovalRecord): Promise<boolean> {
      if (!isTextKey(approvalId) || !isTextKey(from)) return false
      const record = { ...next, approval_id: approvalId }
      return (await write(update, [approvalId, from, record.state, Date.parse(record.expires_at), JSON.stringify(record)])).rowCount === 1
    },
    async list(profileId: string): Promise<PendingApprovalRecord[]> {
      if (typeof profileId !== 'string' || profileId.length === 0) return []
      // The text search only narrows the scan (the same JSON.stringify wrote every record); the
      // parsed owner decides, so an input or another field holding the same text is not listed.
      const rows = (await query(list, [`"profile_id":${JSON.stringify(profileId)}`])).rows
      return rows
        .map((row) => parseRecord<PendingApprovalRecord>(row))
        .filter((record): record is PendingApprovalRecord => record !== undefined && record.scope?.profile_id === profileId)
    },
  }
}
