import { grantKeyText, type ApprovalGrant, type ApprovalGrantStore, type GrantKey } from 'result-views'
import { isTextKey, parseRecord, requireTextKey, type Query } from './rows.js'
import { q, type TableNames } from './schema.js'

/**
 * Grants in `<prefix>approval_grants`. The key columns hold JSON text, so every string keys
 * exactly as in memory (a lone surrogate or U+0000 in a workspace ID never meets another
 * workspace's grants): `grant_key` is `grantKeyText(grant)` (unique: `put` is one atomic upsert),
 * `workspace_key` is the workspace ID as a JSON string. `list` returns grants in the order they
 * were first put.
 */
export function postgresGrantStore(query: Query, write: Query, t: TableNames): ApprovalGrantStore {
  const table = q(t.grants)
  const put = `INSERT INTO ${table} (grant_key, workspace_key, grant_id, record) VALUES ($1, $2, $3, $4)
ON CONFLICT (grant_key) DO UPDATE SET workspace_key = EXCLUDED.workspace_key, grant_id = EXCLUDED.grant_id, record = EXCLUDED.record`
  const get = `SELECT record FROM ${table} WHERE grant_key = $1`
  const list = `SELECT record FROM ${table} WHERE workspace_key = $1 ORDER BY position`
  const remove = `DELETE FROM ${table} WHERE workspace_key = $1 AND grant_id = $2`
  return {
    async put(grant: ApprovalGrant): Promise<void> {
      await write(put, [grantKeyText(grant), JSON.stringify(grant.workspace_id), requireTextKey(grant.grant_id, 'grant_id'), JSON.stringify(grant)])
    },
    async get(key: GrantKey): Promise<ApprovalGrant | undefined> {
      return parseRecord<ApprovalGrant>((await query(get, [grantKeyText(key)])).rows[0])
    },
    async list(workspaceId: string): Promise<ApprovalGrant[]> {
      const { rows } = await query(list, [JSON.stringify(workspaceId)])
      return rows.map((row) => parseRecord<ApprovalGrant>(row)!)
    },
    async delete(workspaceId: string, grantId: string): Promise<boolean> {
      if (!isTextKey(grantId)) return false
      return ((await write(remove, [JSON.stringify(workspaceId), grantId])).rowCount ?? 0) > 0
    },
  }
}
