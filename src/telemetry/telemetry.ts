import type { ToolOrigin, View } from '../views/view.js'

/**
 * A call's W3C Trace Context (<https://www.w3.org/TR/trace-context/>): the `traceparent` header's
 * value (`00-<32 hex trace ID>-<16 hex span ID>-<2 hex flags>`) and, when there is one,
 * `tracestate`. A request's `trace_context` names the caller's span (the parent of the call's
 * span); an outcome's names the call's own span (`docs/telemetry.md` "Propagation").
 */
export interface TraceContext {
  /** `00-<trace-id>-<parent-id>-<flags>`, lower-case hex. A malformed one is ignored (a new trace starts), as the W3C text asks. */
  readonly traceparent: string
  /** Vendor entries (`key=value` pairs, comma-separated), passed on as they came. */
  readonly tracestate?: string
}

/**
 * The stages of one call a telemetry records, in lifecycle order (`docs/telemetry.md` "Stages"):
 * `input` (the `result_view` rules, plain JSON, the pinned view and input validation), `pre_call`
 * (the `tool.pre_call` hooks, when any is registered), `authorize` (policy, then token, grant,
 * prompt or pending approval), `handler`, `output` (the full-schema check and the projection),
 * then `post_call` or `post_error` (the observers, when any is registered).
 */
export type TelemetryStage = 'input' | 'pre_call' | 'authorize' | 'handler' | 'output' | 'post_call' | 'post_error'

/**
 * How the `authorize` stage let a call run: the policy allowed it, a single-use token, a
 * remembered grant, the host's prompt, or the approval of a pending approval (a deferred call).
 */
export type AuthorizedBy = 'policy' | 'token' | 'grant' | 'prompt' | 'approval'

/** What a stage reports when it ends (every field optional: only the stage's own facts). */
export interface TelemetryStageFacts {
  /** `authorize`: how the call was let run, or `pending` when it waits on an approval, or `error`. */
  readonly authorized?: AuthorizedBy | 'pending' | 'error'
  /** `pre_call`, `post_call`, `post_error`: how many hook handlers ran. */
  readonly hooks?: number
  /** A stage that ended the call: the error's stable code (never its message). */
  readonly error_code?: string
}

/** The facts of a call when its telemetry starts: nothing of its input. */
export interface TelemetryCallStart {
  /** The requested tool ID (the tool may be unknown). */
  readonly tool_id: string
  /** The call's ID (the request's, or the one the dispatcher generated). */
  readonly tool_call_id: string
  /** The tool's origin, `undefined` when no tool of the catalog has that ID. */
  readonly tool_origin: ToolOrigin | undefined
  /** The caller's trace context (the request's `trace_context`), `undefined` when it sent none. */
  readonly parent: TraceContext | undefined
  /** The pending approval a deferred call runs for (after `dispatcher.approvals.resolve`), else `undefined`. */
  readonly approval_id: string | undefined
}

/** The facts of a call when it ends: codes, words and sizes, never a value of the input, the record or a message. */
export interface TelemetryCallEnd {
  /** The outcome's status. */
  readonly status: 'ok' | 'error' | 'approval_pending'
  /** The selected view (viewed tools), when the input got far enough to select one. */
  readonly view: View | undefined
  /** The error's stable code (`status: 'error'`). */
  readonly error_code?: string
  /** The error's stable reason (`status: 'error'`). */
  readonly error_reason?: string
  /** The approval the call waits on (`status: 'approval_pending'`). */
  readonly approval_id?: string
}

/** Byte sizes (UTF-8 bytes of the record's JSON text) of a successful call's records. */
export interface TelemetryResultSizes {
  /** The compact record's size (viewed tools called for `compact`). */
  readonly compact?: number
  /** The full record's size (viewed tools, either view) or the single result's. */
  readonly full?: number
}

/** One call's recorder, as a {@link DispatchTelemetry} starts it. Its methods should not throw (one that does is dropped for the call). */
export interface CallTelemetry {
  /** The call's own span, as a W3C trace context: what the outcome's `trace_context` carries. */
  readonly trace_context: TraceContext | undefined
  /** Whether it takes {@link CallTelemetry.sizes}: measuring costs a `JSON.stringify` of each record, done only when `true`. */
  readonly recordSizes: boolean
  /** A stage ended (see {@link TelemetryStage}). */
  stage(stage: TelemetryStage, facts?: TelemetryStageFacts): void
  /**
   * The redacted input digest (`sha256:<hex>`) of the call's final input with every sensitive
   * location replaced by `"[REDACTED]"` (the input the events carry), only when the telemetry asked
   * for it (`recordInputDigest`). It is no function of a sensitive value, and so differs from the
   * approval input digest of a call with sensitive fields (`docs/telemetry.md` "Input digest").
   */
  inputDigest(digest: string): void
  /** The sizes of a successful call's records. */
  sizes(sizes: TelemetryResultSizes): void
  /** Runs `run` with the call's span as the active context (the handler, so that its own spans nest under the call's). */
  runActive<T>(run: () => T): T
  /** The call ended. Called once. */
  end(end: TelemetryCallEnd): void
}

/**
 * What `createDispatcher({ telemetry })` takes: the recorder of every call (`docs/telemetry.md`).
 * `result-views/otel`'s `createOtelTelemetry` builds one on OpenTelemetry; without the option the
 * dispatcher records nothing and loads nothing. The dispatcher guards every call into it: a
 * recorder that throws (in `startCall` or any method of its `CallTelemetry`) is dropped for the
 * rest of that call, which runs as if untraced (`runActive` that throws before running its
 * function has it run directly, once); telemetry never changes an outcome (`docs/telemetry.md`
 * "A failing recorder").
 */
export interface DispatchTelemetry {
  /** Whether calls report their input digest (`CallTelemetry.inputDigest`). */
  readonly recordInputDigest: boolean
  /** Starts the recorder of one call. */
  startCall(start: TelemetryCallStart): CallTelemetry
  /** A pending approval this dispatcher opened is no longer pending (resolved, cancelled, expired). */
  approvalSettled(approvalId: string): void
}
