import { randomUUID } from 'node:crypto'
import { inputRequired, type InputRequiredResult } from '@modelcontextprotocol/server'
import { inputDigest, isToolError, type InvokeOutcome } from 'result-views'
import { approvalRejected, approvalStateInvalid } from '../approval/errors.js'
import { scopeDigest, signApprovalState, verifyApprovalState } from '../approval/request-state.js'
import type { SealKeys } from '../approval/seal.js'
import { MCP_OUTCOME_META_KEY, toCallToolResult, type McpCallToolResult, type McpOutcomeMeta } from '../mcp/project.js'
import type { McpCall, McpDispatched, McpServing } from '../mcp/serve.js'

// Approvals through the protocol (`docs/mcp.md` "Approvals as `input_required`"): a call that
// opened a pending approval answers `input_required` with one form elicitation (approve or deny)
// and a signed request state; the client's retry carries the answer and the state back, and the
// answer resolves the pending approval through `dispatcher.approvals.resolve`, under its rules
// (single use, owner, policy asked again). Nothing is kept in this process between the two.

/** The key of the one input request an approval question carries (`inputRequests.approval`). */
export const APPROVAL_INPUT_KEY = 'approval'

/** The elicitation's one field: `decision`, `"approve"` or `"deny"`. */
const DECISION_SCHEMA = {
  type: 'object',
  properties: {
    decision: { type: 'string', title: 'Decision', enum: ['approve', 'deny'], description: 'Approve runs the tool once with the input it was called with; deny does not run it.' },
  },
  required: ['decision'],
} as const

/** Resolved approval-state options of one server factory. */
export interface ApprovalElicitation {
  readonly keys: SealKeys
  readonly ttlMs: number
}

/** The input digest a state binds: of the arguments exactly as called (every key kept), `undefined` for arguments that are not plain JSON. */
function argumentsDigest(args: unknown): string | undefined {
  try {
    return inputDigest(args ?? {}, { origin: 'mcp' })
  } catch {
    return undefined
  }
}

/**
 * The `input_required` answer of a call that opened a pending approval, or `undefined` to keep
 * today's pending-approval text: when the client cannot elicit, or the call has no
 * `scope.profile_id` (only the owner profile resolves a pending approval).
 */
export function askApproval(elicitation: ApprovalElicitation, dispatched: McpDispatched, call: McpCall, canElicit: boolean): InputRequiredResult | undefined {
  const { outcome, scope } = dispatched
  if (outcome.status !== 'approval_pending' || !canElicit) return undefined
  const profileId = scope?.profile_id
  const digest = argumentsDigest(call.args)
  if (typeof profileId !== 'string' || profileId.length === 0 || digest === undefined) return undefined
  const requestState = signApprovalState(elicitation.keys, {
    approval_id: outcome.approval_id,
    tool_id: call.toolId,
    input_digest: digest,
    scope_digest: scopeDigest(scope),
    expires_at_ms: Date.now() + elicitation.ttlMs,
  })
  return question(call.toolId, outcome.approval_id, outcome.tool_call_id, requestState)
}

function question(toolId: string, approvalId: string, toolCallId: string, requestState: string): InputRequiredResult {
  const meta: McpOutcomeMeta = { status: 'approval_pending', tool_call_id: toolCallId, approval_id: approvalId }
  return {
    ...inputRequired({
      inputRequests: {
        [APPROVAL_INPUT_KEY]: inputRequired.elicit({
          message: `Tool "${toolId}" needs your approval to run (approval ${approvalId}). Approve to run it once with the input it was called with, or deny.`,
          requestedSchema: DECISION_SCHEMA as never,
        }),
      },
      requestState,
    }),
    _meta: { [MCP_OUTCOME_META_KEY]: meta },
  }
}

