// What a break-it review of the OpenTelemetry recorder found, each reproduced: the recorded input
// digest must be no function of a sensitive value; a broken tracer, span, context manager or host
// recorder never changes a call's outcome nor runs its handler twice; a deferred call's outcome
// carries its span; approval_state refusals count the pending gauge down; the global meter is
// resolved at the first call; a caller's long tool ID is cut; sizes are measured on the copy.
import { context, metrics, ROOT_CONTEXT, type ContextManager, type Tracer } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { MeterProvider } from '@opentelemetry/sdk-metrics'
import fc from 'fast-check'
import Type from 'typebox'
import { afterEach, describe, expect, it } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, defineTool, inputDigest, type DispatchTelemetry, type InvokeOutcome, type InvokeRequest } from 'result-views'
import { createOtelTelemetry, OtelAttributes as A, OtelMetrics, type OtelTelemetryOptions } from 'result-views/otel'
import { metricNamed, otelHarness, type Harness } from './support.js'

let harness: Harness
afterEach(async () => {
  await harness?.provider.shutdown()
})

let ran = 0
const echo = () =>
  defineTool({
    id: 'notes__echo',
    description: 'Echo.',
    input: Type.Object({ door: Type.String(), pin: Type.String() }),
    output: { compact: Type.Object({ door: Type.String() }, { additionalProperties: false }), full: Type.Object({ door: Type.String(), n: Type.Number() }) },
    sensitiveInputFields: ['pin'],
    handler: (input: { door: string }) => {
      ran++
      return { door: input.door, n: 1 }
    },
  } as never)
const gated = () =>
  defineTool({ id: 'ops__gated', description: 'Gated.', input: Type.Object({}), output: Type.Object({ ok: Type.Boolean() }), approval: 'required', handler: () => ((ran++), { ok: true }) } as never)

const withoutTrace = (outcome: InvokeOutcome): unknown => {
  const { trace_context: _, ...rest } = outcome as InvokeOutcome & { trace_context?: unknown }
  return rest.status === 'approval_pending' ? { ...rest, approval_id: 'x' } : rest
}

const REQUESTS: readonly InvokeRequest[] = [
  { tool_id: 'notes__echo', input: { door: 'front', pin: '1' }, tool_call_id: 'c1' },
  { tool_id: 'notes__echo', input: { door: 'front', pin: '1', result_view: 'nope' }, tool_call_id: 'c2' },
  { tool_id: 'ops__gated', input: {}, scope: { profile_id: 'p' }, tool_call_id: 'c3' },
  { tool_id: 'zzz', input: {}, tool_call_id: 'c4' },
]

/** Each request's outcome and handler runs on a dispatcher with `telemetry`, next to the untraced dispatcher's. */
async function sameAsUntraced(telemetry: () => DispatchTelemetry): Promise<void> {
  for (const request of REQUESTS) {
    ran = 0
    const plain = withoutTrace(await createDispatcher({ tools: [echo(), gated()] }).invoke(request))
    const plainRuns = ran
    ran = 0
    const dispatcher = createDispatcher({ tools: [echo(), gated()], telemetry: telemetry() })
    const outcome = await dispatcher.invoke(request)
    expect(withoutTrace(outcome)).toEqual(plain)
    expect(ran).toBe(plainRuns)
    if (outcome.status === 'approval_pending') {
      ran = 0
      const view = await dispatcher.approvals.resolve(outcome.approval_id, { decision: 'approved', profile_id: 'p' })
      expect((view as { outcome?: { status: string } }).outcome?.status).toBe('ok')
      expect(ran).toBe(1)
    }
  }
}

const boom = (): never => {
  throw new Error('backend down')
}

/** A tracer whose spans throw from `method`. */
function brokenSpans(tracer: Tracer, method: string): Tracer {
  return {
    startSpan: (name, options, parent) => {
      const span = tracer.startSpan(name, options, parent)
      return new Proxy(span, { get: (target, key) => (key === method ? boom : typeof (target as never)[key] === 'function' ? ((target as never)[key] as Function).bind(target) : (target as never)[key]) })
    },
    startActiveSpan: boom as never,
  }
}

describe('the recorded input digest', () => {
  it('two calls differing only in a sensitive field record the same digest; differing in a non-sensitive field, different ones', async () => {
    harness = otelHarness()
    const dispatcher = createDispatcher({ tools: [echo()], telemetry: createOtelTelemetry({ tracer: harness.tracer, recordInputDigest: true }) })
    await dispatcher.invoke({ tool_id: 'notes__echo', input: { door: 'front', pin: '4821' } })
    await dispatcher.invoke({ tool_id: 'notes__echo', input: { door: 'front', pin: '0000' } })
    await dispatcher.invoke({ tool_id: 'notes__echo', input: { door: 'back', pin: '4821' } })
    // A call's own sensitive field is redacted too.
    await dispatcher.invoke({ tool_id: 'notes__echo', input: { door: 'side', pin: '1' }, sensitive_input_fields: ['door'] })
    await dispatcher.invoke({ tool_id: 'notes__echo', input: { door: 'rear', pin: '2' }, sensitive_input_fields: ['door'] })
    const digests = harness.spans().map((span) => span.attributes[A.redactedInputDigest])
    expect(digests[0]).toBe(inputDigest({ door: 'front', pin: '[REDACTED]' }))
    expect(digests[1]).toBe(digests[0])
    expect(digests[2]).toBe(inputDigest({ door: 'back', pin: '[REDACTED]' }))
    expect(digests[2]).not.toBe(digests[0])
    expect(digests[3]).toBe(inputDigest({ door: '[REDACTED]', pin: '[REDACTED]' }))
    expect(digests[4]).toBe(digests[3])
    expect(digests).not.toContain(inputDigest({ door: 'front', pin: '4821' }))
  })
})

