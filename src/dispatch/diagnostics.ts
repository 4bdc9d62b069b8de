import type { ApprovalDiagnosis, ApprovalOption } from '../approval/diagnose.js'
import type { GrantDecision } from '../approval/stores.js'
import { describeTool, type ToolDescriptor } from '../tool/descriptor.js'
import type { CallScope, Tool } from '../tool/types.js'

/**
 * Whether a tool can be called in a scope (`docs/policy.md` "Scoped diagnostics"):
 * - `callable`: it runs without anything more: the policy allows it, or a remembered allow
 *   (`grant`) satisfies the approval the policy asks for;
 * - `approval_required`: it runs once approved (`approval_options` says how);
 * - `rejected`: a remembered reject of the workspace (`grant`) blocks every call, whatever the
 *   policy says and even with a token;
 * - `denied`: the policy refuses it (`policy_owner` names the refusing policy, when known);
 * - `policy_failed`: the policy threw, hung or answered nonsense, so calls are refused (fail closed);
 * - `approval_unavailable`: the grant store failed, so calls in the workspace are refused (fail closed);
 * - `unknown_tool`: no tool with that ID is in the catalog.
 */
export type ToolAvailability = 'callable' | 'approval_required' | 'rejected' | 'denied' | 'policy_failed' | 'approval_unavailable' | 'unknown_tool'

/** The remembered decision that decides a call in a scope (agent or tool scope: diagnostics have no input). */
export interface DiagnosticsGrant {
  /** The grant's ID (what `dispatcher.approvals.revokeGrant` names). */
  readonly grant_id: string
  /** How wide it is. */
  readonly scope: 'agent' | 'tool'
  /** `allow` satisfies the approval the policy asks for; `reject` blocks the call. */
  readonly decision: GrantDecision
}

/** The diagnostics of one tool in one scope, as data. Never holds input values. */
export interface ToolDiagnostics {
  /** The scope asked about (its four string fields). */
  readonly scope: Readonly<CallScope>
  /** `true` only when the tool runs without anything more from the caller (`status: 'callable'`). */
  readonly callable: boolean
  /** Whether and how the tool can be called there (see {@link ToolAvailability}). */
  readonly status: ToolAvailability
  /** The policy's reason (`deny_listed`, `not_allowed`, `tool_requires_approval`, ...), when it gave one; the failure's reason for `policy_failed` and `approval_unavailable`. */
  readonly reason?: string
  /** The owner of the policy that decided (`agent:<name>`, `session:<id>`), when known. */
  readonly policy_owner?: string
  /** The remembered allow that makes the tool callable (the policy asks for an approval), or the remembered reject that blocks it. */
  readonly grant?: DiagnosticsGrant
  /** For `approval_required`: what would satisfy the call here, in the order the dispatcher checks them. */
  readonly approval_options?: readonly ApprovalOption[]
}

/** `dispatcher.describe(tool_id, scope)`: the descriptor (absent for an unknown tool) and the scoped diagnostics. */
export interface ScopedToolDescription {
  /** The tool ID asked about. */
  readonly tool_id: string
  /** The tool's descriptor; absent for an unknown tool. */
  readonly descriptor?: ToolDescriptor
  /** Whether the tool is callable in the scope, and why not. */
  readonly diagnostics: ToolDiagnostics
}

/** Diagnoses input-free calls of tools in a scope (the approval engine's `diagnose`). */
export type CallDiagnoser = (tools: readonly Tool[], scope: Readonly<CallScope>) => Promise<ApprovalDiagnosis[]>

/**
 * The scoped descriptions of `tools` (`undefined` for an ID the catalog does not have, reported as
 * `unknown_tool` under `ids[index]`). The policy is asked with an empty input (`{}`): a policy whose
 * decision depends on input fields is answered for the input-free case.
 */
export async function describeInScope(ids: readonly string[], tools: readonly (Tool | undefined)[], scope: Readonly<CallScope>, diagnose: CallDiagnoser): Promise<ScopedToolDescription[]> {
  const known = tools.filter((tool): tool is Tool => tool !== undefined)
  const diagnoses = known.length === 0 ? [] : await diagnose(known, scope)
  let next = 0
  return tools.map((tool, index) => {
    if (tool === undefined) return Object.freeze({ tool_id: ids[index]!, diagnostics: Object.freeze({ scope, callable: false, status: 'unknown_tool' as const }) })
    const diagnostics = diagnosticsOf(scope, diagnoses[next++]!)
    return Object.freeze({ tool_id: tool.id, descriptor: describeTool(tool), diagnostics: Object.freeze(diagnostics) })
  })
}

function diagnosticsOf(scope: Readonly<CallScope>, diagnosis: ApprovalDiagnosis): ToolDiagnostics {
  if (diagnosis.kind === 'policy_failed') return { scope, callable: false, status: 'policy_failed', reason: diagnosis.error.reason }
  if (diagnosis.kind === 'grants_unavailable') return { scope, callable: false, status: 'approval_unavailable', reason: diagnosis.error.reason }
  const { decision, verdict } = diagnosis
  const facts = {
    ...(decision.decision === 'allow' || decision.reason === undefined ? {} : { reason: decision.reason }),
    ...(decision.decision === 'allow' || decision.owner === undefined ? {} : { policy_owner: decision.owner }),
  }
  switch (verdict.kind) {
    case 'denied':
      return { scope, callable: false, status: 'denied', ...facts }
    case 'rejected':
      return { scope, callable: false, status: 'rejected', ...facts, grant: grantOf(verdict.grant) }
    case 'run':
      return { scope, callable: true, status: 'callable', ...facts, ...(verdict.grant === undefined ? {} : { grant: grantOf(verdict.grant) }) }
    default:
      // `ask` (no token is presented to diagnostics, so never `token_invalid`).
      return { scope, callable: false, status: 'approval_required', ...facts, approval_options: diagnosis.options }
  }
}

function grantOf(grant: { grant_id: string; scope: string; decision: GrantDecision }): DiagnosticsGrant {
  return Object.freeze({ grant_id: grant.grant_id, scope: grant.scope as DiagnosticsGrant['scope'], decision: grant.decision })
}
