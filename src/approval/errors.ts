import { ToolError } from '../errors/tool-error.js'
import { UsageError } from '../errors/usage-error.js'
import { usageErrorClass, type CodedUsageError } from '../errors/usage-error-class.js'
import type { ToolFacts } from '../policy/policy.js'

/** Longest caller-supplied ID echoed into a message. */
const MAX_ECHOED_ID = 128

/** Which approval store an operation ran on. */
export type ApprovalStoreName = 'tokens' | 'grants' | 'pending'

/** Why a supplied approval token was refused (`approval_invalid` reasons). */
export type TokenProblem = 'token_unknown' | 'token_replayed' | 'token_expired' | 'token_mismatch'

/** The bound fields a token can mismatch on. */
export type TokenBinding = 'tool' | 'workspace' | 'session' | 'agent' | 'input'

function shown(id: string): string {
  return JSON.stringify(id.length > MAX_ECHOED_ID ? id.slice(0, MAX_ECHOED_ID) + '…' : id)
}

function withCause(error: ToolError, cause: unknown): ToolError {
  if (cause !== undefined) Object.defineProperty(error, 'cause', { value: cause, enumerable: false })
  return error
}

/** The policy refused the call: `tool_denied` / `policy_denied`. */
export function policyDenied(tool: ToolFacts, reason: string, owner: string | undefined): ToolError {
  return new ToolError({
    code: 'tool_denied',
    reason: 'policy_denied',
    message: `tool "${tool.id}" invocation denied by policy${owner === undefined ? '' : ` ${owner}`}: ${reason}`,
    details: owner === undefined ? { policy_reason: reason } : { policy_reason: reason, owner },
  })
}

/**
 * The policy threw, timed out or returned a malformed decision: fail closed (`tool_denied` /
 * `policy_failed`). `policyPath` names the intersection member that returned the malformed
 * decision (`details.policy_path`).
 */
export function policyFailed(tool: ToolFacts, problem: 'threw' | 'timeout' | 'invalid_decision', cause?: unknown, policyPath?: string): ToolError {
  const what = problem === 'threw' ? 'threw' : problem === 'timeout' ? 'did not answer in time' : 'returned something that is not a decision'
  const member = policyPath === undefined ? '' : ` (intersection member ${policyPath})`
  return withCause(
    new ToolError({
      code: 'tool_denied',
      reason: 'policy_failed',
      message: `tool "${tool.id}" invocation denied: the tool policy ${what}${member}`,
      details: policyPath === undefined ? { problem } : { problem, policy_path: policyPath },
    }),
    cause,
  )
}

/** A remembered reject or a reject answer at the prompt: `tool_denied` / `approval_rejected`. */
export function approvalRejected(
  tool: Pick<ToolFacts, 'id'>,
  details: { source: 'grant'; grant_id: string; scope: string } | { source: 'prompt'; answer: string } | { source: 'elicitation'; approval_id: string },
): ToolError {
  const by = details.source === 'grant' ? `a remembered ${details.scope}-scope decision` : details.source === 'prompt' ? 'the approval prompt' : `the user (approval ${details.approval_id})`
  return new ToolError({ code: 'tool_denied', reason: 'approval_rejected', message: `tool "${tool.id}" invocation rejected by ${by}`, details })
}

/** Approval is needed and there is no way to get one for this call: `tool_denied` / `approval_required`. */
export function approvalRequired(tool: ToolFacts, policyReason: string | undefined): ToolError {
  return new ToolError({
    code: 'tool_denied',
    reason: 'approval_required',
    message: `tool "${tool.id}" requires approval: supply an approval token, or call with a scope.profile_id that can resolve a pending approval`,
    details: policyReason === undefined ? {} : { policy_reason: policyReason },
  })
}

/** A supplied approval token was refused: `approval_invalid` with one reason per problem. Never echoes the token. */
export function tokenInvalid(tool: ToolFacts, problem: TokenProblem, extra: { expires_at?: string; mismatch?: readonly TokenBinding[] } = {}): ToolError {
  const messages: Record<TokenProblem, string> = {
    token_unknown: `approval token for tool "${tool.id}" is unknown`,
    token_replayed: `approval token for tool "${tool.id}" was already used`,
    token_expired: `approval token for tool "${tool.id}" expired at ${extra.expires_at ?? 'an earlier time'}`,
    token_mismatch: `approval token does not match this call of tool "${tool.id}": minted for another ${(extra.mismatch ?? ['call']).join(', ')}`,
  }
  const details =
    problem === 'token_expired' ? { expires_at: extra.expires_at } : problem === 'token_mismatch' ? { mismatch: [...(extra.mismatch ?? [])] } : undefined
  return new ToolError({ code: 'approval_invalid', reason: problem, message: messages[problem], ...(details === undefined ? {} : { details }) })
}

