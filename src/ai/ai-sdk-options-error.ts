import { UsageError, type UsageProblem } from 'result-views'
import { defineBrand } from '../errors/brand.js'

const brand = defineBrand('result-views.AiSdkOptionsError')

/**
 * Thrown by `toAiSdkTools` for a misuse of it (`code: 'ai_sdk_options_invalid'`): a `dispatcher`
 * that is not one, an option of the wrong type or value, an unknown option key. `problems` lists
 * every problem at once, each with a JSON Pointer into `{ dispatcher, options }` (`/options/scope`,
 * `/dispatcher/invoke`). See `docs/adapters.md` "Options".
 */
export class AiSdkOptionsError extends UsageError {
  override readonly name: string = 'AiSdkOptionsError'

  /** @param problems - every problem found, at least one. */
  constructor(problems: readonly UsageProblem[]) {
    super({ code: 'ai_sdk_options_invalid', subject: 'toAiSdkTools(dispatcher, options)', problems })
    brand.mark(this)
  }
}

/** True for an {@link AiSdkOptionsError} from any copy of this library (a global brand, not `instanceof`). */
export function isAiSdkOptionsError(value: unknown): value is AiSdkOptionsError {
  return brand.has(value)
}
