import { UsageError } from 'result-views'
import { subjectUsageErrorClass, type CodedUsageError } from '../errors/usage-error-class.js'

/**
 * Thrown by the `result-views/contracts` functions (and `assertViewBudget`'s argument checks) for a
 * misuse: an argument that is neither a lock nor a catalog, a lock file that does not have the
 * lock format (or whose digests do not match its schemas), a record that is not a full record of
 * the tool, a bad option. A `UsageError` (root entry) with `code: 'contracts_invalid'`:
 * `problems` lists every problem at a JSON Pointer into the argument named by the subject, each
 * with a problem code (`invalid_catalog`, `invalid_lock`, `digest_mismatch`, `not_full_valid`,
 * `invalid_option`, `unknown_option`, `superseded_digest_conflict`, ...; the list is in
 * `docs/errors.md` "Misuse errors"). See `docs/contracts.md`.
 */
export const ContractsError = subjectUsageErrorClass(UsageError, 'contracts_invalid')

/** An error of the class ContractsError (`new ContractsError(subject, problems, cause?)`; `code: 'contracts_invalid'`). */
export type ContractsError = CodedUsageError<'contracts_invalid'>

/** True for an {@link ContractsError} from any copy of this library (checks its own global brand, not `instanceof`). */
export const isContractsError = ContractsError.is
