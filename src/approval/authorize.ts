import type { Call } from '../call/call.js'
import type { AuthorizedBy } from '../telemetry/telemetry.js'
import type { AbortWatch } from '../async/abort.js'
import { callHost } from '../async/deadline.js'
import { inputDigest } from '../digest/input-digest.js'
import { isToolError, type ToolError } from '../errors/tool-error.js'
import { cloneJson } from '../json/clone.js'
import { malformedDecisionPath } from '../policy/compose.js'
import { checkDecision } from '../policy/decision.js'
import {
  decisionAtOnce,
  defaultToolPolicy,
  toolFacts,
  type PolicyDecision,
  type PolicyDeny,
  type PolicyRequest,
  type ToolFacts,
  type ToolPolicy,
} from '../policy/policy.js'
import { callAborted } from '../call/call-aborted.js'
import { approvalRejected, approvalRequired, policyDenied, policyFailed } from './errors.js'
import { findGrants, rememberPromptAnswer } from './grants.js'
import { memoryGrantsOfTool } from './memory-stores.js'
import { toStoredInput } from './held-inputs.js'
import type { ResolvedApprovals } from './options.js'
import { openPending } from './pending.js'
import { askPrompt } from './prompt.js'
import { approvalVerdict, type ApprovalFacts, type ApprovalVerdict, type Presented } from './precedence.js'
import type { ApprovalGrant } from './stores.js'
import { consumeToken, inspectToken, type TokenCall } from './tokens.js'

/** What the approval step decided about a call. */
export type AuthorizeResult = { readonly kind: 'run'; readonly by: AuthorizedBy } | { readonly kind: 'pending'; readonly approval_id: string } | { readonly kind: 'error'; readonly error: ToolError }

/** One frozen `run` result per way a call is let run (what telemetry's `authorize` stage reports). */
const RUN_BY: Readonly<Record<AuthorizedBy, AuthorizeResult>> = Object.freeze({
  policy: Object.freeze({ kind: 'run', by: 'policy' }),
  token: Object.freeze({ kind: 'run', by: 'token' }),
  grant: Object.freeze({ kind: 'run', by: 'grant' }),
  prompt: Object.freeze({ kind: 'run', by: 'prompt' }),
  approval: Object.freeze({ kind: 'run', by: 'approval' }),
})
const fail = (error: ToolError): AuthorizeResult => ({ kind: 'error', error })

/**
 * The policy and approval stage of the lifecycle (`docs/approvals.md` "Precedence"), on the final
 * input (after `tool.pre_call` hooks). The policy decides on the tool's facts, the scope and the
 * input WITHOUT a native tool's `result_view` (so the selector never changes a decision); a
 * failing policy → `tool_denied` / `policy_failed`. Then {@link approvalVerdict} decides, and this
 * step looks up only the facts it asks for:
 *
 * - `deny` → `tool_denied` / `policy_denied`;
 * - a supplied approval token that does not fit → `approval_invalid` (`token_unknown |
 *   token_replayed | token_expired | token_mismatch`), never a fall-through;
 * - a fitting token → consumed, then the call runs (of concurrent calls one wins the token); no
 *   remembered decision is read for it (`mintApprovalToken` refused to mint it over a reject);
 * - without a token, a remembered reject at any scope of the call's workspace (exact, agent or
 *   tool) → `tool_denied` / `approval_rejected`, naming the most specific reject;
 * - a policy `allow` → the call runs;
 * - `approval_required` with an allow grant → the call runs;
 * - otherwise the prompt callback, when the host gave one (`allow_always`/`reject_always` store an
 *   exact grant first), or a pending approval owned by `scope.profile_id` (`tool_denied` /
 *   `approval_required` when the call has no profile).
 *
 * Any store failure or timeout, or a failing clock, fails closed with `approval_unavailable`, also
 * for a call the policy allows (a reject might be stored where the lookup failed). An aborted call
 * (`InvokeRequest.signal`) stops waiting on the policy or the prompt at once
 * (`tool_execution_failed` / `call_aborted`); a store step in flight is waited for, no new one
 * starts, and the call ends as `call_aborted` too, whatever that step answered.
 */
