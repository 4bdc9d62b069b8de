import type { ToolResult } from '../call/call.js'
import type { ToolErrorPayload } from '../errors/tool-error.js'
import type { CallScope } from '../tool/types.js'
import type { View } from '../views/view.js'

// The store contracts: what a host implements to keep approval tokens, remembered decisions
// (grants) and pending approvals, and the records they hold. Reference implementations:
// `createMemoryApprovalStores()` (memory-stores.ts) and `createSqliteApprovalStores()`
// (`result-views/sqlite`); `describeApprovalStoreConformance` (`result-views/testing`) is the
// executable contract. `docs/approvals.md` "Implementing the stores (for hosts)" says how the dispatcher uses them.
//
// Rules every store method follows:
// - It may be sync or async (`Awaitable`). A throw, a rejection or no answer within the approvals
//   `timeoutMs` (default 5000 ms) fails the call closed with `approval_unavailable` /
//   `store_failed` or `store_timeout`: nothing that needs approval runs. The thrown value is kept
//   as the error's `cause`, never shown in a message.
// - Records are plain JSON. A store keeps them exactly: what `get` or `list` returns has the same
//   fields and values as what was stored (a field absent in the record is absent, not `null`;
//   unicode and a `__proto__` key in an input survive) and is a copy (a caller changing it changes
//   nothing stored).
// - Times are ISO 8601 UTC strings with milliseconds (`2026-11-10T14:02:11.000Z`, as
//   `Date.prototype.toISOString` writes them), so they order as strings.

/** A value or a promise of it: store methods (and host callbacks) may be sync or async. */
export type Awaitable<T> = T | Promise<T>

/**
 * The three approval stores a host plugs into `createDispatcher({ approvals })`. The reference
 * implementations are `createMemoryApprovalStores()` (root entry) and
 * `createSqliteApprovalStores()` (`result-views/sqlite`); `describeApprovalStoreConformance`
 * (`result-views/testing`) is the contract a host's own stores must pass.
 */
export interface ApprovalStores {
  /** Minted approval tokens (by hash). */
  readonly tokens: ApprovalTokenStore
  /** Remembered decisions, per workspace. */
  readonly grants: ApprovalGrantStore
  /** Pending approvals and their outcomes. */
  readonly pending: PendingApprovalStore
}

/**
 * A minted approval token as stored: never the token itself, only its SHA-256 hash (tokens are
 * short-lived credentials: `docs/approvals.md` "Secrets"). Plain JSON.
 */
export interface ApprovalTokenRecord {
  /** Lowercase hex SHA-256 (64 characters) of the token's text. The store's key. */
  readonly token_hash: string
  /** The tool the token authorises. */
  readonly tool_id: string
  /** Bound workspace: must equal the call's `scope.workspace_id` (absent matches only absent). */
  readonly workspace_id?: string
  /** Bound session: must equal the call's `scope.session_id` (absent matches only absent). */
  readonly session_id?: string
  /** Bound agent: must equal the call's `scope.agent_name` (absent matches only absent). */
  readonly agent_name?: string
  /** `sha256:<64 hex>` input digest (without a native tool's `result_view`). */
  readonly input_digest: string
  /** When the token was minted (ISO 8601 UTC). */
  readonly created_at: string
  /** When the token stops being accepted (ISO 8601 UTC); `deleteExpired` compares against it. */
  readonly expires_at: string
  /** When the token was used (ISO 8601 UTC): set once, by the one `consume` that succeeded; absent before. */
  readonly consumed_at?: string
}

/**
 * Where approval token records live (`ApprovalStores.tokens`). The dispatcher inserts a record
 * per `mintApprovalToken`, reads it when a call presents the token, and consumes it when the call
 * may run; a token runs one call, even when several processes share the store.
 */
