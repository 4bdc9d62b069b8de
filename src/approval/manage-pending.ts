import { safeLog } from '../log/logger.js'
import type { ToolError } from '../errors/tool-error.js'
import { withDeadline } from '../async/deadline.js'
import { approvalForbidden, approvalNotFound, approvalState, ownerCheckFailed } from './errors.js'
import type { DispatchHost, ResolvedApprovals } from './options.js'
import { effectiveState, statusOf, toStoredOutcome, toView, type PendingApprovalView } from './pending.js'
import type { PendingApprovalRecord, PendingState } from './pending-store.js'
import { invalid, oneOf, recordOf } from './request-checks.js'
import { callStore } from './store-call.js'

/** Who asks to show or cancel a pending approval: only the profile that created it may. */
export interface ApprovalOwnerRequest {
  profile_id: string
}

/** A decision on a pending approval (spec 001: `--decision approved | denied`). */
export interface ResolveApprovalRequest {
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

/**
 * Shows a pending approval to the profile that created it. A pending record past its
 * `expires_at` reads (and is recorded as) `expired`.
 *
 * @throws ToolError `approval_not_found`; `approval_forbidden` / `profile_mismatch`;
 *   `approval_request_invalid`; `approval_unavailable`.
 */
export async function showApproval(deps: ResolvedApprovals, approvalId: string, request: ApprovalOwnerRequest): Promise<PendingApprovalView> {
  const { profile_id } = ownerOf(request, ['profile_id'])
  const record = await ownedRecord(deps, approvalId, profile_id)
  return toView(await settleExpiry(deps, record), deps.now())
}

/**
 * Cancels a pending approval; it never runs.
 *
 * @throws ToolError `approval_not_found`; `approval_forbidden` / `profile_mismatch`;
 *   `approval_state` (`approval_expired`, `approval_resolved`, `approval_canceled`);
 *   `approval_request_invalid`; `approval_unavailable`.
 */
export async function cancelApproval(deps: ResolvedApprovals, approvalId: string, request: ApprovalOwnerRequest): Promise<PendingApprovalView> {
  const { profile_id } = ownerOf(request, ['profile_id'])
  const record = await ownedRecord(deps, approvalId, profile_id)
  await requirePending(deps, record)
  const canceled: PendingApprovalRecord = { ...record, state: 'canceled', decided_at: iso(deps.now()) }
  await transition(deps, record, canceled)
  deps.held.drop(approvalId)
  return toView(canceled, deps.now())
}

/**
 * Records a decision on a pending approval (spec 001 "Pending command-palette approvals"). Before
 * accepting it: the caller must be the owner profile, the host's `checkOwner` must confirm the
 * profile is available and the session still bound, and the approval must still be pending (an
 * expired, resolved or canceled approval never runs again; of two concurrent decisions one wins).
 * `denied` ends it. `approved` moves it to `dispatching` and runs the call: the current policy is
 * asked again under the recorded owner, then the tool runs; the outcome is recorded and the status
 * reads `completed` or `failed`.
 *
 * When the store cannot record the outcome (the final update throws, rejects, returns `false` or
 * hangs past `timeoutMs`), the returned view still has the outcome, plus `outcome_recorded: false`;
 * later `show` calls read `dispatching` with no outcome, and the call never runs again.
 *
 * @throws ToolError `approval_not_found`; `approval_forbidden` (`profile_mismatch`,
 *   `profile_unavailable`, `session_unbound`); `approval_state`; `approval_request_invalid`;
 *   `approval_unavailable`. The approved call's own failure is not thrown: it is the view's outcome.
 */
export async function resolveApproval(deps: ResolvedApprovals, host: DispatchHost, approvalId: string, request: ResolveApprovalRequest): Promise<PendingApprovalView> {
  const r = ownerOf(request, ['profile_id', 'decision', 'wait'])
  const decision = oneOf(r, 'decision', ['approved', 'denied'] as const)
  if (r.wait !== undefined && typeof r.wait !== 'boolean') invalid('wait must be a boolean')
  const record = await ownedRecord(deps, approvalId, r.profile_id)
  await checkOwner(deps, record, r.profile_id)
  await requirePending(deps, record)

  const decidedAt = iso(deps.now())
  if (decision === 'denied') {
    const denied: PendingApprovalRecord = { ...record, state: 'denied', decided_at: decidedAt }
    await transition(deps, record, denied)
    deps.held.drop(approvalId)
    return toView(denied, deps.now())
  }
  const dispatching: PendingApprovalRecord = { ...record, state: 'dispatching', decided_at: decidedAt }
  await transition(deps, record, dispatching)
  const run = dispatch(deps, host, dispatching)
  if (r.wait === false) {
    run.catch((error: unknown) => safeLog(deps.guard.logger, 'error', { event: 'approval.dispatch_failed', approval_id: record.approval_id, error_name: (error as Error)?.name }, 'approved call failed to dispatch'))
    return toView(dispatching, deps.now())
  }
  return run
}

/** Runs the approved call and records its outcome (`dispatching` → `completed` | `failed`). */
async function dispatch(deps: ResolvedApprovals, host: DispatchHost, record: PendingApprovalRecord): Promise<PendingApprovalView> {
  const outcome = await host.resume(record, deps.held.take(record.approval_id))
  const finished: PendingApprovalRecord = {
    ...record,
    state: outcome.status === 'ok' ? 'completed' : 'failed',
    finished_at: iso(deps.now()),
    outcome: toStoredOutcome(outcome),
  }
  const saved = await callStore(deps.guard, 'pending', 'update', () => deps.stores.pending.update(record.approval_id, 'dispatching', finished))
  if (!saved.ok || saved.value !== true) {
    safeLog(deps.guard.logger, 'error', { event: 'approval.outcome_not_recorded', approval_id: record.approval_id }, 'the outcome of an approved call was not recorded')
    return { ...toView(finished, deps.now()), outcome_recorded: false }
  }
  return toView(finished, deps.now())
}

function ownerOf(request: unknown, allowed: readonly string[]): Record<string, unknown> & { profile_id: string } {
  const r = recordOf(request, 'request', allowed)
  if (typeof r.profile_id !== 'string' || r.profile_id.length === 0) invalid('profile_id must be a non-empty string')
  return r as Record<string, unknown> & { profile_id: string }
}

/** The record, if it exists and `profileId` owns it (nothing is revealed to another profile). */
async function ownedRecord(deps: ResolvedApprovals, approvalId: unknown, profileId: string): Promise<PendingApprovalRecord> {
  if (typeof approvalId !== 'string' || approvalId.length === 0) invalid('approval_id must be a non-empty string')
  const found = await callStore(deps.guard, 'pending', 'get', () => deps.stores.pending.get(approvalId))
  if (!found.ok) throw found.error
  const record = found.value
  if (record === undefined || record === null || record.approval_id !== approvalId) throw approvalNotFound(approvalId)
  if (record.scope?.profile_id !== profileId) throw approvalForbidden(approvalId, 'profile_mismatch')
  return record
}

async function checkOwner(deps: ResolvedApprovals, record: PendingApprovalRecord, profileId: string): Promise<void> {
  const check = deps.checkOwner
  if (check === undefined) return
  const owner = Object.freeze({ approval_id: record.approval_id, profile_id: profileId, scope: Object.freeze({ ...record.scope }) })
  const result = await withDeadline(() => check(owner), deps.guard.timeoutMs)
  if (!result.ok) throw ownerCheckFailed(record.approval_id, result.cause)
  if (result.value === 'ok') return
  if (result.value === 'profile_unavailable' || result.value === 'session_unbound') throw approvalForbidden(record.approval_id, result.value)
  throw ownerCheckFailed(record.approval_id)
}

/** Throws `approval_state` unless the record is pending now; an expired one is recorded as `expired` first. */
async function requirePending(deps: ResolvedApprovals, record: PendingApprovalRecord): Promise<void> {
  const settled = await settleExpiry(deps, record)
  if (settled.state !== 'pending') throw stateError(settled.approval_id, settled.state)
}

/** Records `expired` for a pending record past its `expires_at` (best effort); returns the record as it now stands. */
async function settleExpiry(deps: ResolvedApprovals, record: PendingApprovalRecord): Promise<PendingApprovalRecord> {
  const now = deps.now()
  if (effectiveState(record, now) !== 'expired' || record.state === 'expired') return record
  const expired: PendingApprovalRecord = { ...record, state: 'expired', decided_at: record.expires_at }
  await callStore(deps.guard, 'pending', 'update', () => deps.stores.pending.update(record.approval_id, 'pending', expired))
  return expired
}

/** Replaces `from` with `next` atomically; a lost race reads the winner's state and throws `approval_state`. */
async function transition(deps: ResolvedApprovals, from: PendingApprovalRecord, next: PendingApprovalRecord): Promise<void> {
  const updated = await callStore(deps.guard, 'pending', 'update', () => deps.stores.pending.update(from.approval_id, from.state, next))
  if (!updated.ok) throw updated.error
  if (updated.value === true) return
  const now = await callStore(deps.guard, 'pending', 'get', () => deps.stores.pending.get(from.approval_id))
  throw stateError(from.approval_id, now.ok && now.value ? effectiveState(now.value, deps.now()) : 'dispatching')
}

function stateError(approvalId: string, state: PendingState): ToolError {
  const status = statusOf(state)
  if (state === 'expired') return approvalState(approvalId, 'approval_expired', status)
  if (state === 'canceled') return approvalState(approvalId, 'approval_canceled', status)
  return approvalState(approvalId, 'approval_resolved', status)
}

function iso(ms: number): string {
  return new Date(ms).toISOString()
}
