import { ToolErrorCodes, type ToolError } from 'result-views'

/** Statuses of the `http_request_invalid` reasons that are not 400. */
const REQUEST_STATUS: ReadonlyMap<string, number> = new Map([
  ['unknown_route', 404],
  ['method_not_allowed', 405],
  ['body_timeout', 408],
  ['body_too_large', 413],
  ['content_type_unsupported', 415],
])

/** Codes whose status is not the one of their kind. */
const CODE_STATUS: ReadonlyMap<string, number> = new Map([
  ['tool_not_found', 404],
  ['approval_not_found', 404],
  ['http_unauthenticated', 401],
  ['approval_unavailable', 503],
  ['continuation_unavailable', 503],
  ['resource_not_found', 404],
  ['resource_conflict', 409],
  ['argument_invalid', 422],
])

const KIND_STATUS = { input: 400, denial: 403, failure: 500, reported: 422 } as const

/**
 * The HTTP status of an error (`docs/http.md` "Status codes"): by the code's kind (input 400,
 * denial 403, failure 500), except unknown tools and approvals 404, `http_unauthenticated` 401,
 * `approval_unavailable` (a store, the prompt or the owner check failed) and
 * `continuation_unavailable` (the continuation store failed) 503, the codes a tool
 * reports `resource_not_found` 404, `resource_conflict` 409, `argument_invalid` 422, and the
 * `http_request_invalid` reasons `unknown_route` 404, `method_not_allowed` 405, `body_timeout`
 * 408, `body_too_large` 413, `content_type_unsupported` 415. A code outside the registry is 500.
 */
export function statusOf(error: ToolError): number {
  if (error.code === 'http_request_invalid') return REQUEST_STATUS.get(error.reason) ?? 400
  const special = CODE_STATUS.get(error.code)
  if (special !== undefined) return special
  return Object.hasOwn(ToolErrorCodes, error.code) ? KIND_STATUS[ToolErrorCodes[error.code].kind] : 500
}
