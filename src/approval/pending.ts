import { randomUUID } from 'node:crypto'
import { callHost } from '../async/deadline.js'
import type { Call, InvokeError, InvokeOk, InvokeOutcome } from '../call/call.js'
import { ToolError, type ToolErrorPayload } from '../errors/tool-error.js'
import { inputDigest } from '../digest/input-digest.js'
import { safeLog, thrownName } from '../log/logger.js'
import { invalid, nonEmptyString, oneOf, optionalString, recordOf, type ApprovalOwnerRequest, type ListPendingRequest, type ApprovalStatus, type ExecutionStatus, type PendingApprovalView, type ResolveApprovalRequest } from './approvals-api.js'
import { approvalForbidden, approvalNotFound, approvalState, inputHeldElsewhere, ownerCheckFailed, recordInvalid, storeUnsupported } from './errors.js'
import { refuseOverReject } from './grants.js'
import { toStoredInput, type HeldInput } from './held-inputs.js'
import type { DispatchHost, ResolvedApprovals } from './options.js'
import { openSealedInput, sealInput } from './seal.js'
import { booleanAnswer, ignoredAnswer, pendingListAnswer, pendingRecordAnswer } from './store-answers.js'
import { callStore } from './store-call.js'
import type { PendingApprovalRecord, PendingState, StoredOutcome } from './stores.js'

// Pending approvals: opened by the approval step for a call that needs a decision, read as views,
// and shown, resolved (running the approved call through the dispatcher) or canceled through the
// management API.

/**
 * Opens a pending approval for a call that needs one (`docs/approvals.md`
 * "`dispatcher.approvals`"): a `pending` record owned by the call's scope (its `profile_id`),
 * holding the input as sent with sensitive fields redacted, living `pendingTtlMs`. When the stored
 * input is redacted, the record carries the real one sealed (`sealed_input`, with `approvals.sealKey`:
 * `docs/approvals.md` "Sealed pending inputs"), or else this process holds it (`HeldInputs`) until
 * the approval is decided or expires.
 *
 * @returns the inserted record, or `approval_unavailable` when the pending store fails (with
 *   `details.approval_id` for `store_outcome_unknown`: the record may exist).
 */
export async function openPending(call: Call, digest: string, reason: string | undefined, deps: ResolvedApprovals): Promise<PendingApprovalRecord | ToolError> {
  const now = deps.now()
  const { sensitive_input_fields: sensitive, pinned_result_view: pinned } = call.request
  const approvalId = randomUUID()
  const input = toStoredInput(call)
  const redacted = input !== call.input
  const record: PendingApprovalRecord = {
    approval_id: approvalId,
    state: 'pending',
    tool_id: call.tool.id,
    tool_call_id: call.tool_call_id,
    scope: { ...call.scope },
    input,
    input_digest: digest,
    ...(redacted && deps.seal !== undefined ? { sealed_input: sealInput(deps.seal, { approval_id: approvalId, tool_id: call.tool.id, input_digest: digest }, call.input) } : {}),
    ...(sensitive === undefined || sensitive.length === 0 ? {} : { sensitive_input_fields: [...sensitive] }),
    ...(pinned === undefined ? {} : { pinned_result_view: pinned }),
    ...(reason === undefined ? {} : { reason }),
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + deps.pendingTtlMs).toISOString(),
  }
  const inserted = await callStore(deps.guard, 'pending', 'insert', () => deps.stores.pending.insert(record), ignoredAnswer)
  // An insert that may have landed names the approval, so the host can find and cancel it.
  if (!inserted.ok) return inserted.error.reason === 'store_outcome_unknown' ? withApprovalId(inserted.error, approvalId) : inserted.error
  if (redacted && deps.seal === undefined) deps.held.hold(approvalId, call.input, now + deps.pendingTtlMs, now)
  return record
}

