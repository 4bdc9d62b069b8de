import type { ToolError } from '../errors/tool-error.js'
import { malformedDecisionPath } from '../policy/compose.js'
import { checkDecision } from '../policy/decision.js'
import type { PolicyDecision, PolicyRequest, ToolPolicy } from '../policy/policy.js'
import { withDeadline } from '../async/deadline.js'
import { policyFailed } from './errors.js'

/**
 * Asks the policy, failing closed (spec issue "Stores": fail closed): a throw, a rejection, a
 * hang past `timeoutMs` or a malformed decision becomes `tool_denied` / `policy_failed`, never an
 * allow. A malformed decision reads `details.problem: 'invalid_decision'` whether the policy
 * returned it or a member of an `intersectPolicies` policy did (then `details.policy_path` names
 * the member, e.g. `/policies/1`).
 */
export async function checkPolicy(policy: ToolPolicy, request: PolicyRequest, timeoutMs: number): Promise<PolicyDecision | ToolError> {
  const result = await withDeadline(() => policy.decide(request), timeoutMs)
  if (!result.ok) {
    const memberPath = result.timedOut ? undefined : malformedDecisionPath(result.cause)
    if (memberPath !== undefined) return policyFailed(request.tool, 'invalid_decision', result.cause, memberPath)
    return policyFailed(request.tool, result.timedOut ? 'timeout' : 'threw', result.cause)
  }
  return checkDecision(result.value) ?? policyFailed(request.tool, 'invalid_decision')
}
