import { isToolError, type ToolError } from '../errors/tool-error.js'
import type { PolicyDecision } from '../policy/policy.js'
import { describeTool, type ToolDescriptor } from '../tool/descriptor.js'
import type { CallScope, Tool } from '../tool/types.js'

/**
 * Whether a tool can be called in a scope (`docs/policy.md` "Scoped diagnostics"):
 * - `callable`: the policy allows it; it runs without an approval;
 * - `approval_required`: it runs once approved (token, remembered grant, prompt or pending approval);
 * - `denied`: the policy refuses it (`policy_owner` names the refusing policy, when known);
 * - `policy_failed`: the policy threw, hung or answered nonsense, so calls are refused (fail closed);
 * - `unknown_tool`: no tool with that ID is in the catalog.
 */
export type ToolAvailability = 'callable' | 'approval_required' | 'denied' | 'policy_failed' | 'unknown_tool'

/** The diagnostics of one tool in one scope, as data. Never holds input values. */
export interface ToolDiagnostics {
  /** The scope asked about (its four string fields). */
  readonly scope: Readonly<CallScope>
  /** `true` only when the tool runs without an approval (`status: 'callable'`). */
  readonly callable: boolean
/** Whether and how the tool can be called there (see {@link ToolAvailability}). */
  readonly status: ToolAvailability
  /** The policy's reason (`deny_listed`, `not_allowed`, `tool_requires_approval`, ...), when it gave one. */
  readonly reason?: string
  /** The owner of the policy that decided (`agent:<name>`, `session:<id>`), when known. */
  readonly policy_owner?: string
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

/** Asks the policy about a tool in a scope; a `ToolError` means the policy failed (fail closed). */
export type PolicyProbe = (tool: Tool, scope: Readonly<CallScope>) => Promise<PolicyDecision | ToolError>

/**
 * The scoped description of a tool. The policy is asked with an empty input (`{}`): a policy whose
 * decision depends on input fields is answered for the input-free case.
 */
export async function describeInScope(toolId: string, tool: Tool | undefined, scope: Readonly<CallScope>, probe: PolicyProbe): Promise<ScopedToolDescription> {
  if (tool === undefined) {
    return Object.freeze({ tool_id: toolId, diagnostics: Object.freeze({ scope, callable: false, status: 'unknown_tool' as const }) })
  }
  const decision = await probe(tool, scope)
  return Object.freeze({ tool_id: tool.id, descriptor: describeTool(tool), diagnostics: Object.freeze(diagnosticsOf(scope, decision)) })
}

function diagnosticsOf(scope: Readonly<CallScope>, decision: PolicyDecision | ToolError): ToolDiagnostics {
  if (isToolError(decision)) return { scope, callable: false, status: 'policy_failed', reason: decision.reason }
  const owner = decision.decision === 'allow' ? undefined : decision.owner
  const reason = decision.decision === 'allow' ? undefined : decision.reason
  const status: ToolAvailability = decision.decision === 'allow' ? 'callable' : decision.decision === 'deny' ? 'denied' : 'approval_required'
  return {
    scope,
    callable: status === 'callable',
    status,
    ...(reason === undefined ? {} : { reason }),
    ...(owner === undefined ? {} : { policy_owner: owner }),
  }
}
