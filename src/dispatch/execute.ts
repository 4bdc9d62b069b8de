import { LazyAbort } from '../async/abort.js'
import { callHost, type HostAnswer } from '../async/deadline.js'
import { ToolErrorCodes, type ToolErrorCode } from '../errors/codes.js'
import { ToolError, isToolError } from '../errors/tool-error.js'
import { cloneJson } from '../json/clone.js'
import { ownJsonCopy } from '../json/own-copy.js'
import type { ToolContext } from '../tool/types.js'
import type { Call, ToolResult } from '../call/call.js'
import { callAborted } from '../call/call-aborted.js'
import { MAX_THROWN_MESSAGE } from '../errors/describe-thrown.js'
import { REPORTED_REASON } from '../errors/report-tool-error.js'
import { scrubbedCut, scrubText } from '../redact/secrets.js'
import type { CallTelemetry, TelemetryResultSizes } from '../telemetry/telemetry.js'
import { handlerFailed, handlerTimedOut, outputUnreadable } from './errors.js'
import { resultOf } from './output.js'

/** The dispatcher's default handler time budget: 60 s (`createDispatcher({ handlerTimeoutMs })`). */
export const DEFAULT_HANDLER_TIMEOUT_MS = 60_000

/**
 * The execution stages of the lifecycle: run the handler on the final input, within its time
 * budget (the tool's `handlerTimeoutMs`, else `defaultTimeoutMs`) and the caller's signal, validate
 * its record against the full schema (nothing of a bad record is returned), project to the
 * selected view and build the result envelope `{ structured, preview }`.
 *
 * A handler that returns a record (not a promise) is finished without a turn of the task queue.
 *
 * With `telemetry` (a dispatcher with a `telemetry` option), the handler runs with the call's
 * span as the active context and the `handler` and `output` stages and the records' sizes are
 * reported to it; without, nothing of it runs.
 *
 * @returns the result envelope, or the typed error (`tool_execution_failed`: `handler_failed`,
 *   `handler_timeout`, `call_aborted`; `tool_output_invalid`), directly or as a promise when the
 *   handler returned one.
 */
export function execute(call: Call, defaultTimeoutMs: number, telemetry?: CallTelemetry): ToolResult | ToolError | Promise<ToolResult | ToolError> {
  const { tool } = call
  const signal = call.request.signal
  if (signal?.aborted === true) return callAborted(tool.id, false)
  const timeoutMs = tool.handlerTimeoutMs ?? defaultTimeoutMs
  const abort = new LazyAbort()
  const context = new HandlerContext(tool.id, call.tool_call_id, call.scope, call.view, abort)
  // The handler gets its own copy: nothing it changes reaches the call's input, its events or the
  // caller's object.
  // `started`: whether the handler was called, for `call_aborted`'s `details.handler_started`.
  let started = false
  if (telemetry !== undefined) {
    const traced = callHost(() => ((started = true), telemetry.runActive(() => tool.handler(cloneJson(call.handlerInput), context))), { timeoutMs, signal })
    return traced instanceof Promise
      ? traced.then((settled) => tracedOutcomeOf(call, settled, abort, timeoutMs, started, telemetry))
      : tracedOutcomeOf(call, traced, abort, timeoutMs, started, telemetry)
  }
  const answer = callHost(() => ((started = true), tool.handler(cloneJson(call.handlerInput), context)), { timeoutMs, signal })
  return answer instanceof Promise ? answer.then((settled) => outcomeOf(call, settled, abort, timeoutMs, started)) : outcomeOf(call, answer, abort, timeoutMs, started)
}

/** {@link outcomeOf} reporting the `handler` and `output` stages, and the records' sizes, to the call's telemetry. */
function tracedOutcomeOf(call: Call, answer: HostAnswer<unknown>, abort: LazyAbort, timeoutMs: number, started: boolean, telemetry: CallTelemetry): ToolResult | ToolError {
  if (!answer.ok) {
    const error = outcomeOf(call, answer, abort, timeoutMs, started) as ToolError
    telemetry.stage('handler', { error_code: error.code })
    return error
  }
  telemetry.stage('handler')
  const result = resultOf(call, answer.value)
  if (isToolError(result)) {
    telemetry.stage('output', { error_code: result.code })
    return result
  }
  telemetry.stage('output')
  if (telemetry.recordSizes) telemetry.sizes(sizesOf(call, answer.value, result.structured))
  return result
}

