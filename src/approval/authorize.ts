import type { Call } from '../call/call.js'
import { callHost } from '../async/deadline.js'
import { inputDigest } from '../digest/input-digest.js'
import { isToolError, type ToolError } from '../errors/tool-error.js'
import { cloneJson } from '../json/clone.js'
import { malformedDecisionPath } from '../policy/compose.js'
import { checkDecision } from '../policy/decision.js'
import {
  defaultToolPolicy,
  toolFacts,
  type PolicyAllow,
  type PolicyApprovalRequired,
  type PolicyDecision,
  type PolicyRequest,
  type ToolFacts,
  type ToolPolicy,
} from '../policy/policy.js'
import { callAborted } from '../call/call-aborted.js'
import { approvalRejected, approvalRequired, policyDenied, policyFailed } from './errors.js'
import { findGrant, rememberPromptAnswer } from './grants.js'
import { toStoredInput } from './held-inputs.js'
import type { ResolvedApprovals } from './options.js'
import { openPending } from './pending.js'
import { askPrompt } from './prompt.js'
import { checkToken } from './tokens.js'

/** What the approval step decided about a call. */
export type AuthorizeResult = { readonly kind: 'run' } | { readonly kind: 'pending'; readonly approval_id: string } | { readonly kind: 'error'; readonly error: ToolError }

const RUN: AuthorizeResult = Object.freeze({ kind: 'run' })
const fail = (error: ToolError): AuthorizeResult => ({ kind: 'error', error })

/**
 * The policy and approval stage of the lifecycle (`docs/approvals.md` "The order, on the final
 * input"), on the final input (after `tool.pre_call` hooks):
 *
 * 1. The policy decides on the tool's facts, the scope and the input WITHOUT a native tool's
 *    `result_view` (so the selector never changes a decision). `deny` → `tool_denied` /
 *    `policy_denied`; a failing policy → `tool_denied` / `policy_failed`.
 * 2. A supplied approval token is checked first and is final: valid → run; otherwise
 *    `approval_invalid` (`token_unknown | token_replayed | token_expired | token_mismatch`), never a
 *    fall-through.
 * 3. `allow` → run.
 * 4. `approval_required`: the most specific remembered grant (exact → agent → tool, in the call's
 *    workspace): reject → `tool_denied` / `approval_rejected`; allow → run. A grant never turns a
 *    policy `deny` into an allow (step 1 already returned).
 * 5. Otherwise the prompt callback, when the host gave one (`allow_always`/`reject_always` store an
 *    exact grant first), or a pending approval owned by `scope.profile_id` (`tool_denied` /
 *    `approval_required` when the call has no profile).
 *
 * Any store failure or timeout, or a failing clock, fails closed with `approval_unavailable`. An
 * aborted call (`InvokeRequest.signal`) stops waiting on the policy or the prompt at once
 * (`tool_execution_failed` / `call_aborted`).
 */
export async function authorize(call: Call, deps: ResolvedApprovals): Promise<AuthorizeResult> {
  try {
    return await authorizeCall(call, deps)
  } catch (error) {
    // A typed failure thrown on the way (the clock's `clock_failed`) ends the call like any other.
    if (isToolError(error)) return fail(error)
    throw error
  }
}

async function authorizeCall(call: Call, deps: ResolvedApprovals): Promise<AuthorizeResult> {
  const facts = toolFacts(call.tool)
  const decision = await askPolicy(call, facts, deps)
  if (isToolError(decision)) return fail(decision)

  const token = call.request.approval_token
  if (token !== undefined) {
    const refused = await checkToken(token, { tool: facts, scope: call.scope, input_digest: digestOf(call) }, deps.stores.tokens, deps.guard, deps.now())
    return refused === undefined ? RUN : fail(refused)
  }
  if (decision.decision === 'allow') return RUN

  const digest = digestOf(call)
  const remembered = await findGrant(deps.stores.grants, deps.guard, facts.id, call.scope, digest)
  if (!remembered.ok) return fail(remembered.error)
  if (remembered.grant !== undefined) {
    const { grant } = remembered
    return grant.decision === 'allow' ? RUN : fail(approvalRejected(facts, { source: 'grant', grant_id: grant.grant_id, scope: grant.scope }))
  }

  if (deps.prompt !== undefined) return promptFor(call, facts, digest, decision.reason, deps)
  if (call.scope.profile_id === undefined) return fail(approvalRequired(facts, decision.reason))
  const opened = await openPending(call, digest, decision.reason, deps)
  return isToolError(opened) ? fail(opened) : { kind: 'pending', approval_id: opened.approval_id }
}

