import { grantKeyText, type ApprovalGrant, type ApprovalGrantStore, type GrantKey, type PendingApprovalRecord, type PendingApprovalStore, type PendingState, type ApprovalStores, type ApprovalTokenRecord, type ApprovalTokenStore } from './stores.js'

/** A JSON round trip: records go in and come out as copies, exactly as a persistent store would keep them. */
function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}

/**
 * In-memory approval stores (`docs/approvals.md` "Implementing the stores (for hosts)"): the
 * dispatcher's default. Every method is synchronous, so each one is atomic in one process. Records
 * are copied in and out (a caller that changes a returned record changes nothing stored). Nothing
 * survives the process: use `createSqliteApprovalStores` (`result-views/sqlite`) to keep grants,
 * tokens and pending approvals across restarts or share them between processes.
 *
 * @returns `{ tokens, grants, pending }`, fresh and empty.
 */
export function createMemoryApprovalStores(): ApprovalStores {
  return Object.freeze({ tokens: memoryTokenStore(), grants: memoryGrantStore(), pending: memoryPendingStore() })
}

function memoryTokenStore(): ApprovalTokenStore {
  const records = new Map<string, ApprovalTokenRecord>()
  return {
    insert(record: ApprovalTokenRecord): void {
      records.set(record.token_hash, copy(record))
    },
    get(tokenHash: string): ApprovalTokenRecord | undefined {
      const record = records.get(tokenHash)
      return record === undefined ? undefined : copy(record)
    },
    consume(tokenHash: string, consumedAt: string): boolean {
      const record = records.get(tokenHash)
      if (record === undefined || record.consumed_at !== undefined) return false
      records.set(tokenHash, { ...record, consumed_at: consumedAt })
      return true
    },
    deleteExpired(before: string): number {
      let deleted = 0
      for (const [hash, record] of records) {
        if (record.expires_at < before) {
          records.delete(hash)
          deleted++
        }
      }
      return deleted
    },
  }
}

function memoryGrantStore(): ApprovalGrantStore {
  const grants = new Map<string, ApprovalGrant>()
  return {
    put(grant: ApprovalGrant): void {
      grants.set(grantKeyText(grant), copy(grant))
    },
    get(key: GrantKey): ApprovalGrant | undefined {
      // Every call in a workspace looks up to three keys: an empty store answers without writing them.
      if (grants.size === 0) return undefined
      const grant = grants.get(grantKeyText(key))
      return grant === undefined ? undefined : copy(grant)
    },
    list(workspaceId: string): ApprovalGrant[] {
      return [...grants.values()].filter((grant) => grant.workspace_id === workspaceId).map(copy)
    },
    delete(workspaceId: string, grantId: string): boolean {
      for (const [key, grant] of grants) {
        if (grant.grant_id === grantId && grant.workspace_id === workspaceId) return grants.delete(key)
      }
      return false
    },
  }
}

function memoryPendingStore(): PendingApprovalStore {
  const records = new Map<string, PendingApprovalRecord>()
  return {
    insert(record: PendingApprovalRecord): void {
      records.set(record.approval_id, copy(record))
    },
    get(approvalId: string): PendingApprovalRecord | undefined {
      const record = records.get(approvalId)
      return record === undefined ? undefined : copy(record)
    },
    update(approvalId: string, from: PendingState, next: PendingApprovalRecord): boolean {
      const record = records.get(approvalId)
      if (record === undefined || record.state !== from) return false
      records.set(approvalId, copy({ ...next, approval_id: approvalId }))
      return true
    },
  }
}