/**
 * The UTF-8 byte sizes of a successful call's JSON records: the compact record and the handler's
 * full record for a compact call of a viewed tool, else the full (or single) record returned (the
 * validated copy the caller receives). On a compact call no copy of the full record is made: its
 * size is counted from the handler's record through its own data properties only, so no getter
 * is read again and no `toJSON` is called (a record with either has no full size).
 */
function sizesOf(call: Call, record: unknown, structured: unknown): TelemetryResultSizes {
  const returned = jsonBytes(structured)
  if (call.tool.kind === 'viewed' && call.view === 'compact') {
    const full = dataBytes(record)
    return full === undefined ? { compact: returned } : { compact: returned, full }
  }
  return { full: returned }
}

/** Deepest nesting {@link dataBytes} walks (a validated record is far shallower); deeper counts nothing. */
const MAX_SIZE_DEPTH = 256

/**
 * The UTF-8 size of a plain JSON value's JSON text, read through property descriptors: `undefined`
 * for an accessor, a `toJSON`, a value JSON cannot write, or a throw (a Proxy): what it cannot
 * measure without running the handler's code again.
 */
function dataBytes(value: unknown): number | undefined {
  try {
    const size = dataSize(value, 0)
    return size < 0 ? undefined : size
  } catch {
    return undefined
  }
}

/** {@link dataBytes}, `-1` for what it does not measure. */
function dataSize(value: unknown, depth: number): number {
  if (value === null) return 4
  switch (typeof value) {
    case 'string':
      return stringSize(value)
    case 'number':
      return Number.isFinite(value) ? String(value).length : -1
    case 'boolean':
      return value ? 4 : 5
    case 'object':
      break
    default:
      return -1
  }
  if (depth >= MAX_SIZE_DEPTH) return -1
  // Only plain objects and arrays: another prototype may write itself otherwise (a `Date`'s `toJSON`).
  const prototype = Object.getPrototypeOf(value)
  const array = Array.isArray(value)
  if (prototype !== (array ? Array.prototype : Object.prototype) && prototype !== null) return -1
  const object = value as Record<string, unknown>
  const keys = Object.keys(object)
  if (array) {
    const length = (value as unknown[]).length
    // An array with a hole or an extra own key is not measured.
    if (keys.length !== length) return -1
    let size = 2 + Math.max(0, length - 1)
    for (let index = 0; index < length; index++) {
      const item = memberSize(object, keys[index]!, depth)
      if (item < 0) return -1
      size += item
    }
    return size
  }
  let size = 2
  let members = 0
  for (const key of keys) {
    if (key === 'toJSON') return -1
    const descriptor = Object.getOwnPropertyDescriptor(object, key)!
    if (descriptor.get !== undefined || descriptor.set !== undefined) return -1
    if (descriptor.value === undefined) continue
    const item = dataSize(descriptor.value, depth + 1)
    if (item < 0) return -1
    size += stringSize(key) + 1 + item
    members++
  }
  return size + Math.max(0, members - 1)
}

/** The size of an array member read by its descriptor (an accessor is not measured). */
function memberSize(object: Record<string, unknown>, key: string, depth: number): number {
  const descriptor = Object.getOwnPropertyDescriptor(object, key)!
  if (descriptor.get !== undefined || descriptor.set !== undefined) return -1
  return descriptor.value === undefined ? -1 : dataSize(descriptor.value, depth + 1)
}

/** The UTF-8 size of a string's JSON text (quotes and escapes as `JSON.stringify` writes them). */
function stringSize(text: string): number {
  let size = 2
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code < 0x80) {
      if (code === 0x22 || code === 0x5c || code === 0x08 || code === 0x0c || code === 0x0a || code === 0x0d || code === 0x09) size += 2
      else size += code < 0x20 ? 6 : 1
    } else if (code < 0x800) {
      size += 2
    } else if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        size += 4
        index++
      } else {
        size += 6
      }
    } else {
      size += code >= 0xdc00 && code <= 0xdfff ? 6 : 3
    }
  }
  return size
}

/** The UTF-8 size of a value's JSON text; `undefined` when it cannot be written (the handler's record read through a getter that now throws). */
function jsonBytes(value: unknown): number | undefined {
  try {
    const text = JSON.stringify(value)
    return text === undefined ? undefined : Buffer.byteLength(text, 'utf8')
  } catch {
    return undefined
  }
}

