/**
 * What telemetry costs per call: the realistic compact call with a scope (bench/hot-paths.ts's
 * headline call, no formats) on a dispatcher without telemetry, and with `createOtelTelemetry` of
 * `result-views/otel` on the OpenTelemetry SDK (a BasicTracerProvider whose SimpleSpanProcessor
 * hands every span to an exporter that drops it, and a MeterProvider with a reader that is never
 * collected, so the instruments aggregate as in a real host): stages as span events (the default),
 * as child spans, with sizes (`recordSizes`), and a tracer alone. Interleaved rounds (bench/harness.ts); the
 * overheads are differences of medians of the same run, in µs per call.
 */
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base'
import { createDispatcher, defineTool, type Dispatcher, type InvokeOutcome } from 'result-views'
import { createOtelTelemetry, type OtelTelemetryOptions } from 'result-views/otel'
import { realisticSessionFull, realisticSessionInput } from './fixtures/realistic-session.js'
import { RealisticCompactResult, RealisticFullResult, RealisticSessionInput, withoutFormats } from './fixtures/realistic-session-schema.js'
import { formatMeasured, formatTable, measureInRounds, median, roundsFor } from './harness.js'

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

/** An exporter that drops every span: what the SDK's span processing costs, without I/O. */
class DroppingExporter implements SpanExporter {
  export(_spans: ReadableSpan[], done: Parameters<SpanExporter['export']>[1]): void {
    done({ code: 0 })
  }
  shutdown(): Promise<void> {
    return Promise.resolve()
  }
}

/** A reader never collected: the instruments record into their aggregations. */
class IdleReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve()
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve()
  }
}

export async function telemetryBench(quick: boolean): Promise<Record<string, number>> {
  const tool = defineTool({
    id: 'bench__plain',
    description: 'The realistic session record, without format keywords.',
    input: RealisticSessionInput,
    output: { compact: withoutFormats(json(RealisticCompactResult)), full: withoutFormats(json(RealisticFullResult)) },
    handler: () => realisticSessionFull,
  })
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new DroppingExporter())] })
  const meterProvider = new MeterProvider({ readers: [new IdleReader()] })
  const tracer = provider.getTracer('bench')
  const meter = meterProvider.getMeter('bench')
  const traced = (options: Partial<OtelTelemetryOptions>): Dispatcher => createDispatcher({ tools: [tool], telemetry: createOtelTelemetry({ tracer, ...options }) })
  const dispatchers: Record<string, Dispatcher> = {
    'no telemetry': createDispatcher({ tools: [tool] }),
    'otel: tracer + meter, stage events': traced({ meter }),
    'otel: tracer + meter, stage child spans': traced({ meter, stages: 'spans' }),
    'otel: tracer + meter, stage events, sizes': traced({ meter, recordSizes: true }),
    'otel: tracer only, stage events': traced({}),
  }
  const scope = { workspace_id: 'ws_storage', session_id: 'sess-coordinator-01', agent_name: 'general', profile_id: 'prof_backend' }
  const request = { tool_id: 'bench__plain', input: structuredClone(realisticSessionInput), scope }
  const ok = (outcome: InvokeOutcome): void => {
    if (outcome.status !== 'ok') throw new Error(`bench telemetry invoke failed: ${JSON.stringify(outcome)}`)
  }
  const measured = await measureInRounds(
    Object.entries(dispatchers).map(([name, dispatcher]) => ({ name, run: async () => ok(await dispatcher.invoke(request)), batch: 20, async: true })),
    roundsFor(quick),
  )
  console.log('\n' + formatMeasured('telemetry: invoke compact with a scope (realistic, no formats)', measured))
  const base = median(measured, 'no telemetry')
  const overhead = (name: string): number => Math.round((median(measured, name) - base) / 10) / 100
  const figures = {
    telemetry_none_us: Math.round(base / 10) / 100,
    telemetry_events_overhead_us: overhead('otel: tracer + meter, stage events'),
    telemetry_child_spans_overhead_us: overhead('otel: tracer + meter, stage child spans'),
    telemetry_events_sizes_overhead_us: overhead('otel: tracer + meter, stage events, sizes'),
    telemetry_tracer_only_overhead_us: overhead('otel: tracer only, stage events'),
  }
  console.log('\n' + formatTable('telemetry overhead per call (µs, median minus the no-telemetry median)', ['figure', 'value'], Object.entries(figures).map(([k, v]) => [k, String(v)])))
  await provider.shutdown()
  await meterProvider.shutdown()
  return figures
}
