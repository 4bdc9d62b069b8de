import { context, metrics, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Counter, type Histogram, type Link, type Meter, type Span, type SpanContext, type Tracer, type UpDownCounter } from '@opentelemetry/api'
import type {
  CallTelemetry,
  DispatchTelemetry,
  TelemetryCallEnd,
  TelemetryCallStart,
  TelemetryResultSizes,
  TelemetryStage,
  TelemetryStageFacts,
  TraceContext,
} from 'result-views'
import { readOtelOptions, SCOPE_NAME, type OtelStageMode, type OtelTelemetryOptions, type ReadOtelOptions } from './options.js'
import { spanContextOf, traceContextOf } from './trace-context.js'

/** The attribute names the telemetry writes (`docs/telemetry.md` "Attributes"). */
export const OtelAttributes = Object.freeze({
  operationName: 'gen_ai.operation.name',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  errorType: 'error.type',
  origin: 'result_views.tool.origin',
  view: 'result_views.view',
  outcome: 'result_views.outcome',
  errorReason: 'result_views.error.reason',
  approvalId: 'result_views.approval_id',
  redactedInputDigest: 'result_views.redacted_input_digest',
  compactBytes: 'result_views.compact.bytes',
  fullBytes: 'result_views.full.bytes',
  authorizedBy: 'result_views.authorized_by',
  hooks: 'result_views.hooks',
  stage: 'result_views.stage',
} as const)

/** The metric names (`docs/telemetry.md` "Metrics"). */
export const OtelMetrics = Object.freeze({
  duration: 'gen_ai.execute_tool.duration',
  outcomes: 'result_views.tool.outcomes',
  resultSize: 'result_views.result.size',
  pendingApprovals: 'result_views.approvals.pending',
} as const)

/** The tool name of metric points for a tool the catalog does not have (the requested ID is the caller's, of unbounded variety). */
const UNKNOWN_TOOL = '_OTHER'

/**
 * Longest caller-chosen ID (a tool ID the catalog does not have, a call ID) written into an
 * attribute, in characters; a longer one is cut (`docs/telemetry.md` "Attributes").
 */
export const MAX_RECORDED_ID = 128

/** `id` cut to {@link MAX_RECORDED_ID} characters (not inside a surrogate pair). */
function recordedId(id: string): string {
  if (id.length <= MAX_RECORDED_ID) return id
  const end = /[\uD800-\uDBFF]/.test(id[MAX_RECORDED_ID - 1]!) ? MAX_RECORDED_ID - 1 : MAX_RECORDED_ID
  return id.slice(0, end)
}

/** Pending approvals remembered for their links and the gauge; past this, the oldest is forgotten (and counted down). */
const MAX_TRACKED_PENDING = 10_000

/** `gen_ai.tool.type` of each origin: a native tool is a `function` the agent calls; extension and MCP tools run elsewhere. */
const TOOL_TYPES = { native: 'function', extension: 'extension', mcp: 'extension' } as const

/** A pending approval this telemetry saw open: the span that opened it, and the tool it counts under. */
interface TrackedPending {
  readonly opener: SpanContext | undefined
  readonly tool: string
}

/** The instruments of a meter. */
interface Instruments {
  readonly duration: Histogram
  readonly outcomes: Counter
  readonly resultSize: Histogram
  readonly pending: UpDownCounter
}

/**
 * Builds the OpenTelemetry recorder a dispatcher takes (`createDispatcher({ telemetry })`,
 * `docs/telemetry.md`): one `execute_tool {tool_id}` span per call, following the GenAI semantic
 * conventions for tool execution, with the lifecycle's stages as span events (or child spans,
 * `stages: 'spans'`), the handler running with the call's span active, and the call metrics.
 * What is recorded are IDs, codes, reasons, views and sizes: never an input or output value nor
 * an error message (`docs/telemetry.md` "What is never recorded"); `recordInputDigest` adds the
 * input digest.
 *
 * @param options - `{ tracer?, meter?, recordInputDigest?, recordSizes?, stages? }` (at least one of `tracer` and `meter`).
 * @throws OtelOptionsError (`code: 'otel_options_invalid'`) for options it cannot use, every problem at once.
 */
export function createOtelTelemetry(options: OtelTelemetryOptions): DispatchTelemetry {
  const read = readOtelOptions(options)
  const { tracer, recordSizes, stages } = read
  // Made on first use, so that a global MeterProvider registered after this is the one used (as
  // the global tracer follows its provider); a meter that cannot make them records no metrics.
  let made: Instruments | null | undefined = read.meter === undefined ? null : undefined
  const instruments = (): Instruments | undefined => {
    if (made === undefined) made = instrumentsFrom(read.meter!)
    return made ?? undefined
  }
  const pending = new Map<string, TrackedPending>()

  function settle(approvalId: string): TrackedPending | undefined {
    const tracked = pending.get(approvalId)
    if (tracked === undefined) return undefined
    pending.delete(approvalId)
    guarded(() => instruments()?.pending.add(-1, { [OtelAttributes.toolName]: tracked.tool }))
    return tracked
  }

  function track(approvalId: string, tracked: TrackedPending): void {
    if (pending.size >= MAX_TRACKED_PENDING) settle(pending.keys().next().value!)
    pending.set(approvalId, tracked)
    guarded(() => instruments()?.pending.add(1, { [OtelAttributes.toolName]: tracked.tool }))
  }

  return Object.freeze({
    recordInputDigest: read.recordInputDigest,
    startCall: (start: TelemetryCallStart): CallTelemetry => {
      const opened = start.approval_id === undefined ? undefined : settle(start.approval_id)
      return new OtelCall(start, tracer, instruments, recordSizes, stages, opened?.opener, track)
    },
    approvalSettled: (approvalId: string): void => void settle(approvalId),
  })
}

