import type { AbortWatch } from '../async/abort.js'
import type { ToolError } from '../errors/tool-error.js'
import type { SensitivePath } from '../redact/sensitive-paths.js'
import type { CallScope, Tool } from '../tool/types.js'
import type { View } from '../views/view.js'
import type { TraceContext } from '../telemetry/telemetry.js'

/** One call, as `dispatcher.invoke` takes it (`docs/views.md` "Dispatch"). */
export interface InvokeRequest {
/** The ID of the tool to run, as registered with the dispatcher (`tool_not_found` otherwise). */
  tool_id: string
  /** The tool input: a plain JSON object. For viewed tools it may carry `result_view`. */
  input: unknown
/** Who the call runs for; policies, grants, tokens and pending approvals match on it. Default: no scope. */
  scope?: CallScope
  /** Correlates events and results; generated (a random UUID) when absent. */
  tool_call_id?: string
  /** A single-use approval token (`docs/approvals.md` "The order, on the final input"). */
  approval_token?: string
  /** Dotted input paths to redact from every surface but the handler (`docs/hooks.md` "Sensitive input fields"). */
  sensitive_input_fields?: readonly string[]
  /** The view a Loop node pinned; a call whose input selects another view is denied (`docs/hooks.md` "Payloads"). */
  pinned_result_view?: View
  /**
   * Cancels the call: once it aborts, whatever the call waits on (a pre-call hook, the policy, the
   * prompt, the handler) is given up, the handler's `context.signal` is aborted, and `invoke`
   * resolves with `tool_execution_failed` / `call_aborted` (at once when it is aborted already).
   * An approval store call in flight is waited for (within `approvals.timeoutMs`), so no record is
   * left half-written (`docs/views.md` "Time budgets and cancellation").
   */
  signal?: AbortSignal
  /**
   * The caller's W3C trace context (`traceparent`, `tracestate`): with a dispatcher `telemetry`,
   * the call's span is its child; without one it is ignored. A `traceparent` that is malformed is
   * ignored too (a new trace starts); a `trace_context` that is not an object of strings is
   * `request_invalid` (`docs/telemetry.md` "Propagation").
   */
  trace_context?: TraceContext
}

/**
 * The envelope of a successful result (`docs/hooks.md` "Payloads": the record is under
 * `structured`). `Structured` is the record's type: `unknown` from `invoke`, the tool's record
 * type from `invokeTool` (`docs/views.md` "Typed calls").
 */
export interface ToolResult<Structured = unknown> {
  /** The selected view's record. */
  readonly structured: Structured
  /** A short label of the result. */
  readonly preview: string
}

/** A successful call. `result_view` is present only for tools with views; `Structured` types the record (`ToolResult`). */
export interface InvokeOk<Structured = unknown> {
/** The call ran and its record passed the output checks. */
  readonly status: 'ok'
/** The request's `tool_call_id`, or the one the dispatcher generated. */
  readonly tool_call_id: string
/** The selected view's record and its preview. */
  readonly result: ToolResult<Structured>
/** The view `result` holds; present only for tools with views. */
  readonly result_view?: View
  /** The call's span (W3C trace context); present only when the dispatcher has a `telemetry` (`docs/telemetry.md` "Propagation"). */
  readonly trace_context?: TraceContext
}

/** A failed call: every caller or tool mistake ends here, never as a thrown exception. */
export interface InvokeError {
/** The call failed or was refused (the tool may not have run). */
  readonly status: 'error'
/** The request's `tool_call_id`, or the one the dispatcher generated. */
  readonly tool_call_id: string
/** Why, with a stable `code` and `reason` (`docs/errors.md`). */
  readonly error: ToolError
  /** The call's span (W3C trace context); present only when the dispatcher has a `telemetry` (`docs/telemetry.md` "Propagation"). */
  readonly trace_context?: TraceContext
}

/** A call waiting on an approval decision (`docs/approvals.md` "`dispatcher.approvals`"). */
export interface InvokePending {
/** The call waits on a decision; the tool has not run. */
  readonly status: 'approval_pending'
/** The request's `tool_call_id`, or the one the dispatcher generated; the approved call reuses it. */
  readonly tool_call_id: string
/** What `dispatcher.approvals.show`, `resolve` and `cancel` name. */
  readonly approval_id: string
  /** The call's span (W3C trace context), which the deferred call's span links to; present only when the dispatcher has a `telemetry`. */
  readonly trace_context?: TraceContext
}

/** What `invoke` resolves to. */
export type InvokeOutcome = InvokeOk | InvokeError | InvokePending

/**
 * A request as a call holds it: its `signal`, when it has one, is the dispatcher's follower of the
 * caller's (`followSignal`), which the library reads only through `callHost` and `aborted`.
 */
export type CallRequest = Omit<InvokeRequest, 'signal'> & { readonly signal?: AbortWatch }

/**
 * One call as it moves through the lifecycle, after the request was checked and the tool
 * resolved. Internal: stages read it and return an updated copy, never mutate it.
 */
export interface Call {
  readonly request: CallRequest
  readonly tool: Tool
  readonly tool_call_id: string
  readonly scope: Readonly<CallScope>
  /** The input as sent (with `result_view`, if any): what approval prompts show (`docs/approvals.md` "The order, on the final input"). */
  readonly input: Record<string, unknown>
  /** The input the handler gets: validated, without a native tool's `result_view`. */
  readonly handlerInput: unknown
  /** The selected view (viewed tools only). */
  readonly view: View | undefined
  /** The tool's and the call's sensitive input fields, parsed. */
  readonly sensitivePaths: readonly SensitivePath[]
  /** The sensitive values seen in any input of this call (sent or patched), scrubbed from free text. */
  readonly secrets: readonly string[]
}

/** The fields of a call that the stages before the input rules compute (everything but the input and the view). */
export type CallBase = Omit<Call, 'handlerInput' | 'view' | 'input'>
