import { UsageError, type UsageProblem } from 'result-views'
import { defineBrand } from '../errors/brand.js'

const brand = defineBrand('result-views.HttpOptionsError')

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
export class HttpOptionsError extends UsageError {
  /** Always `'HttpOptionsError'`. */
  override readonly name = 'HttpOptionsError'
  /** Always `'http_options_invalid'` (`docs/errors.md` "Misuse errors"). */
  declare readonly code: 'http_options_invalid'

  /** @param problems - every problem found, at least one. */
  constructor(problems: readonly UsageProblem[]) {
    super({ code: 'http_options_invalid', subject: 'http handler configuration', problems })
    brand.mark(this)
  }
}

/** True for an {@link HttpOptionsError} from any copy of this library (checks its own global brand, not `instanceof`). */
export function isHttpOptionsError(value: unknown): value is HttpOptionsError {
  return brand.has(value)
}