export interface ApprovalTokenStore {
  /**
   * Saves a newly minted record. Its `token_hash` was never stored before (the token is 32 random
   * bytes), so a store need not handle a replace; it may refuse a duplicate by throwing.
   */
  insert(record: ApprovalTokenRecord): Awaitable<void>
  /**
   * The record with that hash, as stored (with `consumed_at` once consumed), as a copy; `undefined`
   * when none has it (`null` is read as absent too). A record whose `token_hash` differs from the
   * one asked for is treated as absent.
   */
  get(token_hash: string): Awaitable<ApprovalTokenRecord | undefined>
  /**
   * Marks the record used: atomically sets `consumed_at` to `consumed_at` if the record exists and
   * has no `consumed_at` yet, and only then returns `true`. Of N concurrent calls for one hash,
   * across every process that shares the store, exactly one returns `true`; an unknown hash
   * returns `false` and creates nothing. (SQL: one `UPDATE … SET consumed_at = ? WHERE token_hash
   * = ? AND consumed_at IS NULL`, `true` when it changed one row.)
   */
  consume(token_hash: string, consumed_at: string): Awaitable<boolean>
  /**
   * Optional housekeeping, called before each mint with a cut-off one hour in the past: deletes
   * every record whose `expires_at` is before `before` (string order) and returns how many it
   * deleted. Records are kept an hour past expiry so a late replay reads `token_replayed` or
   * `token_expired`, not `token_unknown`. A failure here is logged and ignored.
   */
  deleteExpired?(before: string): Awaitable<number>
}

/** A remembered decision. */
export type GrantDecision = 'allow' | 'reject'

/**
 * How wide a grant is (`docs/approvals.md` "The order, on the final input"): `exact` matches one
 * workspace, agent, tool and input digest (only prompt answers create it); `agent` matches one
 * agent and tool across every input; `tool` matches the tool across every agent and input.
 */
export type GrantScope = 'exact' | 'agent' | 'tool'

/** The identity of a grant: a store holds at most one grant per key (see {@link grantKeyText}). */
export interface GrantKey {
  /** The workspace the grant belongs to; nothing in one workspace is visible from another. */
  readonly workspace_id: string
  /** The tool it decides for. */
  readonly tool_id: string
  /** How wide it is. */
  readonly scope: GrantScope
  /** Present for `exact` and `agent` scope (absent on an `exact` grant of a call without agent). Absent for `tool` scope. */
  readonly agent_name?: string
  /** `sha256:<64 hex>`; present exactly for `exact` scope. */
  readonly input_digest?: string
}

/** A remembered approval decision, as stored and as `listGrants` returns it. Plain JSON. */
export interface ApprovalGrant extends GrantKey {
  /** A random UUID; what `revokeGrant` names. */
  readonly grant_id: string
  /** `allow` skips the prompt; `reject` refuses the call (`tool_denied` / `approval_rejected`). */
  readonly decision: GrantDecision
  /** Where it came from: a prompt answer (`allow_always`/`reject_always`) or the management API. */
  readonly origin: 'prompt' | 'management'
  /** When it was made (ISO 8601 UTC). */
  readonly created_at: string
}

/**
 * The canonical text of a grant key (a JSON array of workspace, tool, scope, agent, input digest),
 * usable as a unique index of a store. Absent fields are `null`, so an exact grant without agent
 * differs from one with an agent.
 */
export function grantKeyText(key: GrantKey): string {
  return JSON.stringify([key.workspace_id, key.tool_id, key.scope, key.agent_name ?? null, key.input_digest ?? null])
}

/**
 * Where remembered decisions live (`ApprovalStores.grants`), workspace by workspace: nothing in
 * one workspace is visible from another. The dispatcher looks a call up by up to three keys, most
 * specific first (exact, agent, tool), puts a grant for an `_always` prompt answer or a `setGrant`,
 * and lists and deletes for the management API.
 */
