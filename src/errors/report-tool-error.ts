import { ToolErrorCodes, type ReportedErrorCode } from './codes.js'
import { ToolError } from './tool-error.js'

/** A reason a tool may give a code it reports: a snake_case word of 1–64 characters (`ticket_not_found`). */
export const REPORTED_REASON: RegExp = /^[a-z][a-z0-9_]{0,63}$/

/** Options of {@link reportToolError}. */
export interface ReportToolErrorOptions {
  /**
   * The tool's own stable reason: a snake_case word of 1–64 characters (`ticket_not_found`).
   * Default, and what the dispatcher puts instead of any other reason: the code's own
   * (`not_found`, `conflict`, `argument_invalid`).
   */
  reason?: string
  /** Structured data for in-process callers, hooks and models (`docs/errors.md`); never shown on HTTP or the CLI. */
  details?: Record<string, unknown>
}

/**
 * The error a tool handler throws to end its call with an outcome the caller can act on
 * (`docs/errors.md` "Errors a tool reports"): `resource_not_found` (HTTP 404), `resource_conflict`
 * (409) or `argument_invalid` (422). Unlike every other error, its `message` is shown on every
 * surface, HTTP and the CLI included, so write it for the caller: by choosing one of these codes
 * the tool marks the message safe to show. The dispatcher still scrubs the call's sensitive
 * input values from it (in every encoding) and cuts it to 500 characters.
 *
 * ```ts
 * handler: async ({ ticket_id }) => {
 *   const ticket = await tickets.get(ticket_id)
 *   if (ticket === undefined) throw reportToolError('resource_not_found', `ticket ${JSON.stringify(ticket_id)} does not exist`, { reason: 'ticket_not_found' })
 *   return ticket
 * }
 * ```
 *
 * `new ToolError({ code: 'resource_not_found', reason, message })` is the same error.
 *
 * @param code - `resource_not_found`, `resource_conflict` or `argument_invalid`.
 * @param message - what the caller reads, on every surface.
 * @returns the `ToolError` to throw. Never throws itself.
 */
export function reportToolError(code: ReportedErrorCode, message: string, options: ReportToolErrorOptions = {}): ToolError {
  const { reason, details } = options
  const fallback = Object.hasOwn(ToolErrorCodes, code) ? ToolErrorCodes[code].reasons[0] : 'not_found'
  const init = { code, reason: typeof reason === 'string' && REPORTED_REASON.test(reason) ? reason : fallback, message: String(message) }
  return new ToolError(details === undefined ? init : { ...init, details })
}
