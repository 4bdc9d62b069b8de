import type { CallScope } from '../tool/types.js'
import type { InvokeError, InvokeOk, InvokeOutcome } from '../call/call.js'
import { ToolError, type ToolErrorPayload } from '../errors/tool-error.js'
import type { PendingApprovalRecord, PendingState, StoredOutcome } from './pending-store.js'

/** Where a pending approval stands, as `show` reports it (spec 001 "Pending command-palette approvals"). */
export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'canceled' | 'expired'

/** How the approved call is doing: `dispatching` until its result or failure is readable. */
export type ExecutionStatus = 'dispatching' | 'completed' | 'failed'

/** A pending approval as `show`, `resolve` and `cancel` return it. */
export interface PendingApprovalView {
  readonly approval_id: string
  readonly tool_id: string
  readonly tool_call_id: string
  /** The recorded owner (the call's scope). */
  readonly scope: Readonly<CallScope>
  /** The input as sent, including `result_view`. */
  readonly input: unknown
  readonly input_digest: string
  readonly reason?: string
  readonly status: ApprovalStatus
  /** Present once approved: `dispatching`, then `completed` or `failed`. */
  readonly execution_status?: ExecutionStatus
  readonly created_at: string
  readonly expires_at: string
  readonly decided_at?: string
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

/** The record's state at `now`: a `pending` record past `expires_at` is `expired`. */
export function effectiveState(record: PendingApprovalRecord, now: number): PendingState {
  return record.state === 'pending' && !(now < Date.parse(record.expires_at)) ? 'expired' : record.state
}

const STATUS: Record<PendingState, { status: ApprovalStatus; execution?: ExecutionStatus }> = {
  pending: { status: 'pending' },
  dispatching: { status: 'approved', execution: 'dispatching' },
  completed: { status: 'approved', execution: 'completed' },
  failed: { status: 'approved', execution: 'failed' },
  denied: { status: 'denied' },
  canceled: { status: 'canceled' },
  expired: { status: 'expired' },
}

/** The `status` a state reads as (`dispatching`, `completed` and `failed` read `approved`). */
export function statusOf(state: PendingState): ApprovalStatus {
  return STATUS[state].status
}

/** The public view of a record at `now`. */
export function toView(record: PendingApprovalRecord, now: number): PendingApprovalView {
  const { status, execution } = STATUS[effectiveState(record, now)]
  return {
    approval_id: record.approval_id,
    tool_id: record.tool_id,
    tool_call_id: record.tool_call_id,
    scope: record.scope,
    input: record.input,
    input_digest: record.input_digest,
    ...(record.reason === undefined ? {} : { reason: record.reason }),
    status,
    ...(execution === undefined ? {} : { execution_status: execution }),
    created_at: record.created_at,
    expires_at: record.expires_at,
    ...(record.decided_at === undefined ? {} : { decided_at: record.decided_at }),
    ...(record.finished_at === undefined ? {} : { finished_at: record.finished_at }),
    ...(record.outcome === undefined ? {} : { outcome: fromStored(record.tool_call_id, record.outcome) }),
  }
}

/** An outcome as a pending record stores it: plain JSON, the error as its dispatch payload. */
export function toStoredOutcome(outcome: InvokeOk | InvokeError): StoredOutcome {
  if (outcome.status === 'error') return { status: 'error', error: outcome.error.forSurface('dispatch') }
  const result = { structured: outcome.result.structured, preview: outcome.result.preview }
  return outcome.result_view === undefined ? { status: 'ok', result } : { status: 'ok', result, result_view: outcome.result_view }
}

function fromStored(toolCallId: string, stored: StoredOutcome): InvokeOk | InvokeError {
  if (stored.status === 'error') {
    const payload: ToolErrorPayload = stored.error
    const error = new ToolError({
      code: payload.code,
      reason: payload.reason,
      message: payload.message,
      ...(payload.details === undefined ? {} : { details: { ...payload.details } }),
    })
    return { status: 'error', tool_call_id: toolCallId, error }
  }
  return stored.result_view === undefined
    ? { status: 'ok', tool_call_id: toolCallId, result: stored.result }
    : { status: 'ok', tool_call_id: toolCallId, result: stored.result, result_view: stored.result_view }
}

/** Narrows an outcome of a dispatched approval (never `approval_pending`: a deferred call is already approved). */
export function isFinalOutcome(outcome: InvokeOutcome): outcome is InvokeOk | InvokeError {
  return outcome.status === 'ok' || outcome.status === 'error'
}