/** An approval store threw or rejected: fail closed (`approval_unavailable` / `store_failed`). The thrown value is the non-enumerable `cause`. */
export function storeFailed(store: ApprovalStoreName, operation: string, cause: unknown): ToolError {
  return withCause(
    new ToolError({
      code: 'approval_unavailable',
      reason: 'store_failed',
      message: `approval ${store} store failed during ${operation}; nothing that needs approval runs`,
      details: { store, operation },
    }),
    cause,
  )
}

/**
 * An approval store did not answer within `timeoutMs`, or said it gave up on time and wrote
 * nothing (a thrown error with `code: 'store_timeout'`, then the `cause`): fail closed
 * (`approval_unavailable` / `store_timeout`). The message names the bound that ended the call:
 * `timeoutMs` when the store did not answer, the store's own (the cause says which) when it gave up.
 */
export function storeTimeout(store: ApprovalStoreName, operation: string, timeoutMs: number, cause?: unknown): ToolError {
  return withCause(
    new ToolError({
      code: 'approval_unavailable',
      reason: 'store_timeout',
      message:
        cause === undefined
          ? `approval ${store} store did not answer within ${timeoutMs} ms during ${operation}; nothing that needs approval runs`
          : `approval ${store} store gave up on ${operation} at its own bound and wrote nothing (the cause says which bound); nothing that needs approval runs`,
      details: { store, operation, timeout_ms: timeoutMs },
    }),
    cause,
  )
}

/**
 * An approval store cannot tell whether a write took effect (a thrown error with `code:
 * 'store_outcome_unknown'`, e.g. the connection failed after COMMIT was sent): fail closed
 * (`approval_unavailable` / `store_outcome_unknown`). The thrown value is the `cause`.
 */
export function storeOutcomeUnknown(store: ApprovalStoreName, operation: string, cause: unknown): ToolError {
  return withCause(
    new ToolError({
      code: 'approval_unavailable',
      reason: 'store_outcome_unknown',
      message: `approval ${store} store cannot tell whether ${operation} took effect; nothing that needs approval runs: read the state back before trying again`,
      details: { store, operation },
    }),
    cause,
  )
}

/** The pending store has no `list` method, so `listPending` cannot answer (`approval_unavailable` / `store_unsupported`). */
export function storeUnsupported(store: ApprovalStoreName, operation: string): ToolError {
  return new ToolError({
    code: 'approval_unavailable',
    reason: 'store_unsupported',
    message: `approval ${store} store has no ${operation} method; give the dispatcher a store that has one`,
    details: { store, operation },
  })
}

/** The host's prompt callback threw, rejected or gave no valid answer (`approval_unavailable` / `prompt_failed`). */
export function promptFailed(tool: ToolFacts, problem: 'threw' | 'invalid_answer', cause?: unknown): ToolError {
  return withCause(
    new ToolError({
      code: 'approval_unavailable',
      reason: 'prompt_failed',
      message: `approval prompt for tool "${tool.id}" ${problem === 'threw' ? 'failed' : 'gave no valid answer'}; the call does not run`,
      details: { problem },
    }),
    cause,
  )
}

/** The host's prompt callback did not answer within `promptTimeoutMs` (`approval_unavailable` / `prompt_timeout`). */
export function promptTimeout(tool: ToolFacts, timeoutMs: number): ToolError {
  return new ToolError({
    code: 'approval_unavailable',
    reason: 'prompt_timeout',
    message: `approval prompt for tool "${tool.id}" got no answer within ${timeoutMs} ms; the call does not run`,
    details: { timeout_ms: timeoutMs },
  })
}

/** The host's owner check (`checkOwner`) threw or timed out (`approval_unavailable` / `owner_check_failed`). */
export function ownerCheckFailed(approvalId: string, cause?: unknown): ToolError {
  return withCause(
    new ToolError({ code: 'approval_unavailable', reason: 'owner_check_failed', message: `could not check the owner of pending approval ${shown(approvalId)}; the decision is not accepted` }),
    cause,
  )
}

