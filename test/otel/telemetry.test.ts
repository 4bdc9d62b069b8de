// createOtelTelemetry on a dispatcher: the execute_tool span of each call (GenAI names, the view,
// the outcome, the error's code and reason, sizes), its stages for ok, denied, pending, timeout,
// aborted and failed calls, the handler's spans nested under it, the link of a deferred call,
// the metrics, and the options it refuses.
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import Type from 'typebox'
import { afterEach, describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, inputDigest, isUsageError, ToolError, type InvokeOutcome, type ToolPolicy } from 'result-views'
import { createOtelTelemetry, isOtelOptionsError, OtelAttributes as A, OtelMetrics, type OtelTelemetryOptions } from 'result-views/otel'
import { eventNames, histogramCount, metricNamed, otelHarness, pointsWith, type Harness } from './support.js'

const Compact = Type.Object({ id: Type.String() }, { additionalProperties: false })
const Full = Type.Object({ id: Type.String(), body: Type.String() }, { additionalProperties: false })

const readTool = (handler: (input: { id: string }) => unknown = (input) => ({ id: input.id, body: 'a longer body than the id' }), extra: Record<string, unknown> = {}) =>
  defineTool({ id: 'notes__read', description: 'Read a note.', input: Type.Object({ id: Type.String() }, { additionalProperties: false }), output: { compact: Compact, full: Full }, handler: handler as never, ...extra })

const deployTool = () =>
  defineTool({ id: 'ops__deploy', description: 'Deploy.', input: Type.Object({ target: Type.String() }), output: Type.Object({ deployed: Type.String() }), approval: 'required', handler: (input) => ({ deployed: input.target }) })

let harness: Harness
afterEach(async () => {
  await harness?.provider.shutdown()
})

function traced(tools: Parameters<typeof createDispatcher>[0]['tools'], options: Partial<OtelTelemetryOptions> = {}, more: Partial<Parameters<typeof createDispatcher>[0]> = {}) {
  harness = otelHarness()
  const dispatcher = createDispatcher({ tools, telemetry: createOtelTelemetry({ tracer: harness.tracer, meter: harness.meter, ...options }), ...more })
  return dispatcher
}

const only = () => {
  const spans = harness.spans().filter((span) => span.name.startsWith('execute_tool '))
  expect(spans).toHaveLength(1)
  return spans[0]!
}

