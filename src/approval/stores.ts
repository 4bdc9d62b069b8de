import type { ToolResult } from '../call/call.js'
import type { ToolErrorPayload } from '../errors/tool-error.js'
import type { CallScope } from '../tool/types.js'
import type { View } from '../views/view.js'

// The store contracts: what a host implements to keep approval tokens, remembered decisions
// (grants) and pending approvals, and the records they hold. Reference implementations:
// `createMemoryApprovalStores()` (memory-stores.ts) and `createSqliteApprovalStores()`
// (`result-views/sqlite`); `describeApprovalStoreConformance` (`result-views/testing`) is the
// executable contract.

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

/**
 * A minted approval token as stored: never the token itself, only its SHA-256 hash (spec 001
 * "Approval-gated tools": tokens are short-lived credentials). Plain JSON; times are ISO 8601 UTC
 * strings with milliseconds (`2026-11-10T14:02:11.000Z`), so they compare as strings.
 */
export interface ApprovalTokenRecord {
  /** Lowercase hex SHA-256 (64 characters) of the token's text. The store's key. */
  readonly token_hash: string
  /** The tool the token authorises. */
  readonly tool_id: string
  /** Bound scope: each field must equal the call's (an absent field matches only an absent field). */
  readonly workspace_id?: string
  readonly session_id?: string
  readonly agent_name?: string
  /** `sha256:<hex>` input digest (without a native tool's `result_view`). */
  readonly input_digest: string
  readonly created_at: string
  readonly expires_at: string
  /** Set once, by the one `consume` that succeeded. */
  readonly consumed_at?: string
}

/**
 * Where approval token records live (DESIGN.md "Interface shapes"). Contract
 * (`describeApprovalStoreConformance`):
 * - `insert` saves a new record; its hash was never stored before (32 random bytes).
 * - `get` returns a copy of the record with that hash (with `consumed_at` once consumed), or
 *   `undefined`.
 * - `consume` atomically sets `consumed_at` if the record exists and is not consumed yet, and
 *   returns `true` only then: of N concurrent calls for one hash exactly one returns `true`, even
 *   across processes sharing the store.
 * - `deleteExpired` (optional) deletes records whose `expires_at` is before `before` and returns
 *   how many it deleted.
 * Methods may be sync or async; a throw, a rejection or a hang past `timeoutMs` fails the call
 * closed (`approval_unavailable`).
 */
export interface ApprovalTokenStore {
  insert(record: ApprovalTokenRecord): Awaitable<void>
  get(token_hash: string): Awaitable<ApprovalTokenRecord | undefined>
  consume(token_hash: string, consumed_at: string): Awaitable<boolean>
  deleteExpired?(before: string): Awaitable<number>
}

/** A remembered decision. */
export type GrantDecision = 'allow' | 'reject'

/**
 * How wide a grant is (spec 001 "Remembered native-tool decisions"): `exact` matches one
 * workspace, agent, tool and input digest (only prompt answers create it); `agent` matches one
 * agent and tool across every input; `tool` matches the tool across every agent and input.
 */
export type GrantScope = 'exact' | 'agent' | 'tool'

/** The identity of a grant: a store holds at most one grant per key. */
export interface GrantKey {
  readonly workspace_id: string
  readonly tool_id: string
  readonly scope: GrantScope
  /** Present for `exact` and `agent` scope (absent on an `exact` grant of a call without agent). Absent for `tool` scope. */
  readonly agent_name?: string
  /** `sha256:<hex>`; present exactly for `exact` scope. */
  readonly input_digest?: string
}

/** A remembered approval decision, as stored and as `listGrants` returns it. Plain JSON. */
export interface ApprovalGrant extends GrantKey {
  readonly grant_id: string
  readonly decision: GrantDecision
  /** Where it came from: a prompt answer (`allow_always`/`reject_always`) or the management API. */
  readonly origin: 'prompt' | 'management'
  /** ISO 8601 UTC. */
  readonly created_at: string
}

