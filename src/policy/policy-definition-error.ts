import { defineBrand } from '../errors/brand.js'
import { problemListMessage } from '../errors/problem-list.js'

const brand = defineBrand('result-views.PolicyDefinitionError')

/** One problem found in a policy definition. */
export interface PolicyProblem {
  /** A JSON Pointer (RFC 6901) into the options object, e.g. `/owner`, `/tools/2`, `/policy`. */
  path: string
  /** Stable problem code: `invalid_owner`, `invalid_pattern`, `invalid_list`, `invalid_approval_mode`, `invalid_policy`, `invalid_retired_ids`. */
  code: string
  message: string
}

/**
 * Thrown by `createPatternPolicy`, `intersectPolicies`, `createRetiredIdFilter` and
 * `createDispatcher({ policy })` for a policy that must never decide a call (misuse of the library,
 * never a caller mistake). Lists every problem at once; `code` is always `'policy_definition_invalid'`.
 */
export class PolicyDefinitionError extends Error {
  override readonly name = 'PolicyDefinitionError'
  readonly code = 'policy_definition_invalid' as const
  readonly problems: readonly PolicyProblem[]

  constructor(problems: readonly PolicyProblem[]) {
    super(problemListMessage('policy definition', 'is', problems))
    this.problems = problems
    brand.mark(this)
  }
}

/** True for a {@link PolicyDefinitionError} from any copy of this library. */
export function isPolicyDefinitionError(value: unknown): value is PolicyDefinitionError {
  return brand.has(value)
}