describe('the execute_tool span', () => {
  it('names the call with the GenAI attributes, the view, the outcome and both sizes; the outcome carries its trace context', async () => {
    const dispatcher = traced([readTool()], { recordSizes: true })
    const outcome = await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' }, tool_call_id: 'call-1' })
    expect(outcome.status).toBe('ok')
    const span = only()
    expect(span.name).toBe('execute_tool notes__read')
    expect(span.kind).toBe(SpanKind.INTERNAL)
    expect(span.attributes).toMatchObject({
      [A.operationName]: 'execute_tool',
      [A.toolName]: 'notes__read',
      [A.toolCallId]: 'call-1',
      [A.toolType]: 'function',
      [A.origin]: 'native',
      [A.view]: 'compact',
      [A.outcome]: 'ok',
      [A.compactBytes]: JSON.stringify({ id: 'n1' }).length,
      [A.fullBytes]: JSON.stringify({ id: 'n1', body: 'a longer body than the id' }).length,
    })
    expect(span.attributes[A.errorType]).toBeUndefined()
    expect(span.status.code).toBe(SpanStatusCode.UNSET)
    expect(eventNames(span)).toEqual(['result_views.input', 'result_views.authorize', 'result_views.handler', 'result_views.output'])
    expect(span.events[1]!.attributes).toEqual({ [A.authorizedBy]: 'policy' })
    const { traceId, spanId } = span.spanContext()
    expect(outcome.trace_context).toEqual({ traceparent: `00-${traceId}-${spanId}-01` })
  })

  it('is the active context inside the handler: the handler\'s own spans nest under it', async () => {
    const dispatcher = traced([
      readTool(async (input) => {
        await trace.getTracer('handler').startActiveSpan('inner', async (inner) => {
          await Promise.resolve()
          inner.end()
        })
        return { id: input.id, body: 'b' }
      }),
    ])
    // The tracer of the handler is the test provider's, reached as the global one.
    trace.setGlobalTracerProvider(harness.provider)
    try {
      await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })
    } finally {
      trace.disable()
    }
    const call = only()
    const inner = harness.spans().find((span) => span.name === 'inner')!
    expect(inner.parentSpanContext?.spanId).toBe(call.spanContext().spanId)
    expect(inner.spanContext().traceId).toBe(call.spanContext().traceId)
  })

  it('a full call records the full size only, a single-result tool its record size', async () => {
    const single = defineTool({ id: 'skills__view', description: 's', input: Type.Object({}), output: Type.Object({ text: Type.String() }), handler: () => ({ text: 'héllo' }) })
    const dispatcher = traced([readTool(), single], { recordSizes: true })
    await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1', result_view: 'full' } })
    await dispatcher.invoke({ tool_id: 'skills__view', input: {} })
    const [full, one] = harness.spans()
    expect(full!.attributes[A.view]).toBe('full')
    expect(full!.attributes[A.compactBytes]).toBeUndefined()
    expect(full!.attributes[A.fullBytes]).toBe(JSON.stringify({ id: 'n1', body: 'a longer body than the id' }).length)
    expect(one!.attributes[A.view]).toBeUndefined()
    expect(one!.attributes[A.fullBytes]).toBe(Buffer.byteLength(JSON.stringify({ text: 'héllo' })))
  })

  it('without telemetry an outcome has no trace_context', async () => {
    const outcome = await createDispatcher({ tools: [readTool()] }).invoke({ tool_id: 'notes__read', input: { id: 'n1' } })
    expect(outcome.status).toBe('ok')
    expect('trace_context' in outcome).toBe(false)
  })

  it('sizes are opt-in: without recordSizes no size is measured', async () => {
    const dispatcher = traced([readTool()])
    await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })
    expect(only().attributes[A.compactBytes]).toBeUndefined()
    expect(only().attributes[A.fullBytes]).toBeUndefined()
    expect((await harness.metrics()).some((metric) => metric.descriptor.name === OtelMetrics.resultSize && metric.dataPoints.length > 0)).toBe(false)
  })

  it('recordInputDigest adds the digest of the final input, and only then', async () => {
    let dispatcher = traced([readTool()], { recordInputDigest: true })
    await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1', result_view: 'full' } })
    expect(only().attributes[A.redactedInputDigest]).toBe(inputDigest({ id: 'n1' }))
    dispatcher = traced([readTool()])
    await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })
    expect(only().attributes[A.redactedInputDigest]).toBeUndefined()
  })
})

