import type { PolicyDecision } from '../policy/policy.js'
import type { ApprovalGrant, GrantScope } from './stores.js'

// The precedence of the approval step (`docs/approvals.md` "Precedence"), as one pure function:
// the real call path (`authorize`, and `recheckPolicy` for an approved pending approval) and the
// scoped diagnostics both ask it, so they cannot disagree.

/**
 * What a call presents besides the policy's decision: nothing, a supplied approval token the token
 * store found valid or refused, or the owner's approval of its pending approval (a deferred call
 * about to run).
 */
export type Presented = 'nothing' | 'valid_token' | 'invalid_token' | 'approved_pending'

/** The remembered decisions that match a call, at most one per scope. */
export type MatchingGrants = Readonly<Partial<Record<GrantScope, ApprovalGrant>>>

/** What is known about a call; a fact still `undefined` has not been looked up yet. */
export interface ApprovalFacts {
  /** The policy's decision (a failing policy never gets here: it ends the call first). */
  readonly policy: PolicyDecision['decision']
  readonly presented?: Presented
  readonly grants?: MatchingGrants
}

/** What the approval step does with a call. */
export type ApprovalVerdict =
  /** Look this fact up, then ask again. */
  | { readonly kind: 'need'; readonly fact: 'presented' | 'grants' }
  /** The policy denies it: `tool_denied` / `policy_denied`. */
  | { readonly kind: 'denied' }
  /** The supplied token was refused: `approval_invalid` with the token's reason. */
  | { readonly kind: 'token_invalid' }
  /** A remembered reject blocks it (the most specific one is named): `tool_denied` / `approval_rejected`. */
  | { readonly kind: 'rejected'; readonly grant: ApprovalGrant }
  /** It runs: the policy allows it, or a token, a pending approval's approval or an allow grant satisfies the policy's approval requirement. */
  | { readonly kind: 'run'; readonly by: 'policy' | 'token' | 'approval' | 'grant'; readonly grant?: ApprovalGrant }
  /** It needs an approval nobody gave yet: the prompt, a pending approval, or `approval_required`. */
  | { readonly kind: 'ask' }

/** Most specific first: the reject or allow a verdict names. */
const SCOPES: readonly GrantScope[] = ['exact', 'agent', 'tool']

/**
 * The approval step's precedence (`docs/approvals.md` "Precedence"): a supplied single-use
 * approval token first; without one, the remembered decision:
 *
 * 1. A policy `deny` ends the call; nothing else is looked up.
 * 2. A supplied token is checked next: refused → `token_invalid` (final, never a fall-through);
 *    valid → the call runs, and no remembered decision is read for it. The refusal a remembered
 *    reject stands for is made where a token is given: `mintApprovalToken` refuses to mint one
 *    for a call a reject matches (`approval_forbidden` / `remembered_reject`).
 * 3. Without a token, a remembered reject at any scope (exact, agent or tool) blocks the call,
 *    whatever the policy said, whatever allow grant also matches, and also for an approved pending
 *    approval about to run (its resolution refused a matching reject too; one set since stops it).
 * 4. An approved pending approval runs the call.
 * 5. A policy `allow` runs it (it needs no grant).
 * 6. A policy `approval_required`: an allow grant (the most specific) runs it; otherwise `ask`.
 *
 * Returns `need` while a fact the answer depends on is unknown, so callers look up only what
 * decides: no token and no grant store call for a call the policy denies, no grant lookup for a
 * supplied token.
 */
export function approvalVerdict(facts: ApprovalFacts): ApprovalVerdict {
  if (facts.policy === 'deny') return { kind: 'denied' }
  if (facts.presented === undefined) return { kind: 'need', fact: 'presented' }
  if (facts.presented === 'invalid_token') return { kind: 'token_invalid' }
  if (facts.presented === 'valid_token') return { kind: 'run', by: 'token' }
  if (facts.grants === undefined) return { kind: 'need', fact: 'grants' }
  const reject = mostSpecificMatch(facts.grants, 'reject')
  if (reject !== undefined) return { kind: 'rejected', grant: reject }
  if (facts.presented === 'approved_pending') return { kind: 'run', by: 'approval' }
  if (facts.policy === 'allow') return { kind: 'run', by: 'policy' }
  const allow = mostSpecificMatch(facts.grants, 'allow')
  return allow === undefined ? { kind: 'ask' } : { kind: 'run', by: 'grant', grant: allow }
}

/** The most specific grant of `decision` among the grants matching a call (exact, then agent, then tool). */
export function mostSpecificMatch(grants: MatchingGrants, decision: ApprovalGrant['decision']): ApprovalGrant | undefined {
  for (const scope of SCOPES) {
    const grant = grants[scope]
    if (grant !== undefined && grant.decision === decision) return grant
  }
  return undefined
}
