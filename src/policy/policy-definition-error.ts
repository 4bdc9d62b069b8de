import { defineBrand } from '../errors/brand.js'
import { UsageError, type UsageProblem } from '../errors/usage-error.js'

const brand = defineBrand('result-views.PolicyDefinitionError')

/**
 * Thrown by `createPatternPolicy`, `intersectPolicies`, `createRetiredIdFilter` and
 * `createDispatcher({ policy })` for a policy that must never decide a call (misuse of the library,
 * never a caller mistake). A {@link UsageError} with `code: 'policy_definition_invalid'`: `problems`
 * lists every problem at once, each with a JSON Pointer into the options (`/owner`, `/tools/2`,
 * `/policy`) and a problem code: `invalid_owner`, `invalid_pattern`, `invalid_list`,
 * `invalid_approval_mode`, `invalid_policy`, `invalid_retired_ids`, or `invalid_decision` (thrown
 * by an intersection's `decide` for a member's malformed decision, see `intersectPolicies`).
 */
export class PolicyDefinitionError extends UsageError {
  /** Always `'PolicyDefinitionError'`. */
  override readonly name = 'PolicyDefinitionError'
  /** Always `'policy_definition_invalid'` (`docs/errors.md` "Misuse errors"). */
  declare readonly code: 'policy_definition_invalid'

  /** @param problems - every problem found, at least one. */
  constructor(problems: readonly UsageProblem[]) {
    super({ code: 'policy_definition_invalid', subject: 'policy definition', problems })
    brand.mark(this)
  }
}

/** True for a {@link PolicyDefinitionError} from any copy of this library (checks its own global brand, not `instanceof`). */
export function isPolicyDefinitionError(value: unknown): value is PolicyDefinitionError {
  return brand.has(value)
}
