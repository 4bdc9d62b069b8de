import type { CallScope } from '../tool/types.js'
import type { ToolErrorPayload } from '../errors/tool-error.js'
import type { ToolResult } from '../call/call.js'
import type { View } from '../views/view.js'
import type { Awaitable } from './stores.js'

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
