import type { Awaitable } from './stores.js'

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
