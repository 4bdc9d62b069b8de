import { createTraceState, isSpanContextValid, type SpanContext } from '@opentelemetry/api'
import type { TraceContext } from 'result-views'

/** `traceparent` (W3C Trace Context): version, trace ID, parent ID, flags, and what a later version may add after them. */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/

/** Longest `tracestate` passed on, in characters (the W3C text's 32 entries of at most 256 + 1 + 256, rounded). */
const MAX_TRACESTATE = 8192

/**
 * The remote span a W3C trace context names, or `undefined` for a malformed `traceparent`
 * (version `ff`, a version-00 value with extra fields, an all-zero trace or parent ID, upper-case
 * hex): the W3C text asks for a new trace then, not a failure (`docs/telemetry.md` "Propagation").
 */
export function spanContextOf(given: TraceContext): SpanContext | undefined {
  const match = TRACEPARENT.exec(given.traceparent)
  if (match === null) return undefined
  const [, version, traceId, spanId, flags, rest] = match
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined
  const context: SpanContext = { traceId: traceId!, spanId: spanId!, traceFlags: Number.parseInt(flags!, 16), isRemote: true }
  if (!isSpanContextValid(context)) return undefined
  const state = given.tracestate
  if (state !== undefined && state.length > 0 && state.length <= MAX_TRACESTATE) {
    try {
      context.traceState = createTraceState(state)
    } catch {
      // A tracestate the API cannot parse is dropped; the parent still counts.
    }
  }
  return context
}

/** The W3C trace context of a span (`00-<trace>-<span>-<flags>`, plus its `tracestate` when it has one); `undefined` for an invalid (no-op) span context. */
export function traceContextOf(span: SpanContext): TraceContext | undefined {
  if (!isSpanContextValid(span)) return undefined
  const traceparent = `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, '0')}`
  const state = span.traceState?.serialize()
  return state === undefined || state.length === 0 ? { traceparent } : { traceparent, tracestate: state }
}