/** The instruments of the given meter, or of the global one (resolved now); `null` when the meter throws. */
function instrumentsFrom(meter: NonNullable<ReadOtelOptions['meter']>): Instruments | null {
  try {
    return instrumentsOf(meter === 'global' ? metrics.getMeter(SCOPE_NAME) : meter)
  } catch {
    return null
  }
}

/** Creates the four instruments on a meter. */
function instrumentsOf(meter: Meter): Instruments {
  return {
    duration: meter.createHistogram(OtelMetrics.duration, {
      description: 'Duration of tool executions (one dispatcher call, from request to outcome).',
      unit: 's',
      advice: { explicitBucketBoundaries: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] },
    }),
    outcomes: meter.createCounter(OtelMetrics.outcomes, { description: 'Tool call outcomes, by status, error code and reason.', unit: '{call}' }),
    resultSize: meter.createHistogram(OtelMetrics.resultSize, {
      description: 'UTF-8 size of the JSON text of a successful call\'s records, by view.',
      unit: 'By',
      advice: { explicitBucketBoundaries: [64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304] },
    }),
    pending: meter.createUpDownCounter(OtelMetrics.pendingApprovals, { description: 'Pending approvals this process opened that are still pending.', unit: '{approval}' }),
  }
}

/** Runs `record`; a throw of the host's tracer or meter is dropped (telemetry never changes a call). */
function guarded(record: () => void): void {
  try {
    record()
  } catch {
    // Telemetry is best effort: a broken exporter or instrument must not fail the call.
  }
}

/** The active context, or the root context when the global context manager throws. */
function activeContext(): Context {
  try {
    return context.active()
  } catch {
    return ROOT_CONTEXT
  }
}

/** A span's own context; `undefined` when it is not a span (no `spanContext`, or one that throws or answers no object). */
function spanContextFrom(span: Span): SpanContext | undefined {
  try {
    const own: unknown = span.spanContext()
    return typeof own === 'object' && own !== null ? (own as SpanContext) : undefined
  } catch {
    return undefined
  }
}

/** Milliseconds since the epoch, sub-millisecond (what OpenTelemetry takes as a `TimeInput`). */
const now = (): number => performance.timeOrigin + performance.now()

/** One call's recorder on OpenTelemetry. */
class OtelCall implements CallTelemetry {
  readonly trace_context: TraceContext | undefined
  readonly recordSizes: boolean
  readonly #span: Span | undefined
  readonly #active: Context
  readonly #tracer: Tracer | undefined
  readonly #instruments: () => Instruments | undefined
  readonly #stages: OtelStageMode
  readonly #toolName: string
  readonly #track: (approvalId: string, tracked: TrackedPending) => void
  readonly #started: number
  readonly #opener: SpanContext | undefined
  #last: number

