import type { ApprovalGrantStore } from './grant-store.js'
import type { PendingApprovalStore } from './pending-store.js'
import type { ApprovalTokenStore } from './token-store.js'

/** A value or a promise of it: store methods may be sync or async. */
export type Awaitable<T> = T | Promise<T>

/**
 * The three approval stores a host plugs into `createDispatcher({ approvals })`. The reference
 * implementations are `createMemoryApprovalStores()` (root entry) and
 * `createSqliteApprovalStores()` (`result-views/sqlite`); `describeApprovalStoreConformance`
 * (`result-views/testing`) is the contract a host's own stores must pass.
 */
export interface ApprovalStores {
  readonly tokens: ApprovalTokenStore
  readonly grants: ApprovalGrantStore
  readonly pending: PendingApprovalStore
}
