import { UsageError } from 'result-views'
import { usageErrorClass, type CodedUsageError } from '../errors/usage-error-class.js'

/**
 * Thrown by `toAiSdkTools` for a misuse of it. A `UsageError` (root entry) with
 * `code: 'ai_sdk_options_invalid'`: a `dispatcher` that is not one, an option of the wrong type
 * or value, an unknown option key. `problems` lists every problem at once, each with a JSON
 * Pointer into `{ dispatcher, options }` (`/options/scope`, `/dispatcher/invoke`) and a problem
 * code: `not_a_dispatcher`, and the options problems `invalid_option`, `unknown_option`, `unreadable_option`. See
 * `docs/adapters.md` "Options".
 */
export const AiSdkOptionsError = usageErrorClass(UsageError, 'ai_sdk_options_invalid')

/** An error of the class AiSdkOptionsError (`new AiSdkOptionsError(problems, cause?)`; `code: 'ai_sdk_options_invalid'`). */
export type AiSdkOptionsError = CodedUsageError<'ai_sdk_options_invalid'>

/** True for an {@link AiSdkOptionsError} from any copy of this library (checks its own global brand, not `instanceof`). */
export const isAiSdkOptionsError = AiSdkOptionsError.is
