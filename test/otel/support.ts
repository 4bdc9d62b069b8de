// An OpenTelemetry SDK in memory for the telemetry tests: a tracer whose finished spans an
// InMemorySpanExporter keeps, a meter read on demand by a pull MetricReader (no timer), and the
// AsyncLocalStorage context manager, so a handler's own spans can nest under the call's.
import { context, type Attributes } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { MeterProvider, MetricReader, type DataPoint, type Histogram, type MetricData } from '@opentelemetry/sdk-metrics'

/** A reader that collects only when asked. */
class PullReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve()
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve()
  }
}

let manager: AsyncLocalStorageContextManager | undefined

/** Registers the AsyncLocalStorage context manager once per test file's process. */
export function enableContext(): void {
  if (manager !== undefined) return
  manager = new AsyncLocalStorageContextManager().enable()
  context.setGlobalContextManager(manager)
}

export interface Harness {
  readonly provider: BasicTracerProvider
  readonly tracer: ReturnType<BasicTracerProvider['getTracer']>
  readonly meter: ReturnType<MeterProvider['getMeter']>
  spans(): ReadableSpan[]
  metrics(): Promise<MetricData[]>
  /** Every attribute, event, link and status text of the spans, and every metric point's attributes, as one JSON text. */
  everything(): Promise<string>
}

export function otelHarness(): Harness {
  enableContext()
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  const reader = new PullReader()
  const meterProvider = new MeterProvider({ readers: [reader] })
  const metrics = async (): Promise<MetricData[]> => {
    const { resourceMetrics } = await reader.collect()
    return resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics)
  }
  return {
    provider,
    tracer: provider.getTracer('test'),
    meter: meterProvider.getMeter('test'),
    spans: () => exporter.getFinishedSpans(),
    metrics,
    async everything() {
      const spans = exporter.getFinishedSpans().map((span) => ({
        name: span.name,
        attributes: span.attributes,
        status: span.status,
        events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
        links: span.links.map((link) => link.attributes),
      }))
      const points = (await metrics()).map((metric) => ({ name: metric.descriptor.name, points: metric.dataPoints.map((point) => point.attributes) }))
      return JSON.stringify({ spans, points })
    },
  }
}

/** The one metric of that name (throws when it is missing). */
export function metricNamed(metrics: MetricData[], name: string): MetricData {
  const found = metrics.find((metric) => metric.descriptor.name === name)
  if (found === undefined) throw new Error(`no metric ${name} (have ${metrics.map((m) => m.descriptor.name).join(', ')})`)
  return found
}

/** The data points of a metric whose attributes include `subset`. */
export function pointsWith(metric: MetricData, subset: Attributes): DataPoint<unknown>[] {
  return (metric.dataPoints as DataPoint<unknown>[]).filter((point) => Object.entries(subset).every(([key, value]) => point.attributes[key] === value))
}

/** The count of a histogram point. */
export const histogramCount = (point: DataPoint<unknown>): number => (point.value as Histogram).count

/** The events of a span, by name, in order. */
export const eventNames = (span: ReadableSpan): string[] => span.events.map((event) => event.name)