/**
 * The dispatcher's clock threw or answered something that is not epoch milliseconds from 1970 to
 * about 9899 (`approval_unavailable` / `clock_failed`): nothing whose expiry it decides runs.
 */
export function clockFailed(cause?: unknown): ToolError {
  return withCause(
    new ToolError({
      code: 'approval_unavailable',
      reason: 'clock_failed',
      message: "the dispatcher's clock threw or did not answer a time in epoch milliseconds; nothing that needs approval runs",
    }),
    cause,
  )
}

/** The stored pending record no longer reproduces the approved call (`approval_unavailable` / `record_invalid`). */
export function recordInvalid(approvalId: string, problem: string): ToolError {
  return new ToolError({
    code: 'approval_unavailable',
    reason: 'record_invalid',
    message: `pending approval ${shown(approvalId)} cannot be dispatched: ${problem}`,
  })
}

/**
 * The real input of a pending approval stored redacted, with no seal, is held only in the memory
 * of the process that opened it, and this dispatcher does not hold it (`approval_unavailable` /
 * `input_held_elsewhere`). The decision is not accepted: the approval stays pending.
 */
export function inputHeldElsewhere(approvalId: string): ToolError {
  return new ToolError({
    code: 'approval_unavailable',
    reason: 'input_held_elsewhere',
    message: `pending approval ${shown(approvalId)} has sensitive input held only in the memory of the process that opened it: resolve it there, or give every instance the same approvals.sealKey so the record carries it sealed; the approval stays pending`,
  })
}

/**
 * The sealed input of a pending approval does not open (`approval_unavailable`): `seal_key_unknown`
 * when it was sealed with a key this dispatcher does not have (`details.key_id` names it), or
 * `seal_invalid` when its ciphertext, nonce, tag or associated data (the approval ID) were
 * changed or it is malformed. The decision is not accepted: the approval stays pending.
 */
export function sealedInputRefused(approvalId: string, reason: 'seal_key_unknown' | 'seal_invalid', keyId?: string): ToolError {
  const message =
    reason === 'seal_key_unknown'
      ? `pending approval ${shown(approvalId)} holds its input sealed with a key this dispatcher does not have (key_id ${keyId}): give that key as approvals.sealKey or in previousSealKeys; the approval stays pending`
      : `pending approval ${shown(approvalId)} holds a sealed input that does not open: its ciphertext, nonce, tag or approval ID were changed; the call does not run`
  return new ToolError({ code: 'approval_unavailable', reason, message, ...(keyId === undefined ? {} : { details: { key_id: keyId } }) })
}

/** No pending approval with that ID (`approval_not_found` / `unknown_approval`). */
export function approvalNotFound(approvalId: string): ToolError {
  return new ToolError({ code: 'approval_not_found', reason: 'unknown_approval', message: `pending approval ${shown(approvalId)} not found` })
}

/** Another profile, or the owner is no longer available or bound (`approval_forbidden`). */
export function approvalForbidden(approvalId: string, reason: 'profile_mismatch' | 'profile_unavailable' | 'session_unbound'): ToolError {
  const messages = {
    profile_mismatch: `pending approval ${shown(approvalId)} belongs to another profile`,
    profile_unavailable: `the profile that created pending approval ${shown(approvalId)} is not available`,
    session_unbound: `the session of pending approval ${shown(approvalId)} is no longer bound to its profile`,
  }
  return new ToolError({ code: 'approval_forbidden', reason, message: messages[reason] })
}

/**
 * An approval was asked for a call a remembered reject blocks (`approval_forbidden` /
 * `remembered_reject`, `docs/approvals.md` "Precedence"): `mintApprovalToken` mints no token for
 * it, and `resolve` (`approved`) leaves the pending approval pending. `details` names the most
 * specific matching reject, `{ grant_id, scope }`.
 */
export function rememberedReject(toolId: string, grant: { grant_id: string; scope: string }, approvalId?: string): ToolError {
  const by = `a remembered ${grant.scope}-scope reject (grant ${shown(grant.grant_id)})`
  const message =
    approvalId === undefined
      ? `no approval token is minted for tool ${shown(toolId)}: ${by} blocks the call; revoke the grant first`
      : `pending approval ${shown(approvalId)} cannot be approved: ${by} blocks its call of tool ${shown(toolId)}; revoke the grant or deny the approval (it stays pending)`
  return new ToolError({ code: 'approval_forbidden', reason: 'remembered_reject', message, details: { grant_id: grant.grant_id, scope: grant.scope } })
}

