import { checkDecision } from './decision.js'
import { PolicyDefinitionError } from './policy-definition-error.js'
import type { PolicyApprovalRequired, PolicyDecision, PolicyRequest, ToolPolicy } from './policy.js'

/**
 * The intersection of several policies (spec 001: workspace policy ∩ agent policy ∩ session
 * allowed-tools override ∩ a spawned session's permission policy): a call is allowed only if every
 * policy allows it. Policies are asked in order; the first `deny` is returned at once (later
 * policies are not asked); otherwise the first `approval_required`; otherwise `allow`.
 *
 * A member that returns a malformed decision makes `decide` throw a `PolicyDefinitionError`
 * (problem `invalid_decision`), which the dispatcher turns into `tool_denied` / `policy_failed`.
 *
 * @throws PolicyDefinitionError when `policies` is empty (an empty intersection would allow
 *   everything by accident) or holds something without a `decide` function.
 */
export function intersectPolicies(policies: readonly ToolPolicy[]): ToolPolicy {
  if (!Array.isArray(policies) || policies.length === 0) {
    throw new PolicyDefinitionError([{ path: '/policies', code: 'invalid_policy', message: 'an intersection needs at least one policy' }])
  }
  const members = [...policies]
  const problems = members.flatMap((policy, index) =>
    typeof policy?.decide === 'function' ? [] : [{ path: `/policies/${index}`, code: 'invalid_policy', message: 'a policy must have a decide function' }],
  )
  if (problems.length > 0) throw new PolicyDefinitionError(problems)

  return Object.freeze({
    async decide(request: PolicyRequest): Promise<PolicyDecision> {
      let approval: PolicyApprovalRequired | undefined
      for (const [index, policy] of members.entries()) {
        const decision = checkDecision(await policy.decide(request))
        if (decision === undefined) {
          throw new PolicyDefinitionError([{ path: `/policies/${index}`, code: 'invalid_decision', message: 'the policy returned something that is not a decision' }])
        }
        if (decision.decision === 'deny') return decision
        if (decision.decision === 'approval_required') approval ??= decision
      }
      return approval ?? { decision: 'allow' }
    },
  })
}