  constructor(
    start: TelemetryCallStart,
    tracer: Tracer | undefined,
    instruments: () => Instruments | undefined,
    recordSizes: boolean,
    stages: OtelStageMode,
    opener: SpanContext | undefined,
    track: (approvalId: string, tracked: TrackedPending) => void,
  ) {
    this.#tracer = tracer
    this.#instruments = instruments
    this.recordSizes = recordSizes
    this.#stages = stages
    this.#track = track
    this.#toolName = start.tool_origin === undefined ? UNKNOWN_TOOL : start.tool_id
    this.#started = this.#last = now()
    const remote = start.parent === undefined ? undefined : spanContextOf(start.parent)
    const active = activeContext()
    const parent = remote === undefined ? active : trace.setSpanContext(active, remote)
    let span: Span | undefined
    if (tracer !== undefined) {
      const attributes: Attributes = {
        [OtelAttributes.operationName]: 'execute_tool',
        [OtelAttributes.toolName]: recordedId(start.tool_id),
        [OtelAttributes.toolCallId]: recordedId(start.tool_call_id),
      }
      if (start.tool_origin !== undefined) {
        attributes[OtelAttributes.toolType] = TOOL_TYPES[start.tool_origin]
        attributes[OtelAttributes.origin] = start.tool_origin
      }
      if (start.approval_id !== undefined) attributes[OtelAttributes.approvalId] = start.approval_id
      const links: Link[] = opener === undefined ? [] : [{ context: opener, attributes: { [OtelAttributes.approvalId]: start.approval_id! } }]
      try {
        // A tool the catalog does not have is named by the caller: its span is `execute_tool _OTHER`.
        span = tracer.startSpan(`execute_tool ${start.tool_origin === undefined ? UNKNOWN_TOOL : start.tool_id}`, { kind: SpanKind.INTERNAL, attributes, links, startTime: this.#started }, parent)
      } catch {
        span = undefined
      }
    }
    // A tracer that answers something other than a span (`{}`, a span whose `spanContext` throws)
    // records nothing: the call runs as if untraced.
    const own = span === undefined ? undefined : spanContextFrom(span)
    if (own === undefined) span = undefined
    this.#span = span
    this.#opener = own
    this.#active = span === undefined ? parent : trace.setSpan(parent, span)
    this.trace_context = own === undefined ? undefined : traceContextOf(own)
  }

  stage(stage: TelemetryStage, facts?: TelemetryStageFacts): void {
    const span = this.#span
    if (span === undefined || this.#stages === 'none') return
    guarded(() => {
      const attributes: Attributes = {}
      if (facts?.authorized !== undefined) attributes[OtelAttributes.authorizedBy] = facts.authorized
      if (facts?.hooks !== undefined) attributes[OtelAttributes.hooks] = facts.hooks
      if (facts?.error_code !== undefined) attributes[OtelAttributes.errorType] = facts.error_code
      const at = now()
      if (this.#stages === 'events') {
        span.addEvent(`result_views.${stage}`, attributes, at)
      } else {
        attributes[OtelAttributes.stage] = stage
        const child = this.#tracer!.startSpan(`result_views.${stage}`, { kind: SpanKind.INTERNAL, attributes, startTime: this.#last }, this.#active)
        if (facts?.error_code !== undefined) child.setStatus({ code: SpanStatusCode.ERROR, message: facts.error_code })
        child.end(at)
      }
      this.#last = at
    })
  }

  inputDigest(digest: string): void {
    guarded(() => this.#span?.setAttribute(OtelAttributes.redactedInputDigest, digest))
  }

  sizes(sizes: TelemetryResultSizes): void {
    if (!this.recordSizes) return
    guarded(() => {
      const span = this.#span
      const attributes = { [OtelAttributes.toolName]: this.#toolName }
      if (sizes.compact !== undefined) {
        span?.setAttribute(OtelAttributes.compactBytes, sizes.compact)
        this.#instruments()?.resultSize.record(sizes.compact, { ...attributes, [OtelAttributes.view]: 'compact' })
      }
      if (sizes.full !== undefined) {
        span?.setAttribute(OtelAttributes.fullBytes, sizes.full)
        this.#instruments()?.resultSize.record(sizes.full, { ...attributes, [OtelAttributes.view]: 'full' })
      }
    })
  }

  runActive<T>(run: () => T): T {
    // A context manager whose `with` throws before it ran `run` has it run directly (once).
    let ran = false
    try {
      return context.with(this.#active, () => {
        ran = true
        return run()
      })
    } catch (error) {
      if (ran) throw error
      return run()
    }
  }

  end(end: TelemetryCallEnd): void {
    const ended = now()
    guarded(() => {
      const span = this.#span
      if (span !== undefined) {
        const attributes: Attributes = { [OtelAttributes.outcome]: end.status }
        if (end.view !== undefined) attributes[OtelAttributes.view] = end.view
        if (end.error_code !== undefined) attributes[OtelAttributes.errorType] = end.error_code
        if (end.error_reason !== undefined) attributes[OtelAttributes.errorReason] = end.error_reason
        if (end.approval_id !== undefined) attributes[OtelAttributes.approvalId] = end.approval_id
        span.setAttributes(attributes)
        if (end.status === 'error') span.setStatus({ code: SpanStatusCode.ERROR, message: end.error_code })
        span.end(ended)
      }
    })
    if (end.status === 'approval_pending' && end.approval_id !== undefined) this.#track(end.approval_id, { opener: this.#opener, tool: this.#toolName })
    const instruments = this.#instruments()
    if (instruments === undefined) return
    guarded(() => {
      const attributes: Attributes = { [OtelAttributes.operationName]: 'execute_tool', [OtelAttributes.toolName]: this.#toolName, [OtelAttributes.outcome]: end.status }
      if (end.view !== undefined) attributes[OtelAttributes.view] = end.view
      if (end.error_code !== undefined) attributes[OtelAttributes.errorType] = end.error_code
      instruments.duration.record((ended - this.#started) / 1000, attributes)
      const counted: Attributes = { [OtelAttributes.toolName]: this.#toolName, [OtelAttributes.outcome]: end.status }
      if (end.error_code !== undefined) counted[OtelAttributes.errorType] = end.error_code
      if (end.error_reason !== undefined) counted[OtelAttributes.errorReason] = end.error_reason
      instruments.outcomes.add(1, counted)
    })
  }
}