/** The decision a retry's `inputResponses` carry: `undefined` when there is no readable answer (the question is asked again). */
function decisionOf(responses: Readonly<Record<string, unknown>> | undefined): 'approved' | 'denied' | 'dismissed' | undefined {
  try {
    const answer = responses?.[APPROVAL_INPUT_KEY]
    if (typeof answer !== 'object' || answer === null) return undefined
    const { action, content } = answer as { action?: unknown; content?: unknown }
    if (action === 'decline') return 'denied'
    if (action === 'cancel') return 'dismissed'
    if (action !== 'accept' || typeof content !== 'object' || content === null) return undefined
    const decision = (content as { decision?: unknown }).decision
    return decision === 'approve' ? 'approved' : decision === 'deny' ? 'denied' : undefined
  } catch {
    return undefined
  }
}

/**
 * Answers a retry that carries a request state: verifies it (any instance holding the key and the
 * stores can), reads the answer and resolves the pending approval. A state that does not verify,
 * or whose approval is already decided, is an `approval_invalid` result and nothing runs.
 *
 * - approve → the approved call's outcome (`dispatcher.approvals.resolve` runs it once, after
 *   asking the policy again), mapped as any outcome;
 * - deny, or the elicitation declined → `tool_denied` / `approval_rejected`;
 * - the elicitation canceled (dismissed) → the approval stays pending: today's pending text;
 * - no readable answer → the same question again, with the same state.
 */
export async function answerApproval(
  elicitation: ApprovalElicitation | undefined,
  serving: McpServing,
  call: McpCall,
  state: unknown,
  responses: Readonly<Record<string, unknown>> | undefined,
): Promise<McpCallToolResult | InputRequiredResult> {
  const resolved = serving.scopeOf(call)
  if (!resolved.ok) return resolved.result
  const scope = resolved.scope
  const toolCallId = serving.toolCallIdOf(call) ?? randomUUID()
  const refuse = (error: ReturnType<typeof approvalStateInvalid>): McpCallToolResult => toCallToolResult({ status: 'error', tool_call_id: toolCallId, error }, call.toolId)
  if (elicitation === undefined) return refuse(approvalStateInvalid(call.toolId, 'state_invalid'))
  const verified = verifyApprovalState(elicitation.keys, state, {
    tool_id: call.toolId,
    input_digest: argumentsDigest(call.args) ?? '',
    scope_digest: scopeDigest(scope),
    now: Date.now(),
  })
  if (!verified.ok) return refuse(verified.error)
  const { approval_id: approvalId } = verified.claims
  const decision = decisionOf(responses)
  if (decision === undefined) return question(call.toolId, approvalId, toolCallId, state as string)
  if (decision === 'dismissed') return serving.toResult({ status: 'approval_pending', tool_call_id: toolCallId, approval_id: approvalId }, call.toolId, scope)
  // The state binds the scope digest, and the owner check compares the profile: a state is only
  // ever answered by the profile that was asked.
  const profileId = scope?.profile_id
  if (typeof profileId !== 'string' || profileId.length === 0) return refuse(approvalStateInvalid(call.toolId, 'state_invalid'))
  let outcome: InvokeOutcome
  try {
    const view = await serving.dispatcher.approvals.resolve(approvalId, { decision, profile_id: profileId })
    if (view.status === 'denied') {
      return toCallToolResult({ status: 'error', tool_call_id: view.tool_call_id, error: approvalRejected({ id: call.toolId }, { source: 'elicitation', approval_id: approvalId }) }, call.toolId)
    }
    outcome = view.outcome ?? { status: 'approval_pending', tool_call_id: view.tool_call_id, approval_id: approvalId }
  } catch (error) {
    if (!isToolError(error)) throw error
    // Decided already (a replay, or the other of two concurrent retries): nothing runs again.
    if (error.code === 'approval_state' && error.reason === 'approval_resolved') return refuse(approvalStateInvalid(call.toolId, 'state_replayed', { approval_id: approvalId }))
    return toCallToolResult({ status: 'error', tool_call_id: toolCallId, error }, call.toolId)
  }
  return serving.toResult(outcome, call.toolId, scope)
}