/**
 * Asks the CURRENT policy again about an approved call that is about to run (`docs/approvals.md`
 * "`dispatcher.approvals`": the deferred call rechecks the current tool policy under the recorded
 * owner): a `deny` ends it with `tool_denied` / `policy_denied`, a failing policy with
 * `tool_denied` / `policy_failed`; `approval_required` is satisfied by the approval itself.
 *
 * @returns `undefined` when the call may run, else the error that ends it.
 */
export async function recheckPolicy(call: Call, deps: ResolvedApprovals): Promise<ToolError | undefined> {
  const decision = await askPolicy(call, toolFacts(call.tool), deps)
  return isToolError(decision) ? decision : undefined
}

/** The policy's decision on the call, with a `deny` (or a failing policy) as the error that ends it. */
async function askPolicy(call: Call, facts: ToolFacts, deps: ResolvedApprovals): Promise<PolicyAllow | PolicyApprovalRequired | ToolError> {
  const decision = await checkPolicy(deps.policy, { tool: facts, scope: call.scope, input: policyInput(call, deps.policy) }, deps.guard.timeoutMs, call.request.signal)
  if (isToolError(decision)) return decision
  return decision.decision === 'deny' ? policyDenied(facts, decision.reason, decision.owner) : decision
}

/**
 * The input digest of a call (`docs/views.md` "Digests"): canonical JSON of the input as sent, without
 * a native tool's top-level `result_view`.
 */
export function digestOf(call: Call): string {
  return inputDigest(call.input, { origin: call.tool.origin })
}

/**
 * The input a policy sees: a private copy of the input the handler gets (without a native tool's
 * `result_view`), so a policy cannot change the call. The built-in default policy never reads the
 * input, so it gets the input itself and no copy is made.
 */
export function policyInput(call: Call, policy: ToolPolicy): unknown {
  return policy === defaultToolPolicy ? call.handlerInput : cloneJson(call.handlerInput)
}

async function promptFor(call: Call, facts: ToolFacts, digest: string, reason: string | undefined, deps: ResolvedApprovals): Promise<AuthorizeResult> {
  const request = {
    tool: facts,
    tool_call_id: call.tool_call_id,
    scope: call.scope,
    input: toStoredInput(call),
    input_digest: digest,
    ...(reason === undefined ? {} : { reason }),
  }
  const answer = await askPrompt(deps.prompt!, request, { timeoutMs: deps.promptTimeoutMs, signal: call.request.signal })
  if (isToolError(answer)) return fail(answer)
  if (answer === 'allow_always' || answer === 'reject_always') {
    const stored = await rememberPromptAnswer(call, digest, answer, deps)
    if (stored !== undefined) return fail(stored)
  }
  return answer === 'allow_once' || answer === 'allow_always' ? RUN : fail(approvalRejected(facts, { source: 'prompt', answer }))
}

/**
 * Asks the policy, failing closed (`docs/policy.md` "The interface"): a throw, a rejection, a
 * hang past `timeoutMs` (or an answer that settles after it) or a malformed or unreadable decision
 * becomes `tool_denied` / `policy_failed`, never an allow. The decision is read inside the guard
 * that runs the policy. A malformed decision reads `details.problem: 'invalid_decision'` whether
 * the policy returned it or a member of an `intersectPolicies` policy did (then
 * `details.policy_path` names the member, e.g. `/policies/1`). With `signal` (the call's), an
 * aborted call stops waiting at once: `tool_execution_failed` / `call_aborted`.
 */
export async function checkPolicy(policy: ToolPolicy, request: PolicyRequest, timeoutMs: number, signal?: AbortSignal): Promise<PolicyDecision | ToolError> {
  const result = await callHost(() => policy.decide(request), { timeoutMs, signal }, readDecision)
  if (!result.ok) {
    if (result.failure === 'aborted') return callAborted(request.tool.id, false)
    if (result.failure === 'timeout') return policyFailed(request.tool, 'timeout')
    if (result.failure === 'unreadable') return policyFailed(request.tool, 'invalid_decision', result.cause)
    const memberPath = malformedDecisionPath(result.cause)
    if (memberPath !== undefined) return policyFailed(request.tool, 'invalid_decision', result.cause, memberPath)
    return policyFailed(request.tool, 'threw', result.cause)
  }
  return result.value ?? policyFailed(request.tool, 'invalid_decision')
}

/** The policy's answer as a checked decision, or `undefined` for one that is not a decision (a read that throws is unreadable). */
function readDecision(answer: unknown): PolicyDecision | undefined {
  return checkDecision(answer)
}
