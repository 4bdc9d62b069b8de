import { quoted } from '../errors/quote.js'
import type { InvokeError, InvokeOk } from '../call/call.js'
import type { CallScope } from '../tool/types.js'
import { approvalRequestInvalid } from './errors.js'
import type { ApprovalGrant, GrantDecision } from './stores.js'

// The management API, `dispatcher.approvals`: its methods, what they take and return, and the
// argument checks they share. Management methods reject with a `ToolError`
// (`approval_request_invalid` for a bad argument); they never resolve to one.

/**
 * The approval operations of a dispatcher, `dispatcher.approvals` (`docs/approvals.md`
 * "`dispatcher.approvals`"). Every method rejects with a `ToolError` for a bad argument or a
 * failing store; none ever returns or logs an approval token except `mintApprovalToken`, once.
 */
export interface ApprovalsApi {
  /**
   * Mints a single-use approval token bound to the tool, the workspace, session and agent of
   * `scope`, and the input digest (without `result_view`). See {@link MintApprovalTokenRequest}.
   */
  mintApprovalToken(request: MintApprovalTokenRequest): Promise<MintedApprovalToken>
  /** Sets an agent- or tool-scope remembered decision in a workspace (never an exact one). */
  setGrant(request: SetGrantRequest): Promise<ApprovalGrant>
  /** Lists a workspace's remembered decisions. */
  listGrants(request: ListGrantsRequest): Promise<readonly ApprovalGrant[]>
  /** Revokes one grant of a workspace; `false` when it holds none with that ID. */
  revokeGrant(request: RevokeGrantRequest): Promise<boolean>
  /**
   * Lists the pending approvals a profile owns, in every state (so decided ones show their
   * outcome), newest first. Needs a pending store with `list` (the memory stores have it).
   * See {@link ListPendingRequest}.
   */
  listPending(request: ListPendingRequest): Promise<readonly PendingApprovalView[]>
  /** Shows a pending approval to the profile that created it. */
  show(approval_id: string, request: ApprovalOwnerRequest): Promise<PendingApprovalView>
  /** Approves or denies a pending approval (its creator only); an approval runs the call under the current policy. */
  resolve(approval_id: string, request: ResolveApprovalRequest): Promise<PendingApprovalView>
  /** Cancels a pending approval (its creator only). */
  cancel(approval_id: string, request: ApprovalOwnerRequest): Promise<PendingApprovalView>
}

/** What `mintApprovalToken` takes: the call a token will authorise. Give exactly one of `input` and `input_digest`. */
export interface MintApprovalTokenRequest {
/** The tool the token authorises; must be in the catalog (`tool_not_found` otherwise). */
  tool_id: string
  /** Bound: `workspace_id`, `session_id` and `agent_name` must equal the call's (absent matches only absent). `profile_id` is ignored. */
  scope?: CallScope
  /** The input the call will send; its `result_view` (native tools) is not part of the binding. */
  input?: unknown
  /** Or its input digest, `sha256:<64 hex>`, computed without `result_view` (`docs/approvals.md` "The order, on the final input"). */
  input_digest?: string
  /** Life of the token in milliseconds, a positive integer of at most 3155760000000 (100 years). Default 300000 (5 minutes). */
  ttlMs?: number
}

/** A minted token. Hand `token` to the caller once; it is never stored, logged or shown again. */
export interface MintedApprovalToken {
  /** 32 random bytes, base64url (43 characters). */
  readonly token: string
  /** ISO 8601 UTC. */
  readonly expires_at: string
}

/**
 * What `setGrant` takes (the spec's PUT body `{tool_id, decision, scope, agent_name?}` plus the
 * workspace). `agent_name` is required for `agent` scope and forbidden for `tool` scope. Never an
 * input digest: exact grants come only from prompt answers. A key whose value is `undefined`
 * counts as absent, for every field (`{ agent_name: undefined }` and `{ input_digest: undefined }`
 * are the same as leaving them out).
 */
export interface SetGrantRequest {
/** The workspace the decision is remembered in. */
  workspace_id: string
/** The tool it decides for (need not be in the catalog: a grant may precede its tool). */
  tool_id: string
/** `allow` skips the prompt where the policy asks for approval; `reject` refuses the call. */
  decision: GrantDecision
/** How wide it is (a grant's breadth, as the spec's PUT body has it; never `exact`). */
  scope: 'agent' | 'tool'
/** The agent, for `agent` scope (required there, forbidden for `tool` scope). */
  agent_name?: string
}

/** What `listGrants` takes. */
export interface ListGrantsRequest {
/** The workspace whose grants to list. */
  workspace_id: string
  /** Only the grants of this tool. */
  tool_id?: string
}

/** What `revokeGrant` takes. */
export interface RevokeGrantRequest {
/** The workspace that holds the grant. */
  workspace_id: string
/** The grant's ID (from `setGrant` or `listGrants`). */
  grant_id: string
}

/** What `listPending` takes: the owner profile, and optionally a workspace and a bound. */
export interface ListPendingRequest {
  /** The profile whose approvals to list (the calls' `scope.profile_id`); only its own are listed. */
  profile_id: string
  /** Only the approvals of calls in this workspace (`scope.workspace_id`). */
  workspace_id?: string
  /** Only approvals in these statuses (`pending`, `approved`, `denied`, `canceled`, `expired`). Default: every status. */
  status?: readonly ApprovalStatus[]
  /** At most this many, newest first: an integer from 1 to 1000. Default 100. */
  limit?: number
}

