import { randomUUID } from 'node:crypto'
import type { Call } from '../call/call.js'
import { isToolError, type ToolError } from '../errors/tool-error.js'
import { inputDigest } from '../digest/input-digest.js'
import { cloneJson } from '../json/clone.js'
import { defaultToolPolicy, toolFacts, type PolicyAllow, type PolicyApprovalRequired, type ToolFacts, type ToolPolicy } from '../policy/policy.js'
import { approvalRejected, approvalRequired, policyDenied } from './errors.js'
import type { ApprovalGrant } from './grant-store.js'
import { findGrant } from './grants.js'
import type { PendingApprovalRecord } from './pending-store.js'
import { checkPolicy } from './policy-check.js'
import { askPrompt, type ApprovalPrompt, type ApprovalPromptAnswer } from './prompt.js'
import { callStore, type StoreGuard } from './store-call.js'
import type { HeldInputs } from './held-inputs.js'
import { toStoredInput } from './stored-input.js'
import type { ApprovalStores } from './stores.js'
import { checkToken } from './tokens.js'

/** What the approval step needs: the resolved `createDispatcher({ policy, approvals })` options. */
export interface AuthorizeDeps {
  readonly policy: ToolPolicy
  readonly stores: ApprovalStores
  readonly prompt: ApprovalPrompt | undefined
  /** Store (and policy) time budget and the logger. */
  readonly guard: StoreGuard
  /** Time budget of the prompt callback; `Infinity` waits forever. */
  readonly promptTimeoutMs: number
  /** How long a pending approval waits for a decision. */
  readonly pendingTtlMs: number
  /** Current time, epoch milliseconds. */
  readonly now: () => number
  /** Real inputs of pending approvals whose stored record is redacted. */
  readonly held: HeldInputs
}

/** What the approval step decided about a call. */
export type AuthorizeResult = { readonly kind: 'run' } | { readonly kind: 'pending'; readonly approval_id: string } | { readonly kind: 'error'; readonly error: ToolError }

const RUN: AuthorizeResult = Object.freeze({ kind: 'run' })
const fail = (error: ToolError): AuthorizeResult => ({ kind: 'error', error })

/**
 * The policy and approval stage of the lifecycle (spec 001; DESIGN.md "The invocation
 * lifecycle"), on the final input (after `tool.pre_call` hooks):
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
 * Any store failure or timeout fails closed with `approval_unavailable`.
 */
export async function authorize(call: Call, deps: AuthorizeDeps): Promise<AuthorizeResult> {
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
  return openPending(call, digest, decision.reason, deps)
}

/**
 * Asks the CURRENT policy again about an approved call that is about to run (spec 001: "the
 * deferred tool call rechecks current tool policy under the recorded owner"): a `deny` ends it
 * with `tool_denied` / `policy_denied`, a failing policy with `tool_denied` / `policy_failed`;
 * `approval_required` is satisfied by the approval itself.
 *
 * @returns `undefined` when the call may run, else the error that ends it.
 */
export async function recheckPolicy(call: Call, deps: AuthorizeDeps): Promise<ToolError | undefined> {
  const decision = await askPolicy(call, toolFacts(call.tool), deps)
  return isToolError(decision) ? decision : undefined
}

/** The policy's decision on the call, with a `deny` (or a failing policy) as the error that ends it. */
async function askPolicy(call: Call, facts: ToolFacts, deps: AuthorizeDeps): Promise<PolicyAllow | PolicyApprovalRequired | ToolError> {
  const decision = await checkPolicy(deps.policy, { tool: facts, scope: call.scope, input: policyInput(call, deps.policy) }, deps.guard.timeoutMs)
  if (isToolError(decision)) return decision
  return decision.decision === 'deny' ? policyDenied(facts, decision.reason, decision.owner) : decision
}

/**
 * The input digest of a call (DESIGN.md glossary): canonical JSON of the input as sent, without
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

async function promptFor(call: Call, facts: ToolFacts, digest: string, reason: string | undefined, deps: AuthorizeDeps): Promise<AuthorizeResult> {
  const request = {
    tool: facts,
    tool_call_id: call.tool_call_id,
    scope: call.scope,
    input: toStoredInput(call),
    input_digest: digest,
    ...(reason === undefined ? {} : { reason }),
  }
  const answer = await askPrompt(deps.prompt!, request, deps.promptTimeoutMs)
  if (isToolError(answer)) return fail(answer)
  if (answer === 'allow_always' || answer === 'reject_always') {
    const stored = await rememberAnswer(call, digest, answer, deps)
    if (stored !== undefined) return fail(stored)
  }
  return answer === 'allow_once' || answer === 'allow_always' ? RUN : fail(approvalRejected(facts, { source: 'prompt', answer }))
}

/**
 * Stores the exact grant of an `_always` answer: workspace + agent + tool + input digest (spec 001
 * "Remembered native-tool decisions"). A call without `workspace_id` has nowhere to remember it:
 * the answer then counts once.
 */
async function rememberAnswer(call: Call, digest: string, answer: ApprovalPromptAnswer, deps: AuthorizeDeps): Promise<ToolError | undefined> {
  const workspace = call.scope.workspace_id
  if (workspace === undefined) return undefined
  const agent = call.scope.agent_name
  const grant: ApprovalGrant = {
    grant_id: randomUUID(),
    workspace_id: workspace,
    tool_id: call.tool.id,
    scope: 'exact',
    ...(agent === undefined ? {} : { agent_name: agent }),
    input_digest: digest,
    decision: answer === 'allow_always' ? 'allow' : 'reject',
    origin: 'prompt',
    created_at: new Date(deps.now()).toISOString(),
  }
  const put = await callStore(deps.guard, 'grants', 'put', () => deps.stores.grants.put(grant))
  return put.ok ? undefined : put.error
}

async function openPending(call: Call, digest: string, reason: string | undefined, deps: AuthorizeDeps): Promise<AuthorizeResult> {
  const now = deps.now()
  const { sensitive_input_fields: sensitive, pinned_result_view: pinned } = call.request
  const record: PendingApprovalRecord = {
    approval_id: randomUUID(),
    state: 'pending',
    tool_id: call.tool.id,
    tool_call_id: call.tool_call_id,
    scope: { ...call.scope },
    input: toStoredInput(call),
    input_digest: digest,
    ...(sensitive === undefined || sensitive.length === 0 ? {} : { sensitive_input_fields: [...sensitive] }),
    ...(pinned === undefined ? {} : { pinned_result_view: pinned }),
    ...(reason === undefined ? {} : { reason }),
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + deps.pendingTtlMs).toISOString(),
  }
  const inserted = await callStore(deps.guard, 'pending', 'insert', () => deps.stores.pending.insert(record))
  if (!inserted.ok) return fail(inserted.error)
  if (record.input !== call.input) deps.held.hold(record.approval_id, call.input, now + deps.pendingTtlMs, now)
  return { kind: 'pending', approval_id: record.approval_id }
}