describe('stages', () => {
  const errorOf = (outcome: InvokeOutcome) => (outcome.status === 'error' ? { code: outcome.error.code, reason: outcome.error.reason } : outcome.status)

  it('a denied call: input, then authorize with the error code; the span is an error with the code and reason', async () => {
    const policy: ToolPolicy = { decide: () => ({ decision: 'deny', reason: 'not today' }) }
    const dispatcher = traced([readTool()], {}, { policy })
    const outcome = await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })
    expect(errorOf(outcome)).toEqual({ code: 'tool_denied', reason: 'policy_denied' })
    const span = only()
    expect(eventNames(span)).toEqual(['result_views.input', 'result_views.authorize'])
    expect(span.events[1]!.attributes).toEqual({ [A.authorizedBy]: 'error', [A.errorType]: 'tool_denied' })
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'tool_denied' })
    expect(span.attributes).toMatchObject({ [A.outcome]: 'error', [A.errorType]: 'tool_denied', [A.errorReason]: 'policy_denied' })
  })

  it('a failed handler: the handler stage carries the code; an invalid input ends at the input stage', async () => {
    const dispatcher = traced([
      readTool(() => {
        throw new Error('boom')
      }),
    ])
    expect(errorOf(await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } }))).toEqual({ code: 'tool_execution_failed', reason: 'handler_failed' })
    expect(errorOf(await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 7 } }))).toMatchObject({ code: 'tool_invalid_input' })
    const [failed, invalid] = harness.spans()
    expect(eventNames(failed!)).toEqual(['result_views.input', 'result_views.authorize', 'result_views.handler'])
    expect(failed!.events[2]!.attributes).toEqual({ [A.errorType]: 'tool_execution_failed' })
    expect(failed!.attributes[A.errorReason]).toBe('handler_failed')
    expect(eventNames(invalid!)).toEqual(['result_views.input'])
    expect(invalid!.events[0]!.attributes).toEqual({ [A.errorType]: 'tool_invalid_input' })
  })

  it("a tool's own reason, which the registry does not list for its code, is recorded as _OTHER (it may hold a value)", async () => {
    const dispatcher = traced([
      readTool(() => {
        throw new ToolError({ code: 'tool_not_found', reason: 'no_note_abc123', message: 'no note abc123' })
      }),
    ])
    const outcome = await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })
    expect(errorOf(outcome)).toEqual({ code: 'tool_not_found', reason: 'no_note_abc123' })
    expect(only().attributes).toMatchObject({ [A.errorType]: 'tool_not_found', [A.errorReason]: '_OTHER' })
  })

  it('a handler past its budget ends as handler_timeout at the handler stage', async () => {
    const dispatcher = traced([readTool(() => new Promise(() => {}), { handlerTimeoutMs: 5 })])
    expect(errorOf(await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } }))).toEqual({ code: 'tool_execution_failed', reason: 'handler_timeout' })
    const span = only()
    expect(eventNames(span)).toEqual(['result_views.input', 'result_views.authorize', 'result_views.handler'])
    expect(span.attributes[A.errorReason]).toBe('handler_timeout')
  })

  it('an aborted call ends as call_aborted; the handler stage is never reached when it was aborted before', async () => {
    const dispatcher = traced([readTool()])
    const controller = new AbortController()
    controller.abort()
    expect(errorOf(await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' }, signal: controller.signal }))).toEqual({ code: 'tool_execution_failed', reason: 'call_aborted' })
    const span = only()
    expect(span.attributes[A.errorReason]).toBe('call_aborted')
    expect(eventNames(span)).not.toContain('result_views.handler')
  })

  it('hooks add pre_call and post_call stages with their number of handlers', async () => {
    const dispatcher = traced([readTool()], {}, { hooks: { 'tool.pre_call': [() => undefined, () => undefined], 'tool.post_call': [() => undefined] } })
    await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })
    const span = only()
    expect(eventNames(span)).toEqual(['result_views.input', 'result_views.pre_call', 'result_views.authorize', 'result_views.handler', 'result_views.output', 'result_views.post_call'])
    expect(span.events[1]!.attributes).toEqual({ [A.hooks]: 2 })
  })

  it("stages: 'spans' records child spans of the call's span; 'none' records none", async () => {
    let dispatcher = traced([readTool()], { stages: 'spans' })
    await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })
    const call = only()
    const children = harness.spans().filter((span) => span !== call)
    expect(children.map((span) => span.name)).toEqual(['result_views.input', 'result_views.authorize', 'result_views.handler', 'result_views.output'])
    for (const child of children) expect(child.parentSpanContext?.spanId).toBe(call.spanContext().spanId)
    expect(call.events).toEqual([])
    dispatcher = traced([readTool()], { stages: 'none' })
    await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })
    expect(harness.spans()).toHaveLength(1)
    expect(only().events).toEqual([])
  })

  it('an unknown tool is traced as execute_tool _OTHER with its requested ID as gen_ai.tool.name, without a tool type; its metrics say _OTHER', async () => {
    const dispatcher = traced([readTool()])
    await dispatcher.invoke({ tool_id: 'nope__x', input: {} })
    const span = only()
    expect(span.name).toBe('execute_tool _OTHER')
    expect(span.attributes[A.toolName]).toBe('nope__x')
    expect(span.attributes[A.toolType]).toBeUndefined()
    expect(span.attributes[A.errorType]).toBe('tool_not_found')
    const outcomes = metricNamed(await harness.metrics(), OtelMetrics.outcomes)
    expect(pointsWith(outcomes, { [A.toolName]: '_OTHER', [A.errorType]: 'tool_not_found' })).toHaveLength(1)
  })
})