/** The approval is no longer pending (`approval_state`): it never runs again. */
export function approvalState(approvalId: string, reason: 'approval_expired' | 'approval_resolved' | 'approval_canceled', status: string): ToolError {
  const messages = {
    approval_expired: `pending approval ${shown(approvalId)} expired`,
    approval_resolved: `pending approval ${shown(approvalId)} was already resolved`,
    approval_canceled: `pending approval ${shown(approvalId)} was canceled`,
  }
  return new ToolError({ code: 'approval_state', reason, message: messages[reason], details: { status } })
}

/** Reasons of `approval_request_invalid`. */
export type ApprovalRequestProblem = 'field_invalid' | 'agent_name_required' | 'agent_name_forbidden' | 'input_digest_forbidden' | 'workspace_required'

/** A management call (`mintApprovalToken`, grants, pending approvals) got bad arguments (`approval_request_invalid`). */
export function approvalRequestInvalid(reason: ApprovalRequestProblem, problem: string): ToolError {
  return new ToolError({ code: 'approval_request_invalid', reason, message: `invalid approvals request: ${problem}` })
}

/**
 * Thrown by `createDispatcher` for `approvals` options it cannot run with, and by
 * `createSqliteApprovalStores` for its options (misuse of the library). A {@link UsageError} with
 * `code: 'approval_config_invalid'`: `problems` lists every problem, each with a JSON Pointer into
 * the options (`/approvals/tokens`, `/approvals/timeoutMs`, `/filename`) and a problem code:
 * `invalid_option`, `unknown_option`, `unreadable_option`, `invalid_store` (a store without its methods),
 * `invalid_callback`, `invalid_duration`, `invalid_seal_key` (a seal key that is not 32 bytes),
 * `seal_key_missing` (`previousSealKeys` without `sealKey`), `invalid_filename`,
 * `schema_version_unsupported`.
 */
export const ApprovalConfigError = usageErrorClass(UsageError, 'approval_config_invalid')

/** An error of the class ApprovalConfigError (`new ApprovalConfigError(problems, cause?)`; `code: 'approval_config_invalid'`). */
export type ApprovalConfigError = CodedUsageError<'approval_config_invalid'>

/** True for an {@link ApprovalConfigError} from any copy of this library (checks its own global brand, not `instanceof`). */
export const isApprovalConfigError = ApprovalConfigError.is

/** Why an approval request state (`docs/mcp.md` "Approvals as `input_required`") was refused. */
export type ApprovalStateProblem = 'state_invalid' | 'state_expired' | 'state_mismatch' | 'state_replayed'

/**
 * An approval request state was refused: `approval_invalid` with one reason per problem
 * (`docs/errors.md` "`approval_invalid`"). Never echoes the state.
 */
export function approvalStateInvalid(
  toolId: string,
  problem: ApprovalStateProblem,
  extra: { expires_at?: string; mismatch?: readonly ('tool' | 'input' | 'scope')[]; approval_id?: string } = {},
): ToolError {
  const messages: Record<ApprovalStateProblem, string> = {
    state_invalid: `approval request state for tool "${toolId}" is not one this server signed (malformed, changed, or signed with a key it does not hold)`,
    state_expired: `approval request state for tool "${toolId}" expired at ${extra.expires_at ?? 'an earlier time'}`,
    state_mismatch: `approval request state does not match this call of tool "${toolId}": issued for another ${(extra.mismatch ?? ['call']).join(', ')}`,
    state_replayed: `approval request state for tool "${toolId}" was already answered: its approval ${extra.approval_id ?? ''} is decided, and nothing ran again`,
  }
  const details =
    problem === 'state_expired'
      ? { expires_at: extra.expires_at }
      : problem === 'state_mismatch'
        ? { mismatch: [...(extra.mismatch ?? [])] }
        : problem === 'state_replayed'
          ? { approval_id: extra.approval_id }
          : undefined
  return new ToolError({ code: 'approval_invalid', reason: problem, message: messages[problem], ...(details === undefined ? {} : { details }) })
}
