import type { ToolError } from '../errors/tool-error.js'
import { firstHole } from '../json/guards.js'
import { isView } from '../views/view.js'
import { requestInvalid } from './errors.js'
import type { CallScope } from '../tool/types.js'
import type { InvokeRequest } from '../call/call.js'
import { readScopeFields, SCOPE_KEYS } from '../call/scope.js'
import type { UsageProblem } from '../errors/usage-error.js'
import { optionsTable, readOptions } from '../options/options.js'

/** Every field of an `InvokeRequest`; any other key is refused (a misspelt `sensitive_input_fields` must never leak). */
const REQUEST_FIELDS = optionsTable(['tool_id', 'input', 'scope', 'tool_call_id', 'approval_token', 'sensitive_input_fields', 'pinned_result_view', 'signal', 'trace_context'], 'field', 'the request')

/**
 * The request as the call keeps it: its known fields read once by the options reader into a fresh
 * object (an unknown key, or a getter or Proxy that throws, is a malformed request, never an
 * exception, and nothing of the call runs), then checked.
 *
 * @returns the snapshot, or `tool_invalid_input` / `request_invalid` naming the key (and the one
 *   it was likely meant to be: `sensitiveInputFields` → `sensitive_input_fields`).
 */
export function snapshotRequest(request: unknown): InvokeRequest | ToolError {
  if (typeof request !== 'object' || request === null) return requestInvalid('the request must be an object')
  const problems: UsageProblem[] = []
  const snapshot = readOptions(request, REQUEST_FIELDS, '', problems) as Record<string, unknown>
  if (problems.length > 0) return requestInvalid(problems.map((problem) => problem.message).join('; '))
  // The scope is read, checked and normalized in one pass; its problem, if any, is reported in
  // the order checkRequest reports problems, in the words describe(scope) and list(scope) use.
  let scopeIssue: string | undefined
  const { scope, sensitive_input_fields, trace_context } = snapshot
  if (scope !== undefined) {
    try {
      const read = readScopeFields(scope)
      if (typeof read === 'string') scopeIssue = read
      else snapshot.scope = read
    } catch {
      scopeIssue = SCOPE_UNREADABLE
    }
  }
  try {
    if (typeof trace_context === 'object' && trace_context !== null) snapshot.trace_context = copyTraceContext(trace_context)
  } catch {
    return requestInvalid('trace_context could not be read (a getter or a Proxy threw)')
  }
  try {
    // Copied only when dense: a sparse array is kept as it is, for the check to refuse.
    if (Array.isArray(sensitive_input_fields) && firstHole(sensitive_input_fields) === -1) snapshot.sensitive_input_fields = [...(sensitive_input_fields as unknown[])]
  } catch {
    return requestInvalid('sensitive_input_fields could not be read (a getter or a Proxy threw)')
  }
  // The signal is kept as sent: the dispatcher follows it with a signal of its own (`followSignal`),
  // the only one read afterwards.
  const request_ = snapshot as unknown as InvokeRequest
  return checkRequest(request_, scopeIssue) ?? request_
}

/**
 * A typed error for a request a caller (or untyped JSON) got wrong, or `undefined` for a
 * well-formed one; `scopeIssue` is what {@link readScopeFields} found wrong with its scope.
 */
function checkRequest(request: InvokeRequest, scopeIssue: string | undefined): ToolError | undefined {
  if (typeof request !== 'object' || request === null) return requestInvalid('the request must be an object')
  if (typeof request.tool_id !== 'string') return requestInvalid('tool_id must be a string')
  if (request.tool_call_id !== undefined && typeof request.tool_call_id !== 'string') return requestInvalid('tool_call_id must be a string')
  if (request.pinned_result_view !== undefined && !isView(request.pinned_result_view)) {
    return requestInvalid('pinned_result_view must be "compact" or "full"')
  }
  if (scopeIssue !== undefined) return requestInvalid(scopeIssue)
  if (request.approval_token !== undefined && typeof request.approval_token !== 'string') return requestInvalid('approval_token must be a string')
  if (
    request.sensitive_input_fields !== undefined &&
    (!Array.isArray(request.sensitive_input_fields) || firstHole(request.sensitive_input_fields) !== -1 || request.sensitive_input_fields.some((f) => typeof f !== 'string'))
  ) {
    return requestInvalid('sensitive_input_fields must be an array of strings')
  }
  if (request.trace_context !== undefined && !isTraceContext(request.trace_context)) {
    return requestInvalid('trace_context must be an object with a string traceparent and an optional string tracestate')
  }
  return undefined
}

/** The two fields of a trace context, read once each (a getter that throws is caught by the caller). */
function copyTraceContext(given: object): unknown {
  const { traceparent, tracestate } = given as Record<string, unknown>
  const keys = Object.keys(given)
  // Another key is kept, for the check to refuse: a misspelt `trace_parent` must not pass silently.
  if (keys.some((key) => key !== 'traceparent' && key !== 'tracestate')) return given
  return tracestate === undefined ? { traceparent } : { traceparent, tracestate }
}

/** Whether a (copied) trace context has a string `traceparent`, an optional string `tracestate` and nothing else. */
function isTraceContext(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const keys = Object.keys(value)
  if (keys.some((key) => key !== 'traceparent' && key !== 'tracestate')) return false
  const { traceparent, tracestate } = value as Record<string, unknown>
  return typeof traceparent === 'string' && (tracestate === undefined || typeof tracestate === 'string')
}

/**
 * A scope as `describe(tool_id, scope)` and `list(scope)` take it: its own fields read once (a
 * getter or Proxy that throws is a malformed scope), checked, and frozen.
 *
 * @returns the normalized scope, or `tool_invalid_input` / `request_invalid`.
 */
export function readScope(scope: unknown): Readonly<CallScope> | ToolError {
  let read: Readonly<CallScope> | string
  try {
    read = readScopeFields(scope)
  } catch {
    return requestInvalid(SCOPE_UNREADABLE)
  }
  return typeof read === 'string' ? requestInvalid(read) : read
}

/** Why a scope whose fields could not be read (a getter or Proxy trap threw) is refused. */
const SCOPE_UNREADABLE = 'the scope could not be read (a getter or a Proxy threw)'

/** The scope of a call that names none. */
export const NO_SCOPE: Readonly<CallScope> = Object.freeze({})

/** A frozen copy of the scope holding only its four known string fields. */
export function normalizeScope(scope: CallScope | undefined): Readonly<CallScope> {
  if (scope === undefined) return NO_SCOPE
  const out: CallScope = {}
  for (const key of SCOPE_KEYS) {
    const value = scope?.[key]
    if (value !== undefined) out[key] = value
  }
  return Object.freeze(out)
}
