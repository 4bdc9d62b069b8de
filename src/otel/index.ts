/**
 * result-views/otel: traces and metrics of a dispatcher's calls on OpenTelemetry (the optional
 * peer `@opentelemetry/api` 1.x), following the GenAI semantic conventions for tool execution,
 * and never recording a value of a call. See `docs/telemetry.md`.
 *
 * Every export here is public API. Named exports only; no `export *`.
 *
 * @packageDocumentation
 */

export { createOtelTelemetry, MAX_RECORDED_ID, OtelAttributes, OtelMetrics } from './otel-telemetry.js'
export type { OtelStageMode, OtelTelemetryOptions } from './options.js'
export { OtelOptionsError, isOtelOptionsError } from './otel-options-error.js'
export { spanContextOf, traceContextOf } from './trace-context.js'