describe('a pending approval and its deferred call', () => {
  it('the pending call ends approval_pending; the approved call links to its span; the gauge counts it up and down', async () => {
    const dispatcher = traced([deployTool()])
    const scope = { profile_id: 'owner' }
    const pending = await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope })
    expect(pending.status).toBe('approval_pending')
    const approvalId = (pending as { approval_id: string }).approval_id
    const opener = only()
    expect(opener.attributes).toMatchObject({ [A.outcome]: 'approval_pending', [A.approvalId]: approvalId })
    expect(opener.status.code).toBe(SpanStatusCode.UNSET)
    expect(opener.events[1]!.attributes).toEqual({ [A.authorizedBy]: 'pending' })
    expect(pending.trace_context?.traceparent).toContain(opener.spanContext().spanId)
    const gauge = async () => pointsWith(metricNamed(await harness.metrics(), OtelMetrics.pendingApprovals), { [A.toolName]: 'ops__deploy' })[0]?.value
    expect(await gauge()).toBe(1)

    const view = await dispatcher.approvals.resolve(approvalId, { profile_id: 'owner', decision: 'approved' })
    expect(view.execution_status).toBe('completed')
    const deferred = harness.spans().find((span) => span !== opener)!
    expect(deferred.name).toBe('execute_tool ops__deploy')
    expect(deferred.links).toHaveLength(1)
    expect(deferred.links[0]!.context.spanId).toBe(opener.spanContext().spanId)
    expect(deferred.attributes).toMatchObject({ [A.approvalId]: approvalId, [A.outcome]: 'ok' })
    // The deferred call reports no input stage (its input rules run again inside the resume): it starts at its authorization.
    expect(eventNames(deferred)).toEqual(['result_views.authorize', 'result_views.handler', 'result_views.output'])
    expect(deferred.events[0]!.attributes).toEqual({ [A.authorizedBy]: 'approval' })
    expect(await gauge()).toBe(0)
  })

  it('a denied or cancelled approval is counted down too', async () => {
    const dispatcher = traced([deployTool()])
    const scope = { profile_id: 'owner' }
    const ids: string[] = []
    for (let i = 0; i < 2; i++) ids.push(((await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: `t${i}` }, scope })) as { approval_id: string }).approval_id)
    const gauge = async () => pointsWith(metricNamed(await harness.metrics(), OtelMetrics.pendingApprovals), {})[0]?.value
    expect(await gauge()).toBe(2)
    await dispatcher.approvals.resolve(ids[0]!, { profile_id: 'owner', decision: 'denied' })
    expect(await gauge()).toBe(1)
    await dispatcher.approvals.cancel(ids[1]!, { profile_id: 'owner' })
    expect(await gauge()).toBe(0)
  })
})

describe('metrics', () => {
  it('the duration histogram by tool, view and outcome; outcomes by code and reason; sizes by view', async () => {
    const policy: ToolPolicy = { decide: (request) => ((request.input as { id?: string }).id === 'deny' ? { decision: 'deny', reason: 'no' } : { decision: 'allow' }) }
    const dispatcher = traced([readTool()], { recordSizes: true }, { policy })
    await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })
    await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n2' } })
    await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n3', result_view: 'full' } })
    await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'deny' } })
    const metrics = await harness.metrics()
    const duration = metricNamed(metrics, OtelMetrics.duration)
    expect(duration.descriptor.unit).toBe('s')
    expect(histogramCount(pointsWith(duration, { [A.toolName]: 'notes__read', [A.view]: 'compact', [A.outcome]: 'ok' })[0]!)).toBe(2)
    expect(histogramCount(pointsWith(duration, { [A.view]: 'full', [A.outcome]: 'ok' })[0]!)).toBe(1)
    expect(histogramCount(pointsWith(duration, { [A.outcome]: 'error', [A.errorType]: 'tool_denied' })[0]!)).toBe(1)
    const outcomes = metricNamed(metrics, OtelMetrics.outcomes)
    expect(pointsWith(outcomes, { [A.outcome]: 'ok' })[0]!.value).toBe(3)
    expect(pointsWith(outcomes, { [A.errorType]: 'tool_denied', [A.errorReason]: 'policy_denied' })[0]!.value).toBe(1)
    const sizes = metricNamed(metrics, OtelMetrics.resultSize)
    expect(sizes.descriptor.unit).toBe('By')
    expect(histogramCount(pointsWith(sizes, { [A.view]: 'compact' })[0]!)).toBe(2)
    // Every ok call records its full record's size (the compact calls' full record too).
    expect(histogramCount(pointsWith(sizes, { [A.view]: 'full' })[0]!)).toBe(3)
  })

  it('a meter alone records metrics and no span; the outcome then has no trace_context', async () => {
    harness = otelHarness()
    const dispatcher = createDispatcher({ tools: [readTool()], telemetry: createOtelTelemetry({ meter: harness.meter }) })
    const outcome = await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })
    expect('trace_context' in outcome).toBe(false)
    expect(harness.spans()).toEqual([])
    expect(pointsWith(metricNamed(await harness.metrics(), OtelMetrics.outcomes), { [A.outcome]: 'ok' })[0]!.value).toBe(1)
  })
})

