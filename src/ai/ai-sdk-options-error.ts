import { UsageError, type UsageProblem } from 'result-views'
import { defineBrand } from '../errors/brand.js'

const brand = defineBrand('result-views.AiSdkOptionsError')

/**
 * Thrown by `toAiSdkTools` for a misuse of it. A `UsageError` (root entry) with
 * `code: 'ai_sdk_options_invalid'`: a `dispatcher` that is not one, an option of the wrong type
 * or value, an unknown option key. `problems` lists every problem at once, each with a JSON
 * Pointer into `{ dispatcher, options }` (`/options/scope`, `/dispatcher/invoke`) and a problem
 * code: `not_a_dispatcher`, `invalid_type`, `invalid_value`, `unknown_key`, `unreadable`. See
 * `docs/adapters.md` "Options".
 */
export class AiSdkOptionsError extends UsageError {
  /** Always `'AiSdkOptionsError'`. */
  override readonly name = 'AiSdkOptionsError'
  /** Always `'ai_sdk_options_invalid'` (`docs/errors.md` "Misuse errors"). */
  declare readonly code: 'ai_sdk_options_invalid'

  /** @param problems - every problem found, at least one. */
  constructor(problems: readonly UsageProblem[]) {
    super({ code: 'ai_sdk_options_invalid', subject: 'toAiSdkTools(dispatcher, options)', problems })
    brand.mark(this)
  }
}

/** True for an {@link AiSdkOptionsError} from any copy of this library (checks its own global brand, not `instanceof`). */
export function isAiSdkOptionsError(value: unknown): value is AiSdkOptionsError {
  return brand.has(value)
}
