import { trace, type Meter, type Tracer } from '@opentelemetry/api'
import type { UsageProblem } from 'result-views'
import { invalidOption, optionsTable, readOptions } from '../options/options.js'
import { OtelOptionsError } from './otel-options-error.js'

/** How the stages of a call are recorded: span events (the default), child spans, or not at all. */
export type OtelStageMode = 'events' | 'spans' | 'none'

/** Options of `createOtelTelemetry` (`docs/telemetry.md` "Options"). At least one of `tracer` and `meter`. */
export interface OtelTelemetryOptions {
  /** Records one span per call: a `Tracer` (`provider.getTracer('my-service')`), or `'global'` for the global provider's (`trace.getTracer('result-views')`). Default: no spans. */
  tracer?: Tracer | 'global'
  /**
   * Records the call metrics: a `Meter`, or `'global'` for the global provider's
   * (`metrics.getMeter('result-views')`, resolved and its instruments made at the first call, so a
   * MeterProvider registered after `createOtelTelemetry` is used). Default: no metrics.
   */
  meter?: Meter | 'global'
  /** Records the redacted input digest (`sha256:<hex>` of the final input without `result_view`, every sensitive location replaced by `"[REDACTED]"`: no function of a sensitive value, so not the approval input digest of a call with sensitive fields) as `result_views.redacted_input_digest` (`docs/telemetry.md` "Input digest"). Default `false`. */
  recordInputDigest?: boolean
  /**
   * Records the records' UTF-8 JSON sizes (`result_views.compact.bytes`, `result_views.full.bytes`
   * and the `result_views.result.size` histogram). Costs a `JSON.stringify` of each record
   * returned (and, on a compact call, a walk of the handler's full record through its own data
   * properties: no getter read again, no `toJSON` called): about 40 µs per call on the realistic
   * record of the bench, so it is opt-in (`docs/telemetry.md` "Cost"). Default `false`.
   */
  recordSizes?: boolean
  /** How the stages of a call are recorded (see {@link OtelStageMode}). Default `'events'`. */
  stages?: OtelStageMode
}

/** The options as the telemetry uses them. */
export interface ReadOtelOptions {
  readonly tracer: Tracer | undefined
  /** `'global'`: the global provider's meter, resolved at the first call (a provider registered later is used). */
  readonly meter: Meter | 'global' | undefined
  readonly recordInputDigest: boolean
  readonly recordSizes: boolean
  readonly stages: OtelStageMode
}

const OTEL_OPTIONS = optionsTable(['tracer', 'meter', 'recordInputDigest', 'recordSizes', 'stages'] as const satisfies readonly (keyof OtelTelemetryOptions)[])

/** The instrumentation scope name of the global tracer and meter. */
export const SCOPE_NAME = 'result-views'

const STAGE_MODES: readonly string[] = ['events', 'spans', 'none']

/**
 * Reads the options once each, by the options reader, and checks them: every problem at once.
 *
 * @throws OtelOptionsError (`otel_options_invalid`).
 */
export function readOtelOptions(options: unknown): ReadOtelOptions {
  const problems: UsageProblem[] = []
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new OtelOptionsError([{ path: '', code: 'invalid_option', message: 'options must be an object with a tracer, a meter or both' }])
  }
  const given = readOptions(options, OTEL_OPTIONS, '', problems)
  if (given.tracer === undefined && given.meter === undefined && problems.length === 0) {
    problems.push(invalidOption('', 'tracer', 'give a tracer, a meter or both (without either, leave the dispatcher without telemetry)'))
  }
  if (given.tracer !== undefined && given.tracer !== 'global' && !hasMethods(given.tracer, ['startSpan'])) {
    problems.push(invalidOption('', 'tracer', "tracer must be an OpenTelemetry Tracer (with startSpan) or 'global'"))
  }
  if (given.meter !== undefined && given.meter !== 'global' && !hasMethods(given.meter, ['createHistogram', 'createCounter', 'createUpDownCounter'])) {
    problems.push(invalidOption('', 'meter', "meter must be an OpenTelemetry Meter (with createHistogram, createCounter and createUpDownCounter) or 'global'"))
  }
  for (const flag of ['recordInputDigest', 'recordSizes'] as const) {
    if (given[flag] !== undefined && typeof given[flag] !== 'boolean') problems.push(invalidOption('', flag, `${flag} must be a boolean`))
  }
  if (given.stages !== undefined && !STAGE_MODES.includes(given.stages as string)) problems.push(invalidOption('', 'stages', "stages must be 'events', 'spans' or 'none'"))
  if (problems.length > 0) throw new OtelOptionsError(problems)
  return {
    tracer: given.tracer === 'global' ? trace.getTracer(SCOPE_NAME) : (given.tracer as Tracer | undefined),
    meter: given.meter as Meter | 'global' | undefined,
    recordInputDigest: (given.recordInputDigest as boolean | undefined) ?? false,
    recordSizes: (given.recordSizes as boolean | undefined) ?? false,
    stages: (given.stages as OtelStageMode | undefined) ?? 'events',
  }
}

/** Whether `value` is an object with these methods (read inside a guard: a throwing getter has none). */
function hasMethods(value: unknown, names: readonly string[]): boolean {
  if (typeof value !== 'object' || value === null) return false
  try {
    return names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function')
  } catch {
    return false
  }
}
