import { UsageError, isUsageError, type UsageProblem } from 'result-views'

/**
 * Thrown by `createHttpHandler` and `createFetchHandler` for a misuse of this entry (never for a
 * request: those are answered with an HTTP error). `code` is always `'http_options_invalid'`;
 * `problems` lists every problem at once, each at a JSON Pointer into the arguments
 * (`/dispatcher`, `/options/basePath`, `/options/maxBodyBytes`, ...). See `docs/http.md`
 * "Options".
 */
export class HttpOptionsError extends UsageError {
  /** The class name, for logs. */
  override readonly name = 'HttpOptionsError'
  /** Always `'http_options_invalid'` (`UsageErrorCodes`). */
  declare readonly code: 'http_options_invalid'

  /** @param problems - every problem found, at least one. */
  constructor(problems: readonly UsageProblem[]) {
    super({ code: 'http_options_invalid', subject: 'http handler configuration', problems })
  }
}

/** True for an {@link HttpOptionsError} from any copy of this library (a `UsageError` brand plus its code). */
export function isHttpOptionsError(value: unknown): value is HttpOptionsError {
  return isUsageError(value) && value.code === 'http_options_invalid'
}
