import { digestOf } from '../approval/authorize.js'
import { recordInvalid } from '../approval/errors.js'
import { toStoredInput, type HeldInput } from '../approval/held-inputs.js'
import { isFinalOutcome } from '../approval/pending.js'
import type { PendingApprovalRecord } from '../approval/stores.js'
import type { Call, InvokeError, InvokeOk, InvokeOutcome, InvokeRequest } from '../call/call.js'
import { isToolError, type ToolError } from '../errors/tool-error.js'
import { canonicalJson } from '../json/canonical.js'
import { scrubJson } from '../redact/secrets.js'
import type { Tool } from '../tool/types.js'
import { unknownTool } from '../tool/unknown-tool.js'
import { createCallBase } from './call-base.js'
import { prepareInput } from './prepare.js'
import { normalizeScope } from './request.js'

/** What running an approved call needs of the dispatcher and its approval engine. */
export interface ResumeHost {
  /** The dispatcher's catalog. */
  readonly tools: ReadonlyMap<string, Tool>
  /** Runs an authorized call to its outcome (handler, output check, projection, post-call events). */
  complete(call: Call): Promise<InvokeOutcome>
  /** Ends a prepared call with an error (post-error events, redaction). */
  fail(call: Call, error: ToolError): Promise<InvokeOutcome>
  /** Asks the current policy again about the call: `undefined` when it may run, else the error that ends it. */
  recheck(call: Call): Promise<ToolError | undefined>
}

/**
 * Runs the call an approved pending record holds (`docs/approvals.md` "`dispatcher.approvals`": the
 * deferred call rechecks the current tool policy under the recorded owner): the input (the real one
 * this process `held` for a record stored redacted, else the stored one) goes through every input
 * rule again (`prepareInput`), must, redacted, equal the record's stored `input` (what `show`
 * displayed), must still have the approved input digest, and the CURRENT policy is
 * asked again under the recorded scope; a `deny` (or a failing policy) ends it with that error.
 * `approval_required` is satisfied by this approval. Pre-call hooks do not run again: the approved
 * input is the final one.
 *
 * @returns the outcome as the approval record keeps it: `tool_not_found` for a tool no longer in
 *   the catalog, `approval_unavailable` / `record_invalid` for a record that no longer reproduces
 *   the approved call, the policy's error, or the call's own outcome with every sensitive input
 *   value scrubbed from its record (stored approval records never hold a secret).
 */
export async function resumeApproved(record: PendingApprovalRecord, held: HeldInput | undefined, host: ResumeHost): Promise<InvokeOk | InvokeError> {
  const error = (e: ToolError): InvokeError => ({ status: 'error', tool_call_id: record.tool_call_id, error: e })
  const tool = host.tools.get(record.tool_id)
  if (tool === undefined) return error(unknownTool(record.tool_id))
  const input = held === undefined ? record.input : held.input
  const request: InvokeRequest = {
    tool_id: record.tool_id,
    input,
    scope: normalizeScope(record.scope),
    tool_call_id: record.tool_call_id,
    ...(record.sensitive_input_fields === undefined ? {} : { sensitive_input_fields: [...record.sensitive_input_fields] }),
    ...(record.pinned_result_view === undefined ? {} : { pinned_result_view: record.pinned_result_view }),
  }
  const base = createCallBase(request, tool, record.tool_call_id)
  if (isToolError(base)) return error(base)
  const prepared = prepareInput(base, input)
  if (!prepared.ok) return error(prepared.error)
  const { call } = prepared
  // The real input must be the one the record shows (redacted): else the approver saw one input
  // and another would run.
  if (held !== undefined && !sameJson(toStoredInput(call), record.input)) {
    return settle(await host.fail(call, recordInvalid(record.approval_id, 'its stored input does not match the input it would run on')))
  }
  if (digestOf(call) !== record.input_digest) {
    const why = held === undefined && base.sensitivePaths.length > 0
      ? 'its sensitive input is held only by the process that opened it'
      : 'its stored input no longer has the approved input digest'
    return settle(await host.fail(call, recordInvalid(record.approval_id, why)))
  }
  const refused = await host.recheck(call)
  if (refused !== undefined) return settle(await host.fail(call, refused))
  return settle(withoutSecrets(await host.complete(call), call.secrets))

  function settle(outcome: InvokeOutcome): InvokeOk | InvokeError {
    return isFinalOutcome(outcome) ? outcome : error(recordInvalid(record.approval_id, 'the approved call asked for another approval'))
  }
}

/** Canonical (RFC 8785) equality of two JSON values; a value that is not plain JSON equals nothing. */
function sameJson(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b)
  } catch {
    return false
  }
}

/**
 * An approved call's outcome as the approval record keeps it: a tool that echoes a sensitive input
 * value into its record gets that value scrubbed. Errors are scrubbed by the dispatcher already.
 */
function withoutSecrets(outcome: InvokeOutcome, secrets: readonly string[]): InvokeOutcome {
  if (outcome.status !== 'ok' || secrets.length === 0) return outcome
  return { ...outcome, result: { structured: scrubJson(outcome.result.structured, secrets), preview: outcome.result.preview } }
}