describe('a broken tracer, span or recorder never changes a call', () => {
  it('span.spanContext() throwing: every outcome equals the untraced one, the handler ran once', async () => {
    harness = otelHarness()
    await sameAsUntraced(() => createOtelTelemetry({ tracer: brokenSpans(harness.tracer, 'spanContext'), meter: harness.meter }))
  })

  it('startSpan returning {}: every outcome equals the untraced one, the handler ran once', async () => {
    harness = otelHarness()
    await sameAsUntraced(() => createOtelTelemetry({ tracer: { startSpan: () => ({}), startActiveSpan: boom } as never, meter: harness.meter }))
  })

  it("a custom recorder whose startCall throws: the call runs untraced", async () => {
    await sameAsUntraced(() => ({ recordInputDigest: true, startCall: boom, approvalSettled: boom }))
  })

  for (const method of ['stage', 'inputDigest', 'end', 'runActive', 'runActive after run', 'trace_context'] as const) {
    it(`a custom recorder whose ${method} throws: every outcome equals the untraced one, the handler ran once`, async () => {
      await sameAsUntraced(() => ({
        recordInputDigest: true,
        approvalSettled: boom,
        startCall: () => ({
          get trace_context() {
            return method === 'trace_context' ? boom() : undefined
          },
          recordSizes: true,
          stage: method === 'stage' ? boom : () => {},
          inputDigest: method === 'inputDigest' ? boom : () => {},
          sizes: () => {},
          end: method === 'end' ? boom : () => {},
          runActive: <T>(run: () => T): T => {
            if (method === 'runActive') boom()
            if (method === 'runActive after run') {
              run()
              boom()
            }
            return run()
          },
        }),
      }))
    })
  }
})

describe('a broken global context manager never changes a call', () => {
  afterEach(() => {
    context.disable()
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  })

  for (const which of ['active', 'with'] as const) {
    it(`its ${which}() throwing: every outcome equals the untraced one, the handler ran once`, async () => {
      harness = otelHarness()
      const broken: ContextManager = {
        active: () => (which === 'active' ? boom() : ROOT_CONTEXT),
        with: (ctx, fn, self, ...args) => (which === 'with' ? boom() : fn.call(self, ...args)),
        bind: (_ctx, target) => target,
        enable: () => broken,
        disable: () => broken,
      }
      context.disable()
      context.setGlobalContextManager(broken)
      await sameAsUntraced(() => createOtelTelemetry({ tracer: harness.tracer, meter: harness.meter }))
    })
  }
})

describe('a deferred call keeps the trace', () => {
  it("the outcome of approvals.resolve carries the deferred span's trace_context (show's, read from the store, does not)", async () => {
    harness = otelHarness()
    const dispatcher = createDispatcher({ tools: [gated()], telemetry: createOtelTelemetry({ tracer: harness.tracer }) })
    const pending = await dispatcher.invoke({ tool_id: 'ops__gated', input: {}, scope: { profile_id: 'p' } })
    const approvalId = (pending as { approval_id: string }).approval_id
    const view = (await dispatcher.approvals.resolve(approvalId, { decision: 'approved', profile_id: 'p' })) as { outcome?: InvokeOutcome }
    const deferred = harness.spans().find((span) => span.attributes[A.outcome] === 'ok')!
    const { traceId, spanId } = deferred.spanContext()
    expect(view.outcome?.trace_context).toEqual({ traceparent: `00-${traceId}-${spanId}-01` })
    const shown = (await dispatcher.approvals.show(approvalId, { profile_id: 'p' })) as { outcome?: InvokeOutcome }
    expect(shown.outcome?.status).toBe('ok')
    expect(shown.outcome?.trace_context).toBeUndefined()
  })
})

describe('the pending approvals gauge', () => {
  const gauge = async (): Promise<unknown[]> => metricNamed(await harness.metrics(), OtelMetrics.pendingApprovals).dataPoints.map((point) => point.value)

  for (const action of ['resolve', 'cancel'] as const) {
    it(`counts down an approval that expired when ${action} rejects it with approval_state approval_expired`, async () => {
      harness = otelHarness()
      let now = Date.now()
      const dispatcher = createDispatcher({ tools: [gated()], telemetry: createOtelTelemetry({ meter: harness.meter }), approvals: { ...createMemoryApprovalStores(), now: () => now } })
      const pending = await dispatcher.invoke({ tool_id: 'ops__gated', input: {}, scope: { profile_id: 'p' } })
      expect(await gauge()).toEqual([1])
      now += 24 * 60 * 60_000
      const approvalId = (pending as { approval_id: string }).approval_id
      const settled = action === 'resolve' ? dispatcher.approvals.resolve(approvalId, { decision: 'approved', profile_id: 'p' }) : dispatcher.approvals.cancel(approvalId, { profile_id: 'p' })
      await expect(settled).rejects.toMatchObject({ code: 'approval_state', reason: 'approval_expired' })
      expect(await gauge()).toEqual([0])
    })
  }
})

