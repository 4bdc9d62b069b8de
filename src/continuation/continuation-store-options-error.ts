import { UsageError } from 'result-views'
import { usageErrorClass, type CodedUsageError } from '../errors/usage-error-class.js'

/**
 * Thrown by `createMemoryContinuationStore` for bounds it cannot keep results with. A `UsageError`
 * (root entry) with `code: 'continuation_store_options_invalid'`: `problems` lists every problem
 * at once at its JSON Pointer (`/maxEntries`, ...): `invalid_limit` (a bound that is not an integer
 * ≥ 1), and the options problems every options object shares (`invalid_option`, `unknown_option`
 * with "did you mean", `unreadable_option`). See `docs/mcp.md` "Result size limits".
 */
export const ContinuationStoreOptionsError = usageErrorClass(UsageError, 'continuation_store_options_invalid')

/** An error of the class ContinuationStoreOptionsError (`new ContinuationStoreOptionsError(problems, cause?)`; `code: 'continuation_store_options_invalid'`). */
export type ContinuationStoreOptionsError = CodedUsageError<'continuation_store_options_invalid'>

/** True for a {@link ContinuationStoreOptionsError} from any copy of this library (checks its own global brand, not `instanceof`). */
export const isContinuationStoreOptionsError = ContinuationStoreOptionsError.is