export interface ApprovalGrantStore {
  /** Saves a grant, replacing any grant with the same key ({@link grantKeyText}), whatever its `grant_id`. */
  put(grant: ApprovalGrant): Awaitable<void>
  /**
   * The grant with exactly that key, as a copy; `undefined` (or `null`) when there is none. Every
   * key field counts, absent ones too: a key without `agent_name` never finds a grant with one.
   * Only `undefined` or `null` mean "no grant": any other answer that is not a well-formed grant
   * with exactly that key (another key's grant included) fails the call closed
   * (`approval_unavailable` / `store_failed`).
   */
  get(key: GrantKey): Awaitable<ApprovalGrant | undefined>
  /** Copies of every grant of one workspace, of every scope, in any order; `[]` for none. */
  list(workspace_id: string): Awaitable<readonly ApprovalGrant[]>
  /**
   * Removes the grant with that ID from that workspace; `true` when one was removed, `false` when
   * the workspace holds none with that ID (a grant of another workspace is never removed).
   */
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
 * The real input of a pending approval, encrypted (`PendingApprovalRecord.sealed_input`, plain JSON,
 * stored as the record is; `docs/approvals.md` "Sealed pending inputs"). Present only while the record is `pending`, and only when the
 * dispatcher that opened it had a `sealKey`; every decision drops it.
 */
export interface SealedInput {
  /** Always `'AES-256-GCM'`. */
  readonly alg: 'AES-256-GCM'
  /**
   * Which key sealed it: 16 lowercase hex characters, the first 8 bytes of HMAC-SHA-256(key,
   * `"result-views sealed input key id"`). The same in every process holding that key; it
   * reveals nothing of the key.
   */
  readonly key_id: string
  /** The 12-byte random nonce, base64url. */
  readonly iv: string
  /** The input as sent (the JSON text of it, UTF-8), encrypted, base64url. */
  readonly ciphertext: string
  /** The 16-byte GCM authentication tag, base64url. */
  readonly tag: string
}

/**
 * A pending approval as stored (`docs/approvals.md` "`dispatcher.approvals`"). Plain JSON. Never
 * holds an approval token, and never a sensitive input value in clear (those fields read
 * `"[REDACTED]"`; with a seal key the real input is in `sealed_input`, encrypted).
 */
export interface PendingApprovalRecord {
  /** A random UUID; the store's key. */
  readonly approval_id: string
  /** Where it stands; `update` changes it. */
  readonly state: PendingState
  /** The tool the approved call runs. */
  readonly tool_id: string
  /** The `tool_call_id` of the call that asked, reused when the approved call runs. */
  readonly tool_call_id: string
  /** The recorded owner: the call's scope. `scope.profile_id` is the only profile that may show, resolve or cancel it. */
  readonly scope: CallScope
  /** The input as sent (with `result_view`), as the prompt shows it; what the approved call runs on. */
  readonly input: unknown
  /** `sha256:<64 hex>` of the input without a native tool's `result_view`. */
  readonly input_digest: string
  /**
   * The real input, encrypted, when the call had sensitive input fields and the dispatcher that
   * opened it had `approvals.sealKey`; absent otherwise, and dropped by every decision.
   */
  readonly sealed_input?: SealedInput
  /** The call's own sensitive input fields, needed to run it again. */
  readonly sensitive_input_fields?: readonly string[]
  /** The view a Loop node pinned, needed to run it again. */
  readonly pinned_result_view?: View
  /** The policy's reason for asking for approval. */
  readonly reason?: string
  /** When it was opened (ISO 8601 UTC). */
  readonly created_at: string
  /** When a `pending` record stops accepting a decision and reads `expired` (ISO 8601 UTC). */
  readonly expires_at: string
  /** When a decision (approve, deny, cancel, expiry) was recorded. */
  readonly decided_at?: string
  /** When the dispatched call's outcome was recorded. */
  readonly finished_at?: string
  /** The dispatched call's outcome, once `completed` or `failed`. */
  readonly outcome?: StoredOutcome
}

/**
 * Where pending approvals live (`ApprovalStores.pending`). The dispatcher inserts a record when a
 * call needs a decision, reads it for `show`, `resolve` and `cancel`, and moves it from state to
 * state with `update`; of two concurrent decisions, one wins.
 */
export interface PendingApprovalStore {
  /** Saves a newly opened record (`state: 'pending'`). Its `approval_id` is new (a random UUID). */
  insert(record: PendingApprovalRecord): Awaitable<void>
  /** The record with that ID, as stored, as a copy; `undefined` (or `null`) when none has it. */
  get(approval_id: string): Awaitable<PendingApprovalRecord | undefined>
  /**
   * Atomically replaces the record with `next` only if its current `state` equals `from`, and
   * only then returns `true` (`next.approval_id` is `approval_id`). Of N concurrent updates from
   * one state, across every process sharing the store, exactly one returns `true`; an unknown ID
   * returns `false` and creates nothing. (SQL: one `UPDATE … WHERE approval_id = ? AND state = ?`.)
   */
  update(approval_id: string, from: PendingState, next: PendingApprovalRecord): Awaitable<boolean>
  /**
   * Optional: every record whose `scope.profile_id` is `profile_id`, in any state, as copies (any
   * order). Read by `dispatcher.approvals.listPending` (and so by the HTTP list route and the
   * approvals console, `docs/console.md`). A store without it cannot list: `listPending` rejects
   * with `approval_unavailable` / `store_unsupported`, and every other operation works as before.
   */
  list?(profile_id: string): Awaitable<readonly PendingApprovalRecord[]>
}
