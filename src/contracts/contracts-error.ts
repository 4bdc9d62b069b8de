import { UsageError, type UsageProblem } from 'result-views'
import { defineBrand } from '../errors/brand.js'

const brand = defineBrand('result-views.ContractsError')

/**
 * Thrown by the `result-views/contracts` functions (and `assertViewBudget`'s argument checks) for a
 * misuse: an argument that is neither a lock nor a catalog, a lock file that does not have the
 * lock format (or whose digests do not match its schemas), a record that is not a full record of
 * the tool, a bad option. A `UsageError` (root entry) with `code: 'contracts_invalid'`:
 * `problems` lists every problem at a JSON Pointer into the argument named by the subject, each
 * with a problem code (`invalid_catalog`, `invalid_lock`, `digest_mismatch`, `not_full_valid`,
 * `invalid_options`, `unknown_key`, `superseded_digest_conflict`, ...; the list is in
 * `docs/errors.md` "Misuse errors"). See `docs/contracts.md`.
 */
export class ContractsError extends UsageError {
  /** Always `'ContractsError'`. */
  override readonly name = 'ContractsError'
  /** Always `'contracts_invalid'` (`docs/errors.md` "Misuse errors"). */
  declare readonly code: 'contracts_invalid'

  /**
   * @param subject - what was misused, e.g. `contractLock tools`, `lock file "tool-contracts.lock.json"`.
   * @param problems - every problem found, at least one.
   * @param cause - the underlying error, if any.
   */
  constructor(subject: string, problems: readonly UsageProblem[], cause?: unknown) {
    super({ code: 'contracts_invalid', subject, problems, cause })
    brand.mark(this)
  }
}

/** True for a {@link ContractsError} from any copy of this library (checks its own global brand, not `instanceof`). */
export function isContractsError(value: unknown): value is ContractsError {
  return brand.has(value)
}
