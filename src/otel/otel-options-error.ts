import { UsageError } from 'result-views'
import { usageErrorClass, type CodedUsageError } from '../errors/usage-error-class.js'

/**
 * Thrown by `createOtelTelemetry` for options it cannot use. A `UsageError` (root entry) with
 * `code: 'otel_options_invalid'`: `problems` lists every problem at once, each with a JSON
 * Pointer into the options (`/tracer`, `/meter`, `/recordInputDigest`, ...) and a problem code
 * (`invalid_option`, `unknown_option` with "did you mean", `unreadable_option`). See
 * `docs/telemetry.md` "Options".
 */
export const OtelOptionsError = usageErrorClass(UsageError, 'otel_options_invalid')

/** An error of the class OtelOptionsError (`new OtelOptionsError(problems, cause?)`; `code: 'otel_options_invalid'`). */
export type OtelOptionsError = CodedUsageError<'otel_options_invalid'>

/** True for an {@link OtelOptionsError} from any copy of this library (checks its own global brand, not `instanceof`). */
export const isOtelOptionsError = OtelOptionsError.is
