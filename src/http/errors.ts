import { ToolError, type ToolErrorReason } from 'result-views'

/** The reasons of `http_request_invalid`, as registered (each has its HTTP status; `docs/http.md` "Status codes"). */
export type HttpRequestProblem = ToolErrorReason<'http_request_invalid'>

/** Longest caller-supplied text echoed into a dispatch message (the HTTP surface never shows it). */
const MAX_ECHOED = 128

/** A caller-supplied value quoted for a message, cut to {@link MAX_ECHOED} characters. */
export function shown(text: string): string {
  return JSON.stringify(text.length > MAX_ECHOED ? text.slice(0, MAX_ECHOED) + '…' : text)
}

/** `http_request_invalid` with one of its reasons. */
export function requestInvalid(reason: HttpRequestProblem, message: string): ToolError {
  return new ToolError({ code: 'http_request_invalid', reason, message })
}

/** `tool_invalid_input` / `request_invalid`: an invoke body the dispatcher's request shape does not allow. */
export function invokeRequestInvalid(message: string): ToolError {
  return new ToolError({ code: 'tool_invalid_input', reason: 'request_invalid', message })
}

/** `http_unauthenticated` / `authentication_refused`: the host's `authenticate` refused the request. */
export function unauthenticated(): ToolError {
  return new ToolError({ code: 'http_unauthenticated', reason: 'authentication_refused', message: 'the request was refused by authenticate' })
}

/** Why the handler itself failed: the registered `http_handler_failed` reasons. */
export type HandlerProblem = ToolErrorReason<'http_handler_failed'>

/** `http_handler_failed` with one of its reasons; `cause` is kept non-enumerable, never in the message. */
export function handlerFailed(reason: HandlerProblem, message: string, cause?: unknown): ToolError {
  const error = new ToolError({ code: 'http_handler_failed', reason, message })
  if (cause !== undefined) Object.defineProperty(error, 'cause', { value: cause, enumerable: false })
  return error
}

/** `tool_denied` / `loopback_required`: an approval decision from a peer that is not loopback. */
export function loopbackRequired(): ToolError {
  return new ToolError({
    code: 'tool_denied',
    reason: 'loopback_required',
    message: 'approval decisions over HTTP require a loopback peer (127.0.0.0/8, ::1) or a Unix socket',
  })
}

/** `tool_denied` / `scope_forbidden`: the request names a scope field other than the authenticated one. */
export function scopeForbidden(field: string): ToolError {
  return new ToolError({
    code: 'tool_denied',
    reason: 'scope_forbidden',
    message: `the request names another ${field} than the one authenticate fixed for it`,
  })
}

/** `tool_not_found` / `unknown_tool`, as the dispatcher reports it. */
export function unknownTool(toolId: string): ToolError {
  return new ToolError({ code: 'tool_not_found', reason: 'unknown_tool', message: `tool ${shown(toolId)} is not registered` })
}

/** `approval_not_found` / `unknown_grant`: a revoke named a grant the workspace does not hold. */
export function unknownGrant(grantId: string): ToolError {
  return new ToolError({ code: 'approval_not_found', reason: 'unknown_grant', message: `the workspace holds no grant ${shown(grantId)}` })
}

/** `approval_request_invalid` / `field_invalid`, as `dispatcher.approvals` reports a bad argument. */
export function approvalFieldInvalid(message: string): ToolError {
  return new ToolError({ code: 'approval_request_invalid', reason: 'field_invalid', message })
}

/** `http_request_invalid` / `body_too_large` (413). */
export function bodyTooLarge(maxBytes: number): ToolError {
  return requestInvalid('body_too_large', `the request body is larger than ${maxBytes} bytes`)
}

/** `http_request_invalid` / `body_timeout` (408). */
export function bodyTimeout(timeoutMs: number): ToolError {
  return requestInvalid('body_timeout', `the request body did not arrive within ${timeoutMs} ms`)
}

/** `http_request_invalid` / `body_incomplete`: the client ended or aborted the body early. */
export function bodyIncomplete(): ToolError {
  return requestInvalid('body_incomplete', 'the client ended the request before its whole body arrived')
}

/** `http_handler_failed` / `body_already_read`: something read the body before the handler (a body parser mounted in front of it). */
export function bodyAlreadyRead(): ToolError {
  return handlerFailed('body_already_read', 'the request body was already read before the handler ran: mount it before any body parser')
}
