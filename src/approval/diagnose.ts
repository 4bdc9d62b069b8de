import { isToolError, type ToolError } from '../errors/tool-error.js'
import { toolFacts, type PolicyDecision } from '../policy/policy.js'
import type { CallScope, Tool } from '../tool/types.js'
import { checkPolicy } from './authorize.js'
import { matchListedGrants } from './grants.js'
import type { ResolvedApprovals } from './options.js'
import { approvalVerdict, type ApprovalVerdict, type MatchingGrants } from './precedence.js'
import { grantListAnswer } from './store-answers.js'
import { callStore } from './store-call.js'

/**
 * A way a call that needs an approval can get one in a scope (`docs/policy.md` "Scoped
 * diagnostics"), in the order the dispatcher checks them:
 * - `token`: an approval token minted for the call (`dispatcher.approvals.mintApprovalToken`);
 * - `grant`: a remembered allow of the workspace (`dispatcher.approvals.setGrant`, agent or tool
 *   scope); only in a scope with `workspace_id`;
 * - `prompt`: the host's prompt callback asks (when `approvals.prompt` is configured);
 * - `pending_approval`: the call opens a pending approval its `profile_id` resolves (no prompt
 *   configured, and the scope has a `profile_id`).
 */
export type ApprovalOption = 'token' | 'grant' | 'prompt' | 'pending_approval'

/** What the approval step would do with an input-free call of one tool in a scope. */
export type ApprovalDiagnosis =
  /** The policy threw, hung or answered nonsense: calls are refused. */
  | { readonly kind: 'policy_failed'; readonly error: ToolError }
  /** The grant store failed: calls are refused (fail closed). */
  | { readonly kind: 'grants_unavailable'; readonly decision: PolicyDecision; readonly error: ToolError }
  /** What the precedence decides; `options` are the ways to satisfy an `ask`. */
  | { readonly kind: 'verdict'; readonly decision: PolicyDecision; readonly verdict: Exclude<ApprovalVerdict, { kind: 'need' }>; readonly options: readonly ApprovalOption[] }

/**
 * Diagnoses input-free calls of `tools` in `scope` with the same precedence the call path uses
 * (`approvalVerdict`): the policy is asked with an empty input (`{}`); no token is presented; the
 * workspace's grants are read once (`list`) for every tool that needs them, and matched at agent
 * and tool scope (exact grants bind one input, so an input-free call matches none).
 */
export async function diagnoseCalls(tools: readonly Tool[], scope: Readonly<CallScope>, deps: ResolvedApprovals): Promise<ApprovalDiagnosis[]> {
  const decisions = await Promise.all(tools.map((tool) => checkPolicy(deps.policy, { tool: toolFacts(tool), scope, input: {} }, deps.guard.timeoutMs)))
  const needsGrants = scope.workspace_id !== undefined && decisions.some((decision) => !isToolError(decision) && decision.decision !== 'deny')
  let matched: MatchingGrants[] = []
  let listError: ToolError | undefined
  if (needsGrants) {
    const workspace = scope.workspace_id!
    const answer = await callStore(deps.guard, 'grants', 'list', () => deps.stores.grants.list(workspace), grantListAnswer)
    if (answer.ok) matched = matchListedGrants(answer.value, tools.map((tool) => tool.id), scope)
    else listError = answer.error
  }
  const options = approvalOptions(scope, deps)
  return tools.map((tool, index): ApprovalDiagnosis => {
    const decision = decisions[index]!
    if (isToolError(decision)) return { kind: 'policy_failed', error: decision }
    const early = approvalVerdict({ policy: decision.decision, presented: 'nothing' })
    if (early.kind !== 'need') return { kind: 'verdict', decision, verdict: early, options }
    if (listError !== undefined) return { kind: 'grants_unavailable', decision, error: listError }
    const verdict = approvalVerdict({ policy: decision.decision, presented: 'nothing', grants: matched[index] ?? NO_GRANTS })
    return { kind: 'verdict', decision, verdict: verdict as Exclude<ApprovalVerdict, { kind: 'need' }>, options }
  })
}

/** No remembered decision matches: a scope without `workspace_id` has none. */
const NO_GRANTS: MatchingGrants = Object.freeze({})

/** The ways a call in `scope` can be approved, given the dispatcher's configuration (see {@link ApprovalOption}). */
function approvalOptions(scope: Readonly<CallScope>, deps: ResolvedApprovals): readonly ApprovalOption[] {
  const options: ApprovalOption[] = ['token']
  if (scope.workspace_id !== undefined) options.push('grant')
  if (deps.prompt !== undefined) options.push('prompt')
  else if (scope.profile_id !== undefined) options.push('pending_approval')
  return Object.freeze(options)
}
