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

/**
 * Whether a memory grant store holds any grant of one tool in one workspace, keyed by the stores
 * `createMemoryApprovalStores` made. The approval step asks it before looking a call up: with no
 * grant of the tool in the workspace (the common case) no key, no input digest and no store call
 * is needed. It answers only while the store's own `get` and `put` are in place: a host that
 * replaced either (a wrapper, a test double) is asked through them, as any store is.
 */
const toolsHeld = new WeakMap<ApprovalGrantStore, (workspaceId: string, toolId: string) => boolean | undefined>()

/** The memory store's answer to "does this workspace hold a grant of this tool?"; `undefined` for any other store, or one whose methods were replaced. */
export function memoryGrantsOfTool(store: ApprovalGrantStore): ((workspaceId: string, toolId: string) => boolean | undefined) | undefined {
  return toolsHeld.get(store)
}

function memoryGrantStore(): ApprovalGrantStore {
  const grants = new Map<string, ApprovalGrant>()
  // How many grants each (workspace, tool) holds, at every scope.
  const perTool = new Map<string, number>()
  const toolKey = (workspaceId: string, toolId: string): string => `${workspaceId.length}:${workspaceId}${toolId}`
  const count = (grant: ApprovalGrant, by: number): void => {
    const key = toolKey(grant.workspace_id, grant.tool_id)
    const next = (perTool.get(key) ?? 0) + by
    if (next === 0) perTool.delete(key)
    else perTool.set(key, next)
  }
  const store: ApprovalGrantStore = {
    put(grant: ApprovalGrant): void {
      const key = grantKeyText(grant)
      if (!grants.has(key)) count(grant, 1)
      grants.set(key, copy(grant))
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
        if (grant.grant_id === grantId && grant.workspace_id === workspaceId) {
          count(grant, -1)
          return grants.delete(key)
        }
      }
      return false
    },
  }
  const { get, put } = store
  // Own data properties read without running any code (a getter put there is not a `get` of ours).
  const ownMethod = (name: 'get' | 'put'): unknown => Object.getOwnPropertyDescriptor(store, name)?.value
  toolsHeld.set(store, (workspaceId, toolId) => {
    if (ownMethod('get') !== get || ownMethod('put') !== put) return undefined
    // No grant at all (the common case): no key to build.
    return perTool.size !== 0 && perTool.has(toolKey(workspaceId, toolId))
  })
  return store
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
    list(profileId: string): PendingApprovalRecord[] {
      return [...records.values()].filter((record) => record.scope.profile_id === profileId).map(copy)
    },
  }
}
