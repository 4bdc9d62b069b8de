import { firstHole } from '../json/guards.js'
import { checkDecision } from './decision.js'
import { isPolicyDefinitionError, PolicyDefinitionError } from './policy-definition-error.js'
import type { PolicyApprovalRequired, PolicyDecision, PolicyRequest, ToolPolicy } from './policy.js'
import { announceRetiredIds, filtersOf, registerPolicy } from './retired-registry.js'

/**
 * The intersection of several policies (`docs/policy.md` "Several policies: `intersectPolicies`":
 * workspace policy ∩ agent policy ∩ session allowed-tools override ∩ a spawned session's permission
 * policy): a call is allowed only if every policy allows it. Policies are asked in order; the first
 * `deny` is returned at once (later policies are not asked); otherwise the first
 * `approval_required`; otherwise `allow`.
 *
 * A member that returns a malformed decision makes `decide` throw a `PolicyDefinitionError` with
 * one problem `{ code: 'invalid_decision', path: '/policies/<index>' }` (nested intersections
 * extend the path: `/policies/1/policies/0`). The dispatcher reports it exactly as it reports a
 * malformed decision of a policy used directly: `tool_denied` / `policy_failed` with
 * `details: { problem: 'invalid_decision', policy_path: '/policies/<index>' }`. A member that
 * throws or rejects makes `decide` reject with that error (`details.problem: 'threw'`).
 *
 * @throws PolicyDefinitionError when `policies` is empty (an empty intersection would allow
 *   everything by accident) or holds something without a `decide` function.
 */
export function intersectPolicies(policies: readonly ToolPolicy[]): ToolPolicy {
  if (!Array.isArray(policies) || policies.length === 0) {
    throw new PolicyDefinitionError([{ path: '/policies', code: 'invalid_policy', message: 'an intersection needs at least one policy' }])
  }
  const hole = firstHole(policies)
  if (hole !== -1) throw new PolicyDefinitionError([{ path: `/policies/${hole}`, code: 'invalid_policy', message: 'a hole in the policies array, not a policy' }])
  const members = [...policies]
  const problems = members.flatMap((policy, index) =>
    typeof policy?.decide === 'function' ? [] : [{ path: `/policies/${index}`, code: 'invalid_policy', message: 'a policy must have a decide function' }],
  )
  if (problems.length > 0) throw new PolicyDefinitionError(problems)

  const intersection: ToolPolicy = Object.freeze({
    async decide(request: PolicyRequest): Promise<PolicyDecision> {
      let approval: PolicyApprovalRequired | undefined
      for (const [index, policy] of members.entries()) {
        const decision = checkDecision(await askMember(policy, request, index))
        if (decision === undefined) throw malformedDecision(`/policies/${index}`)
        if (decision.decision === 'deny') return decision
        if (decision.decision === 'approval_required') approval ??= decision
      }
      return approval ?? { decision: 'allow' }
    },
  })
  registerPolicy(intersection, {
    announce: (logger) => members.forEach((member) => announceRetiredIds(member, logger)),
    filters: [...new Set(members.flatMap((member) => filtersOf(member)))],
  })
  return intersection
}

/** The problem code of a member's malformed decision. */
export const INVALID_DECISION = 'invalid_decision'

function malformedDecision(path: string): PolicyDefinitionError {
  return new PolicyDefinitionError([{ path, code: INVALID_DECISION, message: 'the policy returned something that is not a decision' }])
}

/** Asks one member; a nested intersection's malformed-decision error gets this member's path in front. */
async function askMember(policy: ToolPolicy, request: PolicyRequest, index: number): Promise<unknown> {
  try {
    return await policy.decide(request)
  } catch (error) {
    const path = malformedDecisionPath(error)
    if (path !== undefined) throw malformedDecision(`/policies/${index}${path}`)
    throw error
  }
}

/**
 * The JSON Pointer of the member whose decision was malformed, when `error` is the error an
 * intersection throws for one (a `PolicyDefinitionError` with a single `invalid_decision`
 * problem); `undefined` for anything else.
 */
export function malformedDecisionPath(error: unknown): string | undefined {
  if (!isPolicyDefinitionError(error) || error.problems.length !== 1) return undefined
  const [problem] = error.problems
  return problem!.code === INVALID_DECISION ? problem!.path : undefined
}
