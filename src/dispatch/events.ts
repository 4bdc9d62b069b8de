import { ToolErrorCodes } from '../errors/codes.js'
import type { ToolError } from '../errors/tool-error.js'
import type { PostCallPayload, PostErrorPayload } from '../hooks/events.js'
import { payloadBase } from '../hooks/payload.js'
import type { HookRegistry } from '../hooks/registry.js'
import { callHost } from '../async/deadline.js'
import { deepFreeze } from '../json/freeze.js'
import { safeLog, thrownName, type Logger } from '../log/logger.js'
import { scrubJson } from '../redact/secrets.js'
import type { Call, ToolResult } from '../call/call.js'

/** What the post events need of a call: an error can come before the input was checked. */
export type EventCall = Pick<Call, 'tool' | 'tool_call_id' | 'scope' | 'request' | 'sensitivePaths' | 'secrets'> & {
  /** The input to show (`null` when it is not plain JSON). */
  readonly input: unknown
  readonly view: Call['view']
}

/**
 * Emits `tool.post_call` (`docs/hooks.md` "Payloads"): `tool_result` is the envelope the caller
 * receives, with sensitive values scrubbed. Observers run in order and are awaited; one that throws
 * is logged and never changes the outcome.
 */
export async function emitPostCall(call: EventCall, result: ToolResult, hooks: HookRegistry, logger: Logger): Promise<void> {
  const handlers = hooks.list('tool.post_call')
  if (handlers.length === 0) return
  const payload: PostCallPayload = deepFreeze({
    event: 'tool.post_call',
    ...payloadBase(call, call.input, call.view),
    tool_result: scrubJson({ structured: result.structured, preview: result.preview }, call.secrets) as ToolResult,
  })
  for (const handler of handlers) await observe('tool.post_call', () => handler(payload), call, hooks, logger)
}

/** Emits `tool.post_error` with the typed error's dispatch payload (already scrubbed). */
export async function emitPostError(call: EventCall, error: ToolError, hooks: HookRegistry, logger: Logger): Promise<void> {
  const handlers = hooks.list('tool.post_error')
  if (handlers.length === 0) return
  const payload: PostErrorPayload = deepFreeze({
    event: 'tool.post_error',
    ...payloadBase(call, call.input, call.view),
    error: error.forSurface('dispatch'),
  })
  for (const handler of handlers) await observe('tool.post_error', () => handler(payload), call, hooks, logger)
}

async function observe(event: string, run: () => unknown, call: EventCall, hooks: HookRegistry, logger: Logger): Promise<void> {
  // An observer's answer is never read: only whether it settled in time.
  const observed = await callHost(run, { timeoutMs: hooks.timeoutMs })
  if (observed.ok) return
  const cause = observed.cause
  safeLog(
    logger,
    'error',
    { event, tool_id: call.tool.id, tool_call_id: call.tool_call_id, timed_out: observed.failure === 'timeout', error: thrownName(cause) },
    `${event} observer failed; the outcome is kept`,
  )
}

/**
 * Logs a call that failed (an error of kind `failure`: the handler threw, timed out or answered
 * an invalid record, a pre-call hook or an approval store failed, ...) at error level, as
 * `tool.call_failed` with the tool, the call ID, `code`, `reason` and the name of what was thrown
 * (`docs/hooks.md` "Logging"). `error` is already scrubbed of the call's secrets and its message
 * is the log line's message; `cause` is the unscrubbed original, of which only the name is read.
 * Input errors and denials are the caller's and are not logged.
 */
export function logFailure(call: Pick<EventCall, 'tool' | 'tool_call_id'>, error: ToolError, cause: unknown, logger: Logger): void {
  if (!Object.hasOwn(ToolErrorCodes, error.code) || ToolErrorCodes[error.code].kind !== 'failure') return
  const fields: Record<string, unknown> = { event: 'tool.call_failed', tool_id: call.tool.id, tool_call_id: call.tool_call_id, code: error.code, reason: error.reason }
  if (cause !== undefined) fields.error = thrownName(cause)
  safeLog(logger, 'error', fields, error.message)
}

/** The `cause` an error of ours keeps (non-enumerable), read once inside a guard; `undefined` when it has none. */
export function causeOf(error: ToolError): unknown {
  try {
    return Object.prototype.hasOwnProperty.call(error, 'cause') ? (error as { cause?: unknown }).cause : undefined
  } catch {
    return undefined
  }
}
