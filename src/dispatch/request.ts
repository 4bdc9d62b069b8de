import type { ToolError } from '../errors/tool-error.js'
import { isView } from '../views/view.js'
import { requestInvalid } from './errors.js'
import type { CallScope } from './scope.js'
import type { InvokeRequest } from './types.js'

const SCOPE_KEYS = ['workspace_id', 'session_id', 'agent_name', 'profile_id'] as const

/** A typed error for a request a caller (or untyped JSON) got wrong, or `undefined` for a well-formed one. */
export function checkRequest(request: InvokeRequest): ToolError | undefined {
  if (typeof request !== 'object' || request === null) return requestInvalid('the request must be an object')
  if (typeof request.tool_id !== 'string') return requestInvalid('tool_id must be a string')
  if (request.tool_call_id !== undefined && typeof request.tool_call_id !== 'string') return requestInvalid('tool_call_id must be a string')
  if (request.pinned_result_view !== undefined && !isView(request.pinned_result_view)) {
    return requestInvalid('pinned_result_view must be "compact" or "full"')
  }
  if (request.scope !== undefined && !isScope(request.scope)) return requestInvalid('scope must be an object of string fields')
  if (request.approval_token !== undefined && typeof request.approval_token !== 'string') return requestInvalid('approval_token must be a string')
  if (
    request.sensitive_input_fields !== undefined &&
    (!Array.isArray(request.sensitive_input_fields) || request.sensitive_input_fields.some((f) => typeof f !== 'string'))
  ) {
    return requestInvalid('sensitive_input_fields must be an array of strings')
  }
  return undefined
}

function isScope(scope: unknown): scope is CallScope {
  if (typeof scope !== 'object' || scope === null || Array.isArray(scope)) return false
  return SCOPE_KEYS.every((key) => {
    const value = (scope as Record<string, unknown>)[key]
    return value === undefined || typeof value === 'string'
  })
}

/** A typed error for a malformed scope, or `undefined`. */
export function checkScope(scope: unknown): ToolError | undefined {
  return isScope(scope) ? undefined : requestInvalid('scope must be an object of string fields')
}

/** A frozen copy of the scope holding only its four known string fields. */
export function normalizeScope(scope: CallScope | undefined): Readonly<CallScope> {
  const out: CallScope = {}
  for (const key of SCOPE_KEYS) {
    const value = scope?.[key]
    if (value !== undefined) out[key] = value
  }
  return Object.freeze(out)
}
