// The W3C traceparent parse and format of result-views/otel: a formatted context parses back to
// itself, and any text either parses to a valid remote context or is ignored, never a throw.
import fc from 'fast-check'
import { isSpanContextValid, TraceFlags } from '@opentelemetry/api'
import { describe, expect, it } from 'vitest'
import { spanContextOf, traceContextOf } from 'result-views/otel'

const hex = (length: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${length}}$`))

describe('traceparent', () => {
  it('round-trips: a valid span context formats to a traceparent that parses back to it (remote)', () => {
    fc.assert(
      fc.property(hex(32), hex(16), fc.constantFrom(TraceFlags.NONE, TraceFlags.SAMPLED), (traceId, spanId, traceFlags) => {
        const context = { traceId, spanId, traceFlags }
        const formatted = traceContextOf(context)
        if (!isSpanContextValid(context)) {
          expect(formatted).toBeUndefined()
          return
        }
        expect(formatted).toEqual({ traceparent: `00-${traceId}-${spanId}-0${traceFlags}` })
        expect(spanContextOf(formatted!)).toEqual({ ...context, isRemote: true })
      }),
    )
  })

  it('any text is a valid remote context or ignored (undefined), never an exception', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.tuple(hex(2), hex(32), hex(16), hex(2), fc.string()).map((parts) => parts.join('-'))), fc.option(fc.string(), { nil: undefined }), (traceparent, tracestate) => {
        const parsed = spanContextOf(tracestate === undefined ? { traceparent } : { traceparent, tracestate })
        if (parsed !== undefined) {
          expect(isSpanContextValid(parsed)).toBe(true)
          expect(parsed.isRemote).toBe(true)
          expect(traceparent.startsWith('ff-')).toBe(false)
        }
      }),
    )
  })

  it('a later version may add fields; version 00 may not', () => {
    const ids = '4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'
    expect(spanContextOf({ traceparent: `01-${ids}-later` })?.spanId).toBe('00f067aa0ba902b7')
    expect(spanContextOf({ traceparent: `00-${ids}-later` })).toBeUndefined()
  })
})
