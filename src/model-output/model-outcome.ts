import type { InvokeOutcome } from '../call/call.js'
import type { ToolErrorCode } from '../errors/codes.js'
import type { View } from '../views/view.js'

/**
 * The one mapping from a dispatch outcome to what a model reads, shared by every model-facing
 * surface this package ships (`result-views/mcp`, `result-views/ai`, `result-views/openai-agents`)
 * and open to hosts that wire another framework, so that a model reads one contract everywhere.
 * `docs/adapters.md` "What the model reads" shows each case.
 */

/** A call that ran: the selected view's record. */
export interface ModelOutcomeOk {
  /** Always `'ok'`: the tool ran and its record passed the checks. */
  readonly status: 'ok'
  /** The call's ID, as the dispatcher answered it (the caller's `tool_call_id`, or one it made). */
  readonly tool_call_id: string
  /** `'compact'` or `'full'`; tools with views only. */
  readonly result_view?: View
  /** The selected view's record (`outcome.result.structured`), never both views. */
  readonly record: unknown
  /** What the model reads: `JSON.stringify(record)`. */
  readonly text: string
}

/** A call that failed with a typed error: the tool did not run, or its result was refused. */
export interface ModelOutcomeError {
  /** Always `'error'`. */
  readonly status: 'error'
  /** The call's ID, as the dispatcher answered it. */
  readonly tool_call_id: string
  /** The error's stable code (`docs/errors.md`). */
  readonly code: ToolErrorCode
  /** The error's stable reason within its code (`docs/errors.md`). */
  readonly reason: string
  /** The error's `details` (`docs/errors.md`), when it has them; never part of `text`. */
  readonly details?: Readonly<Record<string, unknown>>
  /** What the model reads: `<code> (<reason>): <dispatch message>`. */
  readonly text: string
}

/** A call waiting on a pending approval: the tool did not run yet, and a retry would not run it. */
export interface ModelOutcomePending {
  /** Always `'approval_pending'`. */
  readonly status: 'approval_pending'
  /** The call's ID, as the dispatcher answered it. */
  readonly tool_call_id: string
  /** The pending approval, for the host (`dispatcher.approvals.show` / `resolve`). */
  readonly approval_id: string
  /** What the model reads: that the call waits on approval `<id>`, runs once approved, and must not be retried. */
  readonly text: string
}

/** What {@link outcomeForModel} returns: the outcome's facts plus the exact text a model reads. */
export type ModelOutcome = ModelOutcomeOk | ModelOutcomeError | ModelOutcomePending

/**
 * What a model reads for one dispatch outcome (`docs/adapters.md` "What the model reads"):
 *
 * - `ok` → `record` is `outcome.result.structured` (the selected view's record) and `text` is
 *   `JSON.stringify(record)`;
 * - `error` → `text` is `"<code> (<reason>): <message>"` with the dispatch message, e.g.
 *   `tool_invalid_input (schema_invalid): tool "x" input "result_view" must be one of "compact",
 *   "full"` (sensitive input values are already scrubbed from it by the dispatcher); `details`
 *   are kept as data, never put in the text;
 * - `approval_pending` → `text` is `"approval_pending: approval_id=<id>: tool "<tool_id>" did not
 *   run; it is waiting on approval <id> and will run once when the host approves it, and its
 *   result is recorded with the approval. Do not call it again to make it run: a new call opens a
 *   new approval"`. (Resolving the approval runs the deferred call itself and stores no grant, so
 *   a retry would wait on a second approval and, approved too, run the tool twice.)
 *
 * Pure and synchronous; the returned object is frozen (the record itself is shared, not copied).
 *
 * @param outcome - what `dispatcher.invoke` resolved to.
 * @param toolId - the called tool's ID (named in the pending text).
 */
export function outcomeForModel(outcome: InvokeOutcome, toolId: string): ModelOutcome {
  switch (outcome.status) {
    case 'ok': {
      const record = outcome.result.structured
      const text = JSON.stringify(record)
      return Object.freeze(
        outcome.result_view === undefined
          ? { status: 'ok' as const, tool_call_id: outcome.tool_call_id, record, text }
          : { status: 'ok' as const, tool_call_id: outcome.tool_call_id, result_view: outcome.result_view, record, text },
      )
    }
    case 'approval_pending': {
      const id = outcome.approval_id
      const text =
        `approval_pending: approval_id=${id}: tool ${JSON.stringify(toolId)} did not run; it is waiting on approval ${id} ` +
        'and will run once when the host approves it, and its result is recorded with the approval. ' +
        'Do not call it again to make it run: a new call opens a new approval'
      return Object.freeze({ status: 'approval_pending' as const, tool_call_id: outcome.tool_call_id, approval_id: id, text })
    }
    default: {
      const { error } = outcome
      const text = `${error.code} (${error.reason}): ${error.message}`
      const base = { status: 'error' as const, tool_call_id: outcome.tool_call_id, code: error.code, reason: error.reason }
      return Object.freeze(error.details === undefined ? { ...base, text } : { ...base, details: error.details, text })
    }
  }
}