/**
 * True when the call may run with no approval work at all, decided without waiting: no approval
 * token to check, a policy that decides at once (the default policy, a pattern policy) allowing
 * it, and no remembered decision that could match (no workspace, or the memory grant store holds
 * no grant of the tool in the workspace). Exactly the calls {@link authorize} would run by the
 * policy's `allow` after finding no grant; any other call goes through {@link authorize}.
 */
export function allowsAtOnce(call: Call, deps: ResolvedApprovals): boolean {
  if (call.request.approval_token !== undefined) return false
  const decision = decisionAtOnce(deps.policy, { tool: toolFacts(call.tool), scope: call.scope, input: call.handlerInput })
  if (decision?.decision !== 'allow') return false
  const workspace = call.scope.workspace_id
  return workspace === undefined || memoryGrantsOfTool(deps.stores.grants)?.(workspace, call.tool.id) === false
}

export async function authorize(call: Call, deps: ResolvedApprovals): Promise<AuthorizeResult> {
  let result: AuthorizeResult
  try {
    result = await authorizeCall(call, deps)
  } catch (error) {
    // A typed failure thrown on the way (the clock's `clock_failed`) ends the call like any other.
    if (!isToolError(error)) throw error
    result = fail(error)
  }
  // A call the caller aborted ends as aborted, whatever the store step it waited for then answered
  // (an error, a timeout, a token another process won): the caller gave up first, and the call
  // fails closed either way. A pending approval opened before the abort stays the answer.
  if (result.kind === 'error' && result.error.reason !== 'call_aborted' && call.request.signal?.aborted === true) return fail(callAborted(call.tool.id, false))
  return result
}

async function authorizeCall(call: Call, deps: ResolvedApprovals): Promise<AuthorizeResult> {
  const facts = toolFacts(call.tool)
  const decision = await askPolicy(call, facts, deps)
  if (isToolError(decision)) return fail(decision)

  const token = call.request.approval_token
  const now = deps.now()
  const tokenCall = (): TokenCall => ({ tool: facts, scope: call.scope, input_digest: digestOf(call) })
  const presented = token === undefined ? 'nothing' : () => inspectToken(token, tokenCall(), deps.stores.tokens, deps.guard, now)
  const settled = await settleVerdict(call, decision, presented, deps)
  if (isToolError(settled)) return fail(settled)
  // The store reads are waited for even when the caller aborts meanwhile; nothing is written
  // after an abort (no token consumed, no pending approval opened).
  if (call.request.signal?.aborted === true) return fail(callAborted(call.tool.id, false))
  const { verdict } = settled
  switch (verdict.kind) {
    case 'denied':
      return fail(denied(facts, decision))
    case 'token_invalid':
      return fail(settled.refusedToken!)
    case 'rejected':
      return fail(rejectedBy(facts, verdict.grant))
    case 'run': {
      if (verdict.by !== 'token') return RUN_BY[verdict.by]
      const lost = await consumeToken(token!, tokenCall(), deps.stores.tokens, deps.guard, now)
      return lost === undefined ? RUN_BY.token : fail(lost)
    }
    case 'ask': {
      const reason = reasonOf(decision)
      if (deps.prompt !== undefined) return promptFor(call, facts, digestOf(call), reason, deps)
      if (call.scope.profile_id === undefined) return fail(approvalRequired(facts, reason))
      const opened = await openPending(call, digestOf(call), reason, deps)
      return isToolError(opened) ? fail(opened) : { kind: 'pending', approval_id: opened.approval_id }
    }
  }
}

/**
 * Asks {@link approvalVerdict} until it decides, looking up each fact it asks for: the token (by
 * `presented`, a check that answers its refusal or `undefined`) and the call's grants.
 *
 * @returns the verdict (with the token's refusal, for `token_invalid`), or `approval_unavailable`
 *   when a store failed.
 */