/**
 * The handler's `context`: its fields are own data properties (`result_view` only for a viewed
 * tool), and `signal` is a getter of the prototype that makes the `AbortSignal` on first read, so
 * a handler that never reads it costs no `AbortController`. (A getter in an object literal would
 * do the same, but V8 makes every such object through the runtime, and a call then costs about
 * twice as much, most of it in the garbage collector.)
 */
class HandlerContext implements ToolContext {
  readonly tool_id: string
  readonly tool_call_id: string
  readonly scope: ToolContext['scope']
  declare readonly result_view?: ToolContext['result_view']
  readonly #abort: LazyAbort

  constructor(toolId: string, toolCallId: string, scope: ToolContext['scope'], view: ToolContext['result_view'], abort: LazyAbort) {
    this.tool_id = toolId
    this.tool_call_id = toolCallId
    this.scope = scope
    if (view !== undefined) (this as { result_view?: ToolContext['result_view'] }).result_view = view
    this.#abort = abort
  }

  get signal(): AbortSignal {
    return this.#abort.signal
  }
}

/** What the handler's answer becomes; a budget that ran out or an abort also aborts `context.signal`. */
function outcomeOf(call: Call, answer: HostAnswer<unknown>, abort: LazyAbort, timeoutMs: number, started: boolean): ToolResult | ToolError {
  if (answer.ok) return resultOf(call, answer.value)
  const { tool } = call
  switch (answer.failure) {
    case 'threw':
      return failure(call, answer.cause)
    case 'unreadable':
      // What the handler returned cannot be read (a Proxy, a thenable whose `then` getter throws):
      // a bad record, not a failing handler.
      return outputUnreadable(tool)
    case 'timeout': {
      const error = handlerTimedOut(tool, timeoutMs)
      abort.abort(error)
      return error
    }
    case 'aborted': {
      const error = callAborted(tool.id, started)
      abort.abort(error)
      return error
    }
  }
}

/**
 * What a handler's throw or rejection becomes. A handler may report a typed failure itself (e.g.
 * tool_not_found from a look-up tool); anything else is `tool_execution_failed`, its message
 * scrubbed of the call's secrets before it is cut.
 */
function failure(call: Call, error: unknown): ToolError {
  return reportedError(error, call.secrets) ?? handlerFailed(call.tool, error, call.secrets)
}

/**
 * A `ToolError` a handler threw on purpose, rebuilt from its fields so that only a registered
 * code with string reason and message passes (a look-alike with a foreign code is a handler
 * failure like any other throw).
 */
function reportedError(error: unknown, secrets: readonly string[]): ToolError | undefined {
  try {
    if (!isToolError(error)) return undefined
    // Each field is read once; details are copied by the checking walk, so a getter that
    // answers differently on a second read has nothing to swap in.
    const { code, reason: given, message: sent, details } = error as { code: unknown; reason: unknown; message: unknown; details: unknown }
    if (typeof code !== 'string' || !Object.prototype.hasOwnProperty.call(ToolErrorCodes, code)) return undefined
    if (typeof given !== 'string' || typeof sent !== 'string') return undefined
    const entry = ToolErrorCodes[code as ToolErrorCode]
    // A code a tool reports shows its reason and message on every surface: the reason must be a
    // snake_case word that holds no secret of the call (else the code's own), the message is
    // scrubbed of the call's secrets before it is cut, as a handler failure's is.
    // The same rule holds for the reason of every other code a handler throws, since reasons are
    // shown unscrubbed on every surface; but one that breaks it does not get one of the code's own
    // reasons (a `tool_denied` would read `result_view_pinned`): the throw is a handler failure.
    const reported = entry.kind === 'reported'
    const fit = REPORTED_REASON.test(given) && scrubText(given, secrets) === given
    if (!fit && !reported) return undefined
    const reason = fit ? given : entry.reasons[0]
    const message = reported ? scrubbedCut(sent, MAX_THROWN_MESSAGE, secrets) : sent
    if (details === undefined) return new ToolError({ code: code as ToolErrorCode, reason, message })
    const copy = ownJsonCopy(details)
    if (typeof copy !== 'object' || copy === null || Array.isArray(copy)) return undefined
    return new ToolError({ code: code as ToolErrorCode, reason, message, details: copy })
  } catch {
    // A look-alike that cannot be read is a handler failure like any other throw.
    return undefined
  }
}