/**
 * The canonical text of a grant key (a JSON array), usable as a unique index. Absent fields are
 * `null`, so an exact grant without agent differs from one with an agent.
 */
export function grantKeyText(key: GrantKey): string {
  return JSON.stringify([key.workspace_id, key.tool_id, key.scope, key.agent_name ?? null, key.input_digest ?? null])
}

/**
 * Where remembered decisions live (DESIGN.md "Interface shapes"); workspace-scoped: nothing in one
 * workspace is visible from another. Contract (`describeApprovalStoreConformance`):
 * - `put` saves a grant, replacing any grant with the same key (`grantKeyText`); returns nothing.
 * - `get` returns a copy of the grant with exactly that key, or `undefined`.
 * - `list` returns copies of every grant of one workspace (any order).
 * - `delete` removes the grant with that ID in that workspace; `true` when one was removed (a
 *   grant of another workspace is never removed).
 * Methods may be sync or async; failures fail the call closed (`approval_unavailable`).
 */
export interface ApprovalGrantStore {
  put(grant: ApprovalGrant): Awaitable<void>
  get(key: GrantKey): Awaitable<ApprovalGrant | undefined>
  list(workspace_id: string): Awaitable<readonly ApprovalGrant[]>
  delete(workspace_id: string, grant_id: string): Awaitable<boolean>
}

/**
 * The life of a pending approval: `pending` → `denied` | `canceled` | `expired` (final), or
 * `pending` → `dispatching` → `completed` | `failed` (final). Only `pending` can change by a
 * decision; nothing final ever runs again.
 */
export type PendingState = 'pending' | 'dispatching' | 'completed' | 'failed' | 'denied' | 'canceled' | 'expired'

/** The outcome of a dispatched approval, as stored (plain JSON: the error is its dispatch payload). */
export type StoredOutcome =
  | { readonly status: 'ok'; readonly result: ToolResult; readonly result_view?: View }
  | { readonly status: 'error'; readonly error: ToolErrorPayload }

/**
 * A pending approval as stored (spec 001 "Pending command-palette approvals"). Plain JSON; times
 * are ISO 8601 UTC strings. Never holds an approval token.
 */
export interface PendingApprovalRecord {
  readonly approval_id: string
  readonly state: PendingState
  readonly tool_id: string
  readonly tool_call_id: string
  /** The recorded owner: the call's scope. `scope.profile_id` is the only profile that may show, resolve or cancel it. */
  readonly scope: CallScope
  /** The input as sent (with `result_view`), as the prompt shows it; what the approved call runs on. */
  readonly input: unknown
  /** `sha256:<hex>` of the input without a native tool's `result_view`. */
  readonly input_digest: string
  /** The call's own sensitive input fields, needed to run it again. */
  readonly sensitive_input_fields?: readonly string[]
  /** The view a Loop node pinned, needed to run it again. */
  readonly pinned_result_view?: View
  /** The policy's reason for asking for approval. */
  readonly reason?: string
  readonly created_at: string
  readonly expires_at: string
  /** When a decision (approve, deny, cancel, expiry) was recorded. */
  readonly decided_at?: string
  /** When the dispatched call's outcome was recorded. */
  readonly finished_at?: string
  readonly outcome?: StoredOutcome
}

/**
 * Where pending approvals live (DESIGN.md "Interface shapes"). Contract
 * (`describeApprovalStoreConformance`):
 * - `insert` saves a new record (its `approval_id` is new).
 * - `get` returns a copy of the record, or `undefined`.
 * - `update` atomically replaces the record with `next` only if its current `state` equals
 *   `from`, and returns `true` only then: of N concurrent updates from one state exactly one wins.
 * Methods may be sync or async; failures fail closed (`approval_unavailable`).
 */
export interface PendingApprovalStore {
  insert(record: PendingApprovalRecord): Awaitable<void>
  get(approval_id: string): Awaitable<PendingApprovalRecord | undefined>
  update(approval_id: string, from: PendingState, next: PendingApprovalRecord): Awaitable<boolean>
}
