import { UsageError } from 'result-views'
import { usageErrorClass, type CodedUsageError } from '../errors/usage-error-class.js'

/**
 * Thrown by `createHttpHandler` and `createFetchHandler` for a misuse of this entry (never for a
 * request: those are answered with an HTTP error). A `UsageError` (root entry) with
 * `code: 'http_options_invalid'`: `problems` lists every problem at once, each with a JSON
 * Pointer into the arguments (`/dispatcher`, `/options/basePath`, `/options/maxBodyBytes`, ...)
 * and a problem code: the options problems every options object shares (`invalid_option`:
 * options that are not an object; `unknown_option`: a key it does not know, here or in
 * `continuations`, with "did you mean"; `unreadable_option`: a getter or Proxy threw, also for the
 * dispatcher), and `invalid_dispatcher`, `invalid_base_path`, `invalid_limit` (also
 * `maxResultBytes` and `continuations`), `invalid_continuation_store` (a `continuationStore` that
 * is not one, or given with `continuations` or without `maxResultBytes`), `invalid_timeout`, `invalid_callback`,
 * `invalid_challenge`, `invalid_logger`.
 * See `docs/http.md` "Options".
 */
export const HttpOptionsError = usageErrorClass(UsageError, 'http_options_invalid')

/** An error of the class HttpOptionsError (`new HttpOptionsError(problems, cause?)`; `code: 'http_options_invalid'`). */
export type HttpOptionsError = CodedUsageError<'http_options_invalid'>

/** True for an {@link HttpOptionsError} from any copy of this library (checks its own global brand, not `instanceof`). */
export const isHttpOptionsError = HttpOptionsError.is