async function settleVerdict(
  call: Call,
  decision: PolicyDecision,
  presented: Presented | (() => Promise<ToolError | undefined>),
  deps: ResolvedApprovals,
): Promise<{ readonly verdict: SettledVerdict; readonly refusedToken?: ToolError } | ToolError> {
  let known: ApprovalFacts = { policy: decision.decision, ...(typeof presented === 'string' ? { presented } : {}) }
  let refusedToken: ToolError | undefined
  for (;;) {
    const verdict = approvalVerdict(known)
    if (verdict.kind !== 'need') return { verdict, refusedToken }
    // No new store read once the caller has aborted (one in flight was waited for).
    if (call.request.signal?.aborted === true) return callAborted(call.tool.id, false)
    if (verdict.fact === 'presented') {
      refusedToken = await (presented as () => Promise<ToolError | undefined>)()
      if (refusedToken?.code === 'approval_unavailable') return refusedToken
      known = { ...known, presented: refusedToken === undefined ? 'valid_token' : 'invalid_token' }
    } else {
      const found = await findGrants(deps.stores.grants, deps.guard, call.tool.id, call.scope, () => digestOf(call))
      if (!found.ok) return found.error
      known = { ...known, grants: found.grants }
    }
  }
}

/** A verdict once every fact it needed was looked up. */
type SettledVerdict = Exclude<ApprovalVerdict, { kind: 'need' }>

/** `tool_denied` / `policy_denied` for the policy's `deny`. */
function denied(facts: ToolFacts, decision: PolicyDecision): ToolError {
  const deny = decision as PolicyDeny
  return policyDenied(facts, deny.reason, deny.owner)
}

/** The policy's reason for asking for an approval, if it gave one. */
function reasonOf(decision: PolicyDecision): string | undefined {
  return decision.decision === 'approval_required' ? decision.reason : undefined
}

/** `tool_denied` / `approval_rejected` for a remembered reject, naming it. */
function rejectedBy(facts: ToolFacts, grant: ApprovalGrant): ToolError {
  return approvalRejected(facts, { source: 'grant', grant_id: grant.grant_id, scope: grant.scope })
}

/**
 * Asks again about an approved call that is about to run (`docs/approvals.md` "Precedence": the
 * deferred call rechecks the current tool policy under the recorded owner): the owner's approval
 * counts as a token does. A `deny` of the CURRENT policy ends it with `tool_denied` /
 * `policy_denied`, a failing policy with `tool_denied` / `policy_failed`, a remembered reject set
 * since with `tool_denied` / `approval_rejected`, a failing grant store with `approval_unavailable`;
 * `approval_required` is satisfied by the approval itself.
 *
 * @returns `undefined` when the call may run, else the error that ends it.
 */
export async function recheckPolicy(call: Call, deps: ResolvedApprovals): Promise<ToolError | undefined> {
  const facts = toolFacts(call.tool)
  const decision = await askPolicy(call, facts, deps)
  if (isToolError(decision)) return decision
  const settled = await settleVerdict(call, decision, 'approved_pending', deps)
  if (isToolError(settled)) return settled
  const { verdict } = settled
  if (verdict.kind === 'run') return undefined
  if (verdict.kind === 'denied') return denied(facts, decision)
  if (verdict.kind === 'rejected') return rejectedBy(facts, verdict.grant)
  // An approved call never needs another approval nor carries a token; were the verdict ever to
  // say so, the call still does not run (fail closed).
  return approvalRequired(facts, reasonOf(decision))
}

/** The policy's decision on the call, or the error of a failing policy. */
async function askPolicy(call: Call, facts: ToolFacts, deps: ResolvedApprovals): Promise<PolicyDecision | ToolError> {
  return checkPolicy(deps.policy, { tool: facts, scope: call.scope, input: policyInput(call, deps.policy) }, deps.guard.timeoutMs, call.request.signal)
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
  return answer === 'allow_once' || answer === 'allow_always' ? RUN_BY.prompt : fail(approvalRejected(facts, { source: 'prompt', answer }))
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
export async function checkPolicy(policy: ToolPolicy, request: PolicyRequest, timeoutMs: number, signal?: AbortWatch): Promise<PolicyDecision | ToolError> {
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
