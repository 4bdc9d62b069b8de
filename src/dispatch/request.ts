import type { ToolError } from '../errors/tool-error.js'
import { firstHole } from '../json/guards.js'
import { isView } from '../views/view.js'
import { requestInvalid } from './errors.js'
import type { CallScope } from '../tool/types.js'
import type { InvokeRequest } from '../call/call.js'
import { copyScopeFields, SCOPE_KEYS, scopeProblem } from '../call/scope.js'

const REQUEST_KEYS = ['tool_id', 'input', 'scope', 'tool_call_id', 'approval_token', 'sensitive_input_fields', 'pinned_result_view', 'signal'] as const

/**
 * The request as the call keeps it: its known fields read once into a plain object (a getter or
 * Proxy that throws is a malformed request, never an exception), then checked.
 *
 * @returns the snapshot, or `tool_invalid_input` / `request_invalid`.
 */
export function snapshotRequest(request: unknown): InvokeRequest | ToolError {
  if (typeof request !== 'object' || request === null) return requestInvalid('the request must be an object')
  const snapshot: Record<string, unknown> = {}
  try {
    // Each field read once, by name (named reads are cheaper than a loop of keyed ones).
    const sent = request as Record<(typeof REQUEST_KEYS)[number], unknown>
    const { tool_id, input, scope, tool_call_id, approval_token, sensitive_input_fields, pinned_result_view, signal } = sent
    if (tool_id !== undefined) snapshot.tool_id = tool_id
    if (input !== undefined) snapshot.input = input
    if (scope !== undefined) snapshot.scope = typeof scope === 'object' && scope !== null ? copyScopeFields(scope) : scope
    if (tool_call_id !== undefined) snapshot.tool_call_id = tool_call_id
    if (approval_token !== undefined) snapshot.approval_token = approval_token
    if (sensitive_input_fields !== undefined) {
      // Copied only when dense: a sparse array is kept as it is, for the check to refuse.
      const dense = Array.isArray(sensitive_input_fields) && firstHole(sensitive_input_fields) === -1
      snapshot.sensitive_input_fields = dense ? [...(sensitive_input_fields as unknown[])] : sensitive_input_fields
    }
    if (pinned_result_view !== undefined) snapshot.pinned_result_view = pinned_result_view
    // Kept as sent: the dispatcher follows it with a signal of its own (`followSignal`), the only
    // one read afterwards.
    if (signal !== undefined) snapshot.signal = signal
  } catch {
    return requestInvalid('the request could not be read (a getter or a Proxy threw)')
  }
  const request_ = snapshot as unknown as InvokeRequest
  return checkRequest(request_) ?? request_
}

/** A typed error for a request a caller (or untyped JSON) got wrong, or `undefined` for a well-formed one. */
function checkRequest(request: InvokeRequest): ToolError | undefined {
  if (typeof request !== 'object' || request === null) return requestInvalid('the request must be an object')
  if (typeof request.tool_id !== 'string') return requestInvalid('tool_id must be a string')
  if (request.tool_call_id !== undefined && typeof request.tool_call_id !== 'string') return requestInvalid('tool_call_id must be a string')
  if (request.pinned_result_view !== undefined && !isView(request.pinned_result_view)) {
    return requestInvalid('pinned_result_view must be "compact" or "full"')
  }
  if (request.scope !== undefined) {
    const malformed = checkScope(request.scope)
    if (malformed !== undefined) return malformed
  }
  if (request.approval_token !== undefined && typeof request.approval_token !== 'string') return requestInvalid('approval_token must be a string')
  if (
    request.sensitive_input_fields !== undefined &&
    (!Array.isArray(request.sensitive_input_fields) || firstHole(request.sensitive_input_fields) !== -1 || request.sensitive_input_fields.some((f) => typeof f !== 'string'))
  ) {
    return requestInvalid('sensitive_input_fields must be an array of strings')
  }
  return undefined
}

/** A typed error for a malformed scope, or `undefined`. */
export function checkScope(scope: unknown): ToolError | undefined {
  const problem = scopeProblem(scope)
  return problem === undefined ? undefined : requestInvalid(problem)
}

/**
 * A scope as `describe(tool_id, scope)` and `list(scope)` take it: its own fields read once (a
 * getter or Proxy that throws is a malformed scope), checked, and frozen.
 *
 * @returns the normalized scope, or `tool_invalid_input` / `request_invalid`.
 */
export function readScope(scope: unknown): Readonly<CallScope> | ToolError {
  let copy: unknown
  try {
    copy = typeof scope === 'object' && scope !== null ? copyScopeFields(scope) : scope
  } catch {
    return requestInvalid('the scope could not be read (a getter or a Proxy threw)')
  }
  return checkScope(copy) ?? normalizeScope(copy as CallScope)
}

/** The scope of a call that names none. */
const NO_SCOPE: Readonly<CallScope> = Object.freeze({})

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
