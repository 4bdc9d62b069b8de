import type { ApprovalRequirement, CallScope, Tool } from '../tool/types.js'
import type { ToolOrigin } from '../views/view.js'

/**
 * The facts of a tool a {@link ToolPolicy} decides on (`docs/policy.md` "The interface"). Never the
 * handler, never the schemas: a policy decides on who the tool is, not on what it does.
 */
export interface ToolFacts {
  /** Tool ID, e.g. `compozy__session_status`. */
  readonly id: string
/** Where the tool comes from (`native`, `extension`, `mcp`). */
  readonly origin: ToolOrigin
  /** Risk class, a free string such as `'read' | 'write' | 'destructive'`; `undefined` when the tool names none. */
  readonly risk: string | undefined
  /** Toolsets the tool belongs to. */
  readonly toolsets: readonly string[]
  /** The tool's own approval requirement (`'required'` means a call needs an approval). */
  readonly approval: ApprovalRequirement
  /** Whether the tool only reads. */
  readonly read_only: boolean
}

/**
 * What a policy is asked (`docs/policy.md` "The interface"): the tool's facts, the call's scope and
 * the final input (after `tool.pre_call` hooks), WITHOUT a native tool's `result_view`
 * (`docs/views.md` "The selector": `result_view` never changes policy, risk, approval requirement
 * or permission match). The input is a private copy: a policy may read it freely; changing it
 * changes nothing.
 */
export interface PolicyRequest {
/** The facts of the tool to run. */
  readonly tool: ToolFacts
/** The call's scope. */
  readonly scope: Readonly<CallScope>
/** A private copy of the final input, without a native tool's `result_view` (`{}` for scoped diagnostics). */
  readonly input: unknown
}

/** The call may run without an approval. */
export interface PolicyAllow {
/** Run it. */
  readonly decision: 'allow'
}

/** The call is refused. `reason` is a short machine-readable word (`deny_listed`, `not_allowed`). */
export interface PolicyDeny {
/** Refuse it: `tool_denied` / `policy_denied`. */
  readonly decision: 'deny'
/** Why, as a short word (`details.policy_reason` of the error). */
  readonly reason: string
  /** Who owns the refusing policy (`agent:<name or source>`, `session:<id>`), when known. */
  readonly owner?: string
}

/** The call may run once it is approved (token, remembered grant, prompt or pending approval). */
export interface PolicyApprovalRequired {
/** Run it once approved. */
  readonly decision: 'approval_required'
/** Why an approval is needed (`tool_requires_approval`, `not_read_only`, ...); shown to the prompt and kept on a pending approval. */
  readonly reason?: string
/** Who owns the policy that asks (`agent:<name or source>`, `session:<id>`), when known. */
  readonly owner?: string
}

/** What {@link ToolPolicy.decide} returns. */
export type PolicyDecision = PolicyAllow | PolicyDeny | PolicyApprovalRequired

/**
 * A tool policy a host plugs into `createDispatcher({ policy })` (`docs/policy.md`). `decide` may
 * be sync or async. A policy that throws, rejects, hangs past the approvals `timeoutMs` or returns
 * anything but a decision fails closed: the call is refused with `tool_denied` / `policy_failed`.
 */
export interface ToolPolicy {
/** Decides one call: `allow`, `deny` with a reason, or `approval_required` (sync or async). Never changes the call: the input is a copy. */
  decide(request: PolicyRequest): PolicyDecision | Promise<PolicyDecision>
}

const factsOf = new WeakMap<Tool, ToolFacts>()

/** The facts of a defined tool, as a policy sees them (computed once per tool; frozen). */
export function toolFacts(tool: Tool): ToolFacts {
  let facts = factsOf.get(tool)
  if (facts === undefined) {
    facts = buildFacts(tool)
    factsOf.set(tool, facts)
  }
  return facts
}

function buildFacts(tool: Tool): ToolFacts {
  return Object.freeze({
    id: tool.id,
    origin: tool.origin,
    risk: tool.risk,
    toolsets: Object.freeze([...tool.toolsets]),
    approval: tool.approval,
    read_only: tool.readOnly,
  })
}

/**
 * The dispatcher's policy when the host gives none: every tool is allowed, and a tool that
 * declares `approval: 'required'` still needs an approval (a tool's own requirement is never
 * waived by default).
 */
export const defaultToolPolicy: ToolPolicy = Object.freeze({
  decide(request: PolicyRequest): PolicyDecision {
    return request.tool.approval === 'required' ? { decision: 'approval_required', reason: 'tool_requires_approval' } : { decision: 'allow' }
  },
})

/** The frozen policies this library built whose `decide` is synchronous, cannot throw and never reads the input. */
const decidedAtOnce = new WeakSet<ToolPolicy>([defaultToolPolicy])

/** Marks a frozen library-built policy whose `decide` is synchronous, total and input-free (the pattern policy). */
export function markDecidesAtOnce<P extends ToolPolicy>(policy: P): P {
  decidedAtOnce.add(policy)
  return policy
}

/**
 * The decision of a library-built policy that decides at once (the default policy, a pattern
 * policy), asked directly; `undefined` for any other policy, which the approval step asks under
 * its time budget and guard.
 */
export function decisionAtOnce(policy: ToolPolicy, request: PolicyRequest): PolicyDecision | undefined {
  return decidedAtOnce.has(policy) ? (policy.decide(request) as PolicyDecision) : undefined
}