/** The error with `details.approval_id` added (the cause kept). */
function withApprovalId(error: ToolError, approvalId: string): ToolError {
  const named = new ToolError({ code: error.code, reason: error.reason, message: error.message, details: { ...(error.details ?? {}), approval_id: approvalId } })
  if ('cause' in error) Object.defineProperty(named, 'cause', { value: (error as { cause?: unknown }).cause, enumerable: false })
  return named
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

/** Default and largest `limit` of `listPending`. */
const LIST_DEFAULT = 100
const LIST_MAX = 1000
const STATUSES: readonly ApprovalStatus[] = ['pending', 'approved', 'denied', 'canceled', 'expired']

/**
 * Lists the pending approvals `profile_id` owns (`docs/approvals.md` "`dispatcher.approvals`"),
 * as views at this instant (a pending one past `expires_at` reads `expired`; nothing is written),
 * newest first (by `created_at`, then `approval_id`), at most `limit`. Records the store answers
 * for another profile are left out, so a store that filters badly reveals nothing.
 *
 * @throws ToolError `approval_request_invalid` / `field_invalid`; `approval_unavailable`
 *   (`store_unsupported` for a pending store without `list`; `store_failed`, `store_timeout`).
 */
export async function listPending(deps: ResolvedApprovals, request: ListPendingRequest): Promise<readonly PendingApprovalView[]> {
  const r = recordOf(request, 'listPending request', ['profile_id', 'workspace_id', 'status', 'limit'])
  const profileId = nonEmptyString(r, 'profile_id')
  const workspaceId = optionalString(r, 'workspace_id')
  const statuses = r.status === undefined ? undefined : statusList(r.status)
  const limit = r.limit ?? LIST_DEFAULT
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > LIST_MAX) invalid(`limit must be an integer from 1 to ${LIST_MAX}`)
  const store = deps.stores.pending
  let unsupported = false
  // The method is read inside the guard too: a store's getter may throw.
  const listed = await callStore(deps.guard, 'pending', 'list', () => {
    const list = store.list
    if (typeof list === 'function') return list.call(store, profileId)
    unsupported = true
    return []
  }, pendingListAnswer)
  if (unsupported) throw storeUnsupported('pending', 'list')
  if (!listed.ok) throw listed.error
  const now = deps.now()
  const views: PendingApprovalView[] = []
  for (const record of listed.value) {
    if (record.scope.profile_id !== profileId) continue
    if (workspaceId !== undefined && record.scope.workspace_id !== workspaceId) continue
    const view = toView(record, now)
    if (statuses === undefined || statuses.includes(view.status)) views.push(view)
  }
  views.sort((a, b) => (a.created_at === b.created_at ? (a.approval_id < b.approval_id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1))
  return Object.freeze(views.slice(0, limit))
}

function statusList(value: unknown): readonly ApprovalStatus[] {
  if (!Array.isArray(value) || value.length > STATUSES.length) invalid(`status must be an array of ${STATUSES.map((s) => `"${s}"`).join(', ')}`)
  const out: ApprovalStatus[] = []
  for (let index = 0; index < value.length; index++) {
    const item: unknown = value[index]
    if (!STATUSES.includes(item as ApprovalStatus)) invalid(`status must be an array of ${STATUSES.map((s) => `"${s}"`).join(', ')}`)
    out.push(item as ApprovalStatus)
  }
  return out
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
  const canceled = decided(record, 'canceled', iso(deps.now()))
  await transition(deps, record, canceled)
  deps.held.drop(approvalId)
  return toView(canceled, deps.now())
}

/**
 * Records a decision on a pending approval (`docs/approvals.md` "`dispatcher.approvals`"). Before
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
 * A sealed input (`docs/approvals.md` "Sealed pending inputs") is opened before an approval is
 * recorded; one this dispatcher cannot open rejects and leaves the approval pending. So does a
 * redacted input with no seal that only the process that opened the approval holds
 * (`input_held_elsewhere`).
 *
 * An approval of a call a remembered reject matches is refused and leaves the approval pending
 * (`docs/approvals.md` "Precedence").
 *
 * @throws ToolError `approval_not_found`; `approval_forbidden` (`profile_mismatch`,
 *   `profile_unavailable`, `session_unbound`, `remembered_reject`); `approval_state`; `approval_request_invalid`;
 *   `approval_unavailable` (a failing store; `seal_key_unknown`, `seal_invalid` for a sealed input
 *   that does not open; `input_held_elsewhere` for a redacted input this process does not hold). The approved call's own failure is not thrown: it is the view's outcome.
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
    const denied = decided(record, 'denied', decidedAt)
    await transition(deps, record, denied)
    deps.held.drop(approvalId)
    return toView(denied, deps.now())
  }
  // A remembered reject of the call refuses the approval (it stays pending).
  await refuseOverReject(deps, record.tool_id, record.scope, record.input_digest, record.approval_id)
  // A sealed input is opened before the decision is recorded: one that does not open leaves the
  // approval pending (another process may hold its key); so does a redacted input held elsewhere.
  const sealed = record.sealed_input === undefined ? undefined : openSealed(deps, record)
  if (sealed === undefined && !deps.held.has(record.approval_id) && heldElsewhere(record, host)) throw inputHeldElsewhere(record.approval_id)
  const dispatching = decided(record, 'dispatching', decidedAt)
  await transition(deps, record, dispatching)
  const run = dispatch(deps, host, dispatching, sealed ?? deps.held.take(record.approval_id))
  if (r.wait === false) {
    run.catch((error: unknown) => safeLog(deps.guard.logger, 'error', { event: 'approval.dispatch_failed', approval_id: record.approval_id, error_name: thrownName(error) }, 'approved call failed to dispatch'))
    return toView(dispatching, deps.now())
  }
  return run
}

/**
 * Runs the approved call on `real` (the opened seal or the held input, when the stored record is
 * redacted) and records its outcome (`dispatching` → `completed` | `failed`). Always answers once
 * the call ran: a resume that throws (a record no dispatcher can run) is the outcome
 * `approval_unavailable` / `record_invalid`, and an outcome the store does not take (the update
 * throws, rejects, hangs, answers anything but `true`, or the clock fails) is returned with
 * `outcome_recorded: false`.
 */
async function dispatch(deps: ResolvedApprovals, host: DispatchHost, record: PendingApprovalRecord, real: HeldInput | undefined): Promise<PendingApprovalView> {
  const outcome = await resumeGuarded(deps, host, record, real)
  const state = outcome.status === 'ok' ? 'completed' : 'failed'
  let finished: PendingApprovalRecord = { ...record, state, outcome: toStoredOutcome(outcome) }
  try {
    finished = { ...finished, finished_at: iso(deps.now()) }
  } catch {
    return notRecorded(deps, finished)
  }
  const saved = await callStore(deps.guard, 'pending', 'update', () => deps.stores.pending.update(record.approval_id, 'dispatching', finished), booleanAnswer)
  if (!saved.ok || !saved.value) return withTrace(notRecorded(deps, finished), outcome)
  // A finished state reads the same at any instant: no clock reading is needed for the view.
  return withTrace(toView(finished, 0), outcome)
}

/**
 * The view with the deferred call's `trace_context` (a dispatcher with telemetry) on its outcome:
 * the answer of `resolve` names the span that ran the call. It is not stored: `show` answers the
 * outcome without it (`docs/telemetry.md` "Propagation").
 */
function withTrace(view: PendingApprovalView, outcome: InvokeOk | InvokeError): PendingApprovalView {
  const context = outcome.trace_context
  if (context === undefined || view.outcome === undefined) return view
  return { ...view, outcome: { ...view.outcome, trace_context: context } }
}

/** The outcome of an approved call whose record could not be written: logged, and returned with `outcome_recorded: false`. */
function notRecorded(deps: ResolvedApprovals, finished: PendingApprovalRecord): PendingApprovalView {
  safeLog(deps.guard.logger, 'error', { event: 'approval.outcome_not_recorded', approval_id: finished.approval_id }, 'the outcome of an approved call was not recorded')
  return { ...toView(finished, 0), outcome_recorded: false }
}

/** Runs the approved call; a throw on the way (never expected) is the call's failure, not an escaping exception. */
async function resumeGuarded(deps: ResolvedApprovals, host: DispatchHost, record: PendingApprovalRecord, real: HeldInput | undefined): Promise<InvokeOk | InvokeError> {
  try {
    return await host.resume(record, real)
  } catch (error) {
    safeLog(deps.guard.logger, 'error', { event: 'approval.dispatch_failed', approval_id: record.approval_id, error_name: thrownName(error) }, 'approved call failed to dispatch')
    return { status: 'error', tool_call_id: record.tool_call_id, error: recordInvalid(record.approval_id, 'the approved call could not be dispatched') }
  }
}

function ownerOf(request: unknown, allowed: readonly string[]): Record<string, unknown> & { profile_id: string } {
  const r = recordOf(request, 'request', allowed)
  if (typeof r.profile_id !== 'string' || r.profile_id.length === 0) invalid('profile_id must be a non-empty string')
  return r as Record<string, unknown> & { profile_id: string }
}

/** The record, if it exists and `profileId` owns it (nothing is revealed to another profile). */
async function ownedRecord(deps: ResolvedApprovals, approvalId: unknown, profileId: string): Promise<PendingApprovalRecord> {
  if (typeof approvalId !== 'string' || approvalId.length === 0) invalid('approval_id must be a non-empty string')
  const found = await callStore(deps.guard, 'pending', 'get', () => deps.stores.pending.get(approvalId), pendingRecordAnswer)
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
  // The answer is compared, never read: any value but the three strings fails closed.
  const result = await callHost(() => check(owner), { timeoutMs: deps.guard.timeoutMs })
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
  const expired = decided(record, 'expired', record.expires_at)
  await callStore(deps.guard, 'pending', 'update', () => deps.stores.pending.update(record.approval_id, 'pending', expired), booleanAnswer)
  return expired
}

/** Replaces `from` with `next` atomically; a lost race reads the winner's state and throws `approval_state`. */
async function transition(deps: ResolvedApprovals, from: PendingApprovalRecord, next: PendingApprovalRecord): Promise<void> {
  const updated = await callStore(deps.guard, 'pending', 'update', () => deps.stores.pending.update(from.approval_id, from.state, next), booleanAnswer)
  if (!updated.ok) throw updated.error
  if (updated.value) return
  const now = await callStore(deps.guard, 'pending', 'get', () => deps.stores.pending.get(from.approval_id), pendingRecordAnswer)
  throw stateError(from.approval_id, now.ok && now.value ? effectiveState(now.value, deps.now()) : 'dispatching')
}

/**
 * The record moved to a decided state at `at`. The sealed input is dropped: only a pending record
 * needs it, so a decided one never holds a secret, even encrypted.
 */
function decided(record: PendingApprovalRecord, state: Exclude<PendingState, 'pending'>, at: string): PendingApprovalRecord {
  const { sealed_input: _dropped, ...rest } = record
  return { ...rest, state, decided_at: at }
}

/**
 * The real input of a sealed record (`docs/approvals.md` "Sealed pending inputs").
 *
 * @throws ToolError `approval_unavailable` / `seal_key_unknown` or `seal_invalid` (logged as
 *   `approval.sealed_input_refused`, never with the record).
 */
function openSealed(deps: ResolvedApprovals, record: PendingApprovalRecord): HeldInput {
  const opened = openSealedInput(deps.seal, record, record.sealed_input)
  if (opened.ok) return { input: opened.input }
  safeLog(deps.guard.logger, 'error', { event: 'approval.sealed_input_refused', approval_id: record.approval_id, reason: opened.error.reason }, 'a sealed pending input did not open; the approval stays pending')
  throw opened.error
}

/**
 * Whether a record with no seal stores its input redacted (its stored input no longer has the
 * approved digest), so that only the process that opened it can run it. A record this cannot
 * judge (a tool no longer in the catalog, a stored input that is not plain JSON) is left to the
 * resume, which fails it closed.
 */
function heldElsewhere(record: PendingApprovalRecord, host: DispatchHost): boolean {
  const tool = host.tools.get(record.tool_id)
  if (tool === undefined) return false
  // Sensitive fields named by the call or by the tool itself (`sensitiveInputFields`) are what a
  // stored input is redacted at; without any, a digest that no longer matches is a changed record.
  if ((record.sensitive_input_fields?.length ?? 0) === 0 && tool.sensitiveInputFields.length === 0) return false
  try {
    return inputDigest(record.input, { origin: tool.origin }) !== record.input_digest
  } catch {
    return false
  }
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
