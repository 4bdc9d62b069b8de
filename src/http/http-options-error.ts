import { UsageError } from 'result-views'
import { usageErrorClass, type CodedUsageError } from '../errors/usage-error-class.js'

/**
 * Thrown by `createHttpHandler` and `createFetchHandler` for a misuse of this entry (never for a
 * request: those are answered with an HTTP error). A `UsageError` (root entry) with
 * `code: 'http_options_invalid'`: `problems` lists every problem at once, each with a JSON
 * Pointer into the arguments (`/dispatcher`, `/options/basePath`, `/options/maxBodyBytes`, ...)
 * and a problem code: `invalid_dispatcher`, `invalid_options`, `unknown_key`, `unreadable` (a
 * getter or Proxy threw), `invalid_base_path`, `invalid_limit` (also `maxResultBytes` and
 * `continuations`), `unknown_option` (an unknown `continuations` key, as on `result-views/mcp`),
 * `invalid_timeout`, `invalid_callback`, `invalid_challenge`, `invalid_logger`.
 * See `docs/http.md` "Options".
 */
export const HttpOptionsError = usageErrorClass(UsageError, 'http_options_invalid')

/** An error of the class HttpOptionsError (`new HttpOptionsError(problems, cause?)`; `code: 'http_options_invalid'`). */
export type HttpOptionsError = CodedUsageError<'http_options_invalid'>

/** True for an {@link HttpOptionsError} from any copy of this library (checks its own global brand, not `instanceof`). */
export const isHttpOptionsError = HttpOptionsError.is