describe("meter: 'global'", () => {
  afterEach(() => metrics.disable())

  it('a global MeterProvider registered after the dispatcher was created is the one used', async () => {
    harness = otelHarness()
    const dispatcher = createDispatcher({ tools: [echo()], telemetry: createOtelTelemetry({ meter: 'global' }) })
    metrics.setGlobalMeterProvider({ getMeter: () => harness.meter } as unknown as MeterProvider)
    await dispatcher.invoke({ tool_id: 'notes__echo', input: { door: 'front', pin: '1' } })
    expect(metricNamed(await harness.metrics(), OtelMetrics.outcomes).dataPoints).toHaveLength(1)
  })
})

describe('caller-chosen IDs', () => {
  it('a 1 MB unknown tool ID: the span is execute_tool _OTHER and the attribute is cut to 128 characters', async () => {
    harness = otelHarness()
    const dispatcher = createDispatcher({ tools: [echo()], telemetry: createOtelTelemetry({ tracer: harness.tracer }) })
    const id = 'x'.repeat(1 << 20)
    await dispatcher.invoke({ tool_id: id, input: {} })
    const [span] = harness.spans()
    expect(span!.name).toBe('execute_tool _OTHER')
    expect(span!.attributes[A.toolName]).toBe('x'.repeat(128))
  })
})

export type { OtelTelemetryOptions }

describe('recordSizes', () => {
  const sized = (record: () => unknown) =>
    defineTool({
      id: 'notes__sized',
      description: 'Sized.',
      input: Type.Object({}),
      output: { compact: Type.Object({ id: Type.String() }, { additionalProperties: false }), full: Type.Object({ id: Type.String(), body: Type.String() }) },
      handler: record,
    } as never)

  it("a compact call's full size reads no getter of the handler's record again and calls no toJSON", async () => {
    let reads = 0
    let called = 0
    const makers = {
      getter: () => ({ id: 'a', get body() {
        reads++
        return 'b'
      } }),
      toJSON: () => ({ id: 'a', body: 'b', extra: 1, toJSON: () => ((called++), { id: 'z', body: 'x'.repeat(1000) }) }),
    }
    for (const [name, make] of Object.entries(makers)) {
      reads = 0
      const plain = await createDispatcher({ tools: [sized(make)] }).invoke({ tool_id: 'notes__sized', input: { result_view: 'compact' }, tool_call_id: 'c' })
      const untracedReads = reads
      reads = 0
      called = 0
      harness = otelHarness()
      const outcome = await createDispatcher({ tools: [sized(make)], telemetry: createOtelTelemetry({ tracer: harness.tracer, recordSizes: true }) }).invoke({ tool_id: 'notes__sized', input: { result_view: 'compact' }, tool_call_id: 'c' })
      expect(withoutTrace(outcome), name).toEqual(plain)
      expect(reads, name).toBe(untracedReads)
      expect(called, name).toBe(0)
      const [span] = harness.spans()
      expect(span!.attributes[A.compactBytes]).toBe(JSON.stringify({ id: 'a' }).length)
      expect(span!.attributes[A.fullBytes], name).toBeUndefined()
    }
  })

  it("a compact call's full size is the JSON size of any plain JSON record, as JSON.stringify counts it", async () => {
    harness = otelHarness()
    let record: unknown
    const dispatcher = createDispatcher({ tools: [sized(() => record)], telemetry: createOtelTelemetry({ tracer: harness.tracer, recordSizes: true }) })
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
        record = { id: 'a', body: 'b', value }
        const before = harness.spans().length
        await dispatcher.invoke({ tool_id: 'notes__sized', input: { result_view: 'compact' } })
        expect(harness.spans()[before]!.attributes[A.fullBytes]).toBe(Buffer.byteLength(JSON.stringify(record), 'utf8'))
      }),
      { numRuns: 100 },
    )
  })

  it("a compact call's full size counts escapes, multi-byte text and skipped undefined members as JSON.stringify does", async () => {
    const record = { id: 'é', body: 'b"\n\\\t\u0001\u001f\u2028 😀 \ud800 \udc00', n: [1, -0.5, 1e21, null, true, { x: 'ü', 'k"\u0000': 'v' }], skipped: undefined }
    harness = otelHarness()
    await createDispatcher({ tools: [sized(() => record)], telemetry: createOtelTelemetry({ tracer: harness.tracer, recordSizes: true }) }).invoke({ tool_id: 'notes__sized', input: { result_view: 'compact' } })
    expect(harness.spans()[0]!.attributes[A.fullBytes]).toBe(Buffer.byteLength(JSON.stringify(record), 'utf8'))
  })
})