describe('trace context of a request', () => {
  const parent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'

  it('a traceparent makes the call a child of the remote span; tracestate is passed on', async () => {
    const dispatcher = traced([readTool()])
    const outcome = await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' }, trace_context: { traceparent: parent, tracestate: 'vendor=abc' } })
    const span = only()
    expect(span.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c')
    expect(span.parentSpanContext?.spanId).toBe('b7ad6b7169203331')
    expect(outcome.trace_context).toEqual({ traceparent: `00-0af7651916cd43dd8448eb211c80319c-${span.spanContext().spanId}-01`, tracestate: 'vendor=abc' })
  })

  it.each([
    ['an all-zero trace ID', '00-00000000000000000000000000000000-b7ad6b7169203331-01'],
    ['upper-case hex', '00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01'],
    ['version ff', 'ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'],
    ['extra fields on version 00', `${parent}-extra`],
    ['not a traceparent', 'hello'],
  ])('a malformed traceparent (%s) is ignored: a new trace starts', async (_, traceparent) => {
    const dispatcher = traced([readTool()])
    const outcome = await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' }, trace_context: { traceparent } })
    expect(outcome.status).toBe('ok')
    expect(only().parentSpanContext).toBeUndefined()
  })

  it('a trace_context that is not an object of strings, or has another key, is request_invalid and runs nothing', async () => {
    const calls: unknown[] = []
    const dispatcher = traced([readTool((input) => (calls.push(input), { id: input.id, body: 'b' }))])
    for (const trace_context of [{ traceparent: 7 }, { trace_parent: parent }, 'x', { traceparent: parent, extra: 'y' }]) {
      const outcome = await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' }, trace_context: trace_context as never })
      expect(outcome.status === 'error' && outcome.error.reason).toBe('request_invalid')
    }
    expect(calls).toEqual([])
  })
})

describe('options', () => {
  const problemsOf = (run: () => unknown) => {
    try {
      run()
    } catch (error) {
      if (isOtelOptionsError(error) || isUsageError(error)) return (error as unknown as { code: string; problems: { path: string; code: string; message: string }[] }).problems
      throw error
    }
    throw new Error('nothing thrown')
  }

  it('refuses neither tracer nor meter, a misspelt key, a tracer that is not one and a bad flag, every problem at once', () => {
    expect(problemsOf(() => createOtelTelemetry({}))).toEqual([expect.objectContaining({ path: '/tracer', code: 'invalid_option' })])
    const problems = problemsOf(() => createOtelTelemetry({ tracer: {} as never, recordInputDigests: true, recordSizes: 'yes', stages: 'all' } as never))
    expect(problems.map((p) => [p.path, p.code])).toEqual([
      ['/recordInputDigests', 'unknown_option'],
      ['/tracer', 'invalid_option'],
      ['/recordSizes', 'invalid_option'],
      ['/stages', 'invalid_option'],
    ])
    expect(problems[0]!.message).toContain('recordInputDigest')
  })

  it("'global' takes the global providers' tracer and meter", async () => {
    harness = otelHarness()
    trace.setGlobalTracerProvider(harness.provider)
    try {
      const dispatcher = createDispatcher({ tools: [readTool()], telemetry: createOtelTelemetry({ tracer: 'global' }) })
      await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' } })
    } finally {
      trace.disable()
    }
    expect(only().instrumentationScope.name).toBe('result-views')
  })

  it('a dispatcher refuses a telemetry that is not a recorder', () => {
    const problems = problemsOf(() => createDispatcher({ tools: [], telemetry: { tracer: {} } as never }))
    expect(problems).toEqual([expect.objectContaining({ path: '/telemetry', code: 'invalid_option' })])
  })
})
