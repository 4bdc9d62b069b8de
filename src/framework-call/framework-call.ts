import { randomUUID } from 'node:crypto'
import { isToolError, outcomeForModel, ToolError, type CallScope, type Dispatcher, type InvokeError, type InvokeRequest, type ModelOutcome } from 'result-views'
import type { FrameworkCallInfo, ResolvedFrameworkOptions } from './framework-options.js'

/**
 * One framework tool call through a dispatcher, shared by the AI SDK and OpenAI Agents adapters:
 * the scope, the token of a framework-approved call, `dispatcher.invoke`, the pending-approval
 * notice, and the model-facing outcome of `outcomeForModel`.
 */

/** One tool call as a framework hands it over. */
export interface FrameworkCall extends FrameworkCallInfo {
  /** The arguments the model sent, as the framework parsed them. */
  readonly input: unknown
  /** `true` when the framework's approval step approved this very call (`approvals: 'framework'`). */
  readonly approved: boolean
  /** The framework's cancellation of the run (AI SDK `abortSignal`, OpenAI Agents `details.signal`): it cancels the call. */
  readonly signal?: AbortSignal | undefined
}

/**
 * Runs one call and returns what the model reads. Never rejects for anything the dispatcher or
 * the host's scope resolver answers: every outcome (a token the approval stores could not mint, a
 * resolver that throws: `tool_invalid_input` / `request_invalid`) maps to a {@link ModelOutcome}.
 * The framework's signal cancels the call (`tool_execution_failed` / `call_aborted`). It rejects
 * only for misuse: a dispatcher that throws.
 */
export async function runFrameworkCall(dispatcher: Dispatcher, options: ResolvedFrameworkOptions, call: FrameworkCall): Promise<ModelOutcome> {
  let scope: CallScope | undefined
  try {
    scope = scopeOf(options, call)
  } catch {
    return outcomeForModel(scopeResolverFailed(call.tool_call_id), call.tool_id)
  }
  const request: InvokeRequest = { tool_id: call.tool_id, input: call.input }
  if (scope !== undefined) request.scope = scope
  if (call.tool_call_id !== undefined) request.tool_call_id = call.tool_call_id
  if (call.signal !== undefined) request.signal = call.signal
  if (call.approved) {
    try {
      const minted = await dispatcher.approvals.mintApprovalToken({ tool_id: call.tool_id, scope: scope ?? {}, input: call.input, ttlMs: options.approvalTokenTtlMs })
      request.approval_token = minted.token
    } catch (error) {
      if (!isToolError(error)) throw error
      return outcomeForModel({ status: 'error', tool_call_id: call.tool_call_id ?? randomUUID(), error }, call.tool_id)
    }
  }
  const outcome = await dispatcher.invoke(request)
  if (outcome.status === 'approval_pending') notifyPending(options, { approval_id: outcome.approval_id, tool_id: call.tool_id, tool_call_id: outcome.tool_call_id })
  return outcomeForModel(outcome, call.tool_id)
}

/**
 * Whether the framework should stop for its own approval before it runs the call
 * (`approvals: 'framework'`): `true` when the dispatcher's scoped diagnostics say the tool needs
 * approval in the call's scope (`approval_required`). The policy is asked with an empty input, so
 * a policy that decides on input fields may still answer `approval_pending` at invoke time; every
 * failure (a malformed scope, a resolver that throws) answers `false`, because `invoke` then
 * reports it and never runs a call that needs approval without one.
 */
export async function needsFrameworkApproval(dispatcher: Dispatcher, options: ResolvedFrameworkOptions, call: FrameworkCallInfo): Promise<boolean> {
  try {
    const description = await dispatcher.describe(call.tool_id, scopeOf(options, call) ?? {})
    return description.diagnostics.status === 'approval_required'
  } catch {
    return false
  }
}

/**
 * The outcome of a call whose scope resolver (a host function: the AI SDK and OpenAI Agents
 * adapters' `scope` option, the MCP server's) threw: `tool_invalid_input` / `request_invalid`, as
 * for any scope `invoke` cannot use. The thrown value is not kept (it may quote the run's context).
 */
export function scopeResolverFailed(toolCallId: string | undefined): InvokeError {
  const error = new ToolError({ code: 'tool_invalid_input', reason: 'request_invalid', message: 'invalid invoke request: the scope resolver threw' })
  return { status: 'error', tool_call_id: toolCallId ?? randomUUID(), error }
}

function scopeOf(options: ResolvedFrameworkOptions, call: FrameworkCallInfo): CallScope | undefined {
  const { scope } = options
  return typeof scope === 'function' ? scope({ tool_id: call.tool_id, tool_call_id: call.tool_call_id, context: call.context }) : scope
}

function notifyPending(options: ResolvedFrameworkOptions, notice: Parameters<NonNullable<ResolvedFrameworkOptions['onApprovalPending']>>[0]): void {
  const callback = options.onApprovalPending
  if (callback === undefined) return
  try {
    // A promise (or thenable) it returns is never awaited; its rejection is swallowed here.
    Promise.resolve(callback(Object.freeze(notice))).catch(() => undefined)
  } catch {
    // The approval is stored either way, and the model still reads the pending text.
  }
}
