import { isToolError, type ToolError } from '../errors/tool-error.js'
import type { PreCallDecision, PreCallHandler, PreCallPayload } from '../hooks/events.js'
import { payloadBase } from '../hooks/payload.js'
import type { HookRegistry } from '../hooks/registry.js'
import { INPUT_JSON, type JsonValue } from '../json/canonical.js'
import { isPlainObject } from '../json/guards.js'
import { quoted } from '../errors/quote.js'
import { ownJsonCopy } from '../json/own-copy.js'
import { isJsonValueError } from '../json/json-value-error.js'
import { safeLog, type Logger } from '../log/logger.js'
import { restoreRedacted } from '../redact/redact.js'
import { mergeSecrets, scrubError } from '../redact/scrub-error.js'
import { collectSecrets } from '../redact/secrets.js'
import { redactPointer } from '../redact/sensitive-pointer.js'
import type { Call } from '../call/call.js'
import { callHost, type HostAnswer } from '../async/deadline.js'
import { callAborted } from '../call/call-aborted.js'
import { hookDenied, hookFailed, hookPatchInvalid, hookTimedOut } from './errors.js'
import { prepareInput } from './prepare.js'

/**
 * The `tool.pre_call` stage (`docs/hooks.md` "Payloads"): handlers run in registration order as a
 * pipeline. Each sees the current (redacted) input and may go on, patch the whole `tool_input`, or
 * deny. A patched input goes through every input rule again (`prepareInput`: plain JSON, the
 * `result_view` rules including a pinned view, the input schema), so a patch selecting `full` makes
 * the caller receive the full record, fails on a single-result tool, and is denied with
 * `result_view_pinned` on a call that pinned another view. A sensitive field patched back to
 * `"[REDACTED]"` keeps its real value.
 *
 * Synchronous when every handler answers at once (no promise, no task-queue turn: a call awaits
 * only what can answer later); a promise as soon as one handler's answer is awaited.
 *
 * @returns the final call, or the typed error: `tool_denied`/`hook_denied`,
 *   `tool_hook_failed`/`hook_threw` | `hook_patch_invalid`, or an input error of the patch.
 */
export function runPreCall(call: Call, hooks: HookRegistry, logger: Logger): Call | ToolError | Promise<Call | ToolError> {
  return runFrom(call, hooks.list('tool.pre_call'), 0, hooks, logger)
}

/** Runs the handlers from `index` on, synchronously while they answer at once. */
function runFrom(call: Call, handlers: readonly PreCallHandler[], index: number, hooks: HookRegistry, logger: Logger): Call | ToolError | Promise<Call | ToolError> {
  let current = call
  for (let i = index; i < handlers.length; i++) {
    const handler = handlers[i]!
    const payload: PreCallPayload = Object.freeze({ event: 'tool.pre_call', ...payloadBase(current, current.input, current.view) })
    const before = current
    // The hook's answer is read inside the guard that runs it: a getter or Proxy in what it
    // returned that throws is the hook failing (`hook_threw`), never an exception.
    const answered = callHost(() => handler(payload), { timeoutMs: hooks.timeoutMs, signal: before.request.signal }, (decision: PreCallDecision) =>
      decision === undefined || decision === null ? before : interpret(before, decision),
    )
    if (answered instanceof Promise) {
      return answered.then((settled) => {
        const next = outcomeOf(before, settled, hooks, logger)
        return isToolError(next) ? next : runFrom(next, handlers, i + 1, hooks, logger)
      })
    }
    const next = outcomeOf(before, answered, hooks, logger)
    if (isToolError(next)) return next
    current = next
  }
  return current
}

/** What one handler's settled answer makes of the call: the next call, or the typed error (scrubbed of the call's secrets). */
function outcomeOf(before: Call, answered: HostAnswer<Call | ToolError>, hooks: HookRegistry, logger: Logger): Call | ToolError {
  if (!answered.ok) {
    if (answered.failure === 'aborted') return scrubError(callAborted(before.tool.id, false), before.secrets)
    const timedOut = answered.failure === 'timeout'
    safeLog(logger, 'error', { event: 'tool.pre_call', tool_id: before.tool.id, tool_call_id: before.tool_call_id, timed_out: timedOut }, 'pre-call hook failed')
    return scrubError(timedOut ? hookTimedOut(before.tool, hooks.timeoutMs) : hookFailed(before.tool, answered.cause, before.secrets), before.secrets)
  }
  if (isToolError(answered.value)) return scrubError(answered.value, before.secrets)
  return answered.value
}

/** What a handler's answer means for the call: a denial, an invalid answer, or the patched call. */
function interpret(call: Call, decision: unknown): Call | ToolError {
  if (typeof decision !== 'object' || decision === null) {
    return hookPatchInvalid(call.tool, 'a pre-call hook must return nothing, { tool_input } or { deny: true }')
  }
  const answer = decision as Record<string, unknown>
  if (answer.deny === true) {
    // Read once: a getter answers one reason.
    const reason = answer.deny_reason
    return hookDenied(call.tool, typeof reason === 'string' ? reason : undefined)
  }
  return applyPatch(call, answer)
}

function applyPatch(call: Call, patch: Record<string, unknown>): Call | ToolError {
  const { tool } = call
  if (Object.prototype.hasOwnProperty.call(patch, 'tool_id') && patch.tool_id !== tool.id) {
    return hookPatchInvalid(tool, 'a pre-call hook cannot change the tool ID')
  }
  if (Object.prototype.hasOwnProperty.call(patch, 'scope') && !sameScope(patch.scope, call.scope)) {
    return hookPatchInvalid(tool, "a pre-call hook cannot change the call's scope")
  }
  if (!Object.prototype.hasOwnProperty.call(patch, 'tool_input')) {
    return hookPatchInvalid(tool, 'a pre-call patch must carry the whole new tool_input')
  }
  const sent = patch.tool_input
  let input: JsonValue
  try {
    // A private copy, checked as it is made: the hook keeps no handle on the input that will run.
    // A member whose value is `undefined` is absent, as in the input a caller sends.
    input = ownJsonCopy(sent, INPUT_JSON)
  } catch (error) {
    // Named like an input's problem: the pointer stops at a sensitive field, and the secrets of
    // the patch as it is are scrubbed too (the patch may bring new ones).
    const pointer = redactPointer(isJsonValueError(error) ? error.pointer : '', call.sensitivePaths)
    const secrets = mergeSecrets(call.secrets, collectSecrets(sent, call.sensitivePaths))
    return scrubError(hookPatchInvalid(tool, `the patched tool_input is not plain JSON at ${quoted(pointer)}`), secrets)
  }
  const unresolved = restoreRedacted(input, call.input, call.sensitivePaths)
  if (unresolved !== undefined) return hookPatchInvalid(tool, unresolved)
  const prepared = prepareInput(call, input)
  return prepared.ok ? prepared.call : prepared.error
}

/** Whether a patch's `scope` is the call's: a plain object with the same fields (an array, even an empty one, is not a scope). */
function sameScope(scope: unknown, current: Call['scope']): boolean {
  if (!isPlainObject(scope)) return false
  const given = scope
  const keys = new Set([...Object.keys(given), ...Object.keys(current)])
  return [...keys].every((key) => given[key] === (current as Record<string, unknown>)[key])
}