/** Who asks to show or cancel a pending approval: only the profile that created it may. */
export interface ApprovalOwnerRequest {
/** Must be the profile that created the approval (the call's `scope.profile_id`). */
  profile_id: string
}

/** A decision on a pending approval (the CLI's `--decision approved | denied`). */
export interface ResolveApprovalRequest {
/** `approved` runs the call (the current policy is asked again first); `denied` ends it. */
  decision: 'approved' | 'denied'
  /** Must be the profile that created the approval. */
  profile_id: string
  /**
   * `true` (default): settle once the approved call's result or failure is recorded. `false`:
   * settle once the decision is recorded, with `execution_status: 'dispatching'`; the call runs
   * on, and a later `show` reads its result or failure.
   */
  wait?: boolean
}

/** Where a pending approval stands, as `show` reports it (`docs/approvals.md` "`dispatcher.approvals`"). */
export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'canceled' | 'expired'

/** How the approved call is doing: `dispatching` until its result or failure is readable. */
export type ExecutionStatus = 'dispatching' | 'completed' | 'failed'

/** A pending approval as `show`, `resolve` and `cancel` return it. */
export interface PendingApprovalView {
/** The approval's ID. */
  readonly approval_id: string
/** The tool the approved call runs. */
  readonly tool_id: string
/** The `tool_call_id` of the call that asked; the approved call reuses it. */
  readonly tool_call_id: string
  /** The recorded owner (the call's scope). */
  readonly scope: Readonly<CallScope>
  /** The input as sent, including `result_view`. */
  readonly input: unknown
/** `sha256:<64 hex>` of the input without a native tool's `result_view`. */
  readonly input_digest: string
/** The policy's reason for asking, when it gave one. */
  readonly reason?: string
/** Where it stands: `pending`, `approved`, `denied`, `canceled` or `expired` (a pending one past `expires_at`). */
  readonly status: ApprovalStatus
  /** Present once approved: `dispatching`, then `completed` or `failed`. */
  readonly execution_status?: ExecutionStatus
/** When it was opened (ISO 8601 UTC). */
  readonly created_at: string
/** When a pending approval stops accepting a decision (ISO 8601 UTC). */
  readonly expires_at: string
/** When it was approved, denied, canceled or expired (ISO 8601 UTC). */
  readonly decided_at?: string
/** When the approved call's outcome was recorded (ISO 8601 UTC). */
  readonly finished_at?: string
  /** The approved call's outcome, once `execution_status` is `completed` or `failed`. */
  readonly outcome?: InvokeOk | InvokeError
  /**
   * Present, and `false`, only on the view `resolve` returns when the approved call ran but the
   * pending store failed, rejected or hung past `timeoutMs` recording its outcome (the final
   * `dispatching` → `completed` | `failed` update). The view still carries `execution_status` and
   * `outcome` as the call ended, but the stored record, and so every later `show`, reads
   * `dispatching` with no outcome. The call never runs again (only a `pending` record can be
   * approved). The library logs `approval.outcome_not_recorded` at `error` level.
   */
  readonly outcome_recorded?: false
}

const SCOPE_KEYS = ['workspace_id', 'session_id', 'agent_name', 'profile_id'] as const

/** Throws `approval_request_invalid` / `field_invalid` with `problem` (management calls reject; `invoke` never does). */
export function invalid(problem: string): never {
  throw approvalRequestInvalid('field_invalid', problem)
}

/**
 * The argument's own fields, read once into a new record (so a getter or Proxy cannot answer one
 * check and then another), or a `field_invalid` rejection: for a non-object, a key outside
 * `allowed`, or an argument that cannot be read (a getter or Proxy that throws).
 */
export function recordOf(value: unknown, what: string, allowed: readonly string[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) invalid(`${what} must be an object`)
  let extra: string | undefined
  const record: Record<string, unknown> = Object.create(null)
  try {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) {
        extra = key
        break
      }
      record[key] = (value as Record<string, unknown>)[key]
    }
  } catch {
    invalid(`${what} could not be read (a getter or a Proxy threw)`)
  }
  if (extra !== undefined) invalid(`${what} has unknown field ${quoted(extra, 64)}`)
  return record
}

/** The field as a non-empty string, or a `field_invalid` rejection. */
export function nonEmptyString(record: Record<string, unknown>, key: string): string {
  const value = record[key]
  if (typeof value !== 'string' || value.length === 0) invalid(`${key} must be a non-empty string`)
  return value
}

/** The field if absent or a string; otherwise a `field_invalid` rejection. */
export function optionalString(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key]
  if (value !== undefined && typeof value !== 'string') invalid(`${key} must be a string`)
  return value
}

/** The field as one of `values`, or a `field_invalid` rejection. */
export function oneOf<T extends string>(record: Record<string, unknown>, key: string, values: readonly T[]): T {
  const value = record[key]
  if (!values.includes(value as T)) invalid(`${key} must be one of ${values.map((v) => `"${v}"`).join(', ')}`)
  return value as T
}

/** A frozen scope with only its four string fields, or a `field_invalid` rejection. */
export function scopeOf(value: unknown): Readonly<CallScope> {
  if (value === undefined) return Object.freeze({})
  const record = recordOf(value, 'scope', SCOPE_KEYS)
  const out: CallScope = {}
  for (const key of SCOPE_KEYS) {
    const field = optionalString(record, key)
    if (field !== undefined) out[key] = field
  }
  return Object.freeze(out)
}
