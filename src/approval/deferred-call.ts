import type { Call } from '../dispatch/call.js'
import { unknownTool } from '../dispatch/errors.js'
import { createCallBase } from '../dispatch/call-base.js'
import { prepareInput } from '../dispatch/prepare.js'
import type { InvokeError, InvokeOk, InvokeOutcome, InvokeRequest } from '../dispatch/types.js'
import { isToolError, type ToolError } from '../errors/tool-error.js'
import { scrubJson } from '../redact/redact.js'
import { toolFacts } from '../policy/policy.js'
import type { Tool } from '../tool/types.js'
import { digestOf, policyInput } from './authorize.js'
import { policyDenied, recordInvalid } from './errors.js'
import type { ResolvedApprovals } from './options.js'
import { isFinalOutcome } from './pending.js'
import type { PendingApprovalRecord } from './pending-store.js'
import { checkPolicy } from './policy-check.js'

/** What running an approved call needs from the dispatcher. */
export interface DispatchHost {
  /** The dispatcher's catalog. */
  readonly tools: ReadonlyMap<string, Tool>
  /** Runs an authorized call to its outcome (handler, output check, projection, post-call events). */
  complete(call: Call): Promise<InvokeOutcome>
  /** Ends a prepared call with an error (post-error events, redaction). */
  fail(call: Call, error: ToolError): Promise<InvokeOutcome>
}

/**
 * Runs the call an approved pending record holds (spec 001: "the deferred tool call rechecks
 * current tool policy under the recorded owner"): the stored input goes through every input rule
 * again (`prepareInput`), must still have the approved input digest, and the CURRENT policy is
 * asked again under the recorded scope; a `deny` (or a failing policy) ends it with that error.
 * `approval_required` is satisfied by this approval. Pre-call hooks do not run again: the approved
 * input is the final one.
 */
export async function runDeferred(record: PendingApprovalRecord, deps: ResolvedApprovals, host: DispatchHost): Promise<InvokeOk | InvokeError> {
  const error = (e: ToolError): InvokeError => ({ status: 'error', tool_call_id: record.tool_call_id, error: e })
  const held = deps.held.take(record.approval_id)
  const tool = host.tools.get(record.tool_id)
  if (tool === undefined) return error(unknownTool(record.tool_id))
  const input = held === undefined ? record.input : held.input
  const request: InvokeRequest = {
    tool_id: record.tool_id,
    input,
    scope: record.scope,
    tool_call_id: record.tool_call_id,
    ...(record.sensitive_input_fields === undefined ? {} : { sensitive_input_fields: [...record.sensitive_input_fields] }),
    ...(record.pinned_result_view === undefined ? {} : { pinned_result_view: record.pinned_result_view }),
  }
  const base = createCallBase(request, tool, record.tool_call_id)
  if (isToolError(base)) return error(base)
  const call = prepareInput(base, input)
  if (isToolError(call)) return error(call)
  if (digestOf(call) !== record.input_digest) {
    const why = held === undefined && base.sensitivePaths.length > 0
      ? 'its sensitive input is held only by the process that opened it'
      : 'its stored input no longer has the approved input digest'
    return settle(await host.fail(call, recordInvalid(record.approval_id, why)))
  }

  const facts = toolFacts(tool)
  const decision = await checkPolicy(deps.policy, { tool: facts, scope: call.scope, input: policyInput(call, deps.policy) }, deps.guard.timeoutMs)
  if (isToolError(decision)) return settle(await host.fail(call, decision))
  if (decision.decision === 'deny') return settle(await host.fail(call, policyDenied(facts, decision.reason, decision.owner)))
  return settle(withoutSecrets(await host.complete(call), call.secrets))

  /**
   * The approved call's outcome as the approval record keeps it: a tool that echoes a sensitive
   * input value into its record gets that value scrubbed, since stored approval records never hold
   * a secret (issue 4). Errors are scrubbed by the dispatcher already.
   */
  function withoutSecrets(outcome: InvokeOutcome, secrets: readonly string[]): InvokeOutcome {
    if (outcome.status !== 'ok' || secrets.length === 0) return outcome
    return { ...outcome, result: { structured: scrubJson(outcome.result.structured, secrets), preview: outcome.result.preview } }
  }

  function settle(outcome: InvokeOutcome): InvokeOk | InvokeError {
    return isFinalOutcome(outcome) ? outcome : error(recordInvalid(record.approval_id, 'the approved call asked for another approval'))
  }
}
