import type { InvokeOk, InvokeOutcome, PendingApprovalView, ToolError } from 'result-views'
import { handlerFailed } from './errors.js'
import { ok, type Reply } from './exchange.js'
import { statusOf } from './status.js'

/** An error as the HTTP surface answers it: its status and `{ error: { code, reason, message } }`, the message redacted by `forSurface('http')`. */
export function errorReply(error: ToolError): Reply {
  return { status: statusOf(error), body: { error: error.forSurface('http') } }
}

/** The `{ result: { structured, preview }, result_view? }` body of a successful call. */
export function resultBody(outcome: InvokeOk): Record<string, unknown> {
  const result = { structured: outcome.result.structured, preview: outcome.result.preview }
  return outcome.result_view === undefined ? { result } : { result, result_view: outcome.result_view }
}

/**
 * The reply to an invocation: 200 with {@link resultBody}, 202 `{ approval_id }` for a call that
 * waits on an approval, or the error's status with its redacted payload.
 */
export function outcomeReply(outcome: InvokeOutcome): Reply {
  if (outcome.status === 'ok') return ok(resultBody(outcome))
  if (outcome.status === 'approval_pending') return { status: 202, body: { approval_id: outcome.approval_id } }
  return errorReply(outcome.error)
}

/**
 * A pending approval as the HTTP surface shows it: the view's fields, with the approved call's
 * outcome as `{ status: 'ok', result, result_view? }` or `{ status: 'error', error }` (redacted
 * like every HTTP error).
 */
export function approvalBody(view: PendingApprovalView): Record<string, unknown> {
  const { outcome, ...rest } = view
  if (outcome === undefined) return { ...rest }
  const shown = outcome.status === 'ok' ? { status: 'ok', ...resultBody(outcome) } : { status: 'error', error: outcome.error.forSurface('http') }
  return { ...rest, outcome: shown }
}

/** 500 `http_handler_failed` / `unexpected_error`: the answer when nothing more specific can be said. */
export function unexpectedFailureReply(cause?: unknown): Reply {
  return errorReply(handlerFailed('unexpected_error', 'the handler failed unexpectedly', cause))
}
