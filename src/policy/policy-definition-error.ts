import { UsageError } from '../errors/usage-error.js'
import { usageErrorClass, type CodedUsageError } from '../errors/usage-error-class.js'

/**
 * Thrown by `createPatternPolicy`, `intersectPolicies`, `createRetiredIdFilter` and
 * `createDispatcher({ policy })` for a policy that must never decide a call (misuse of the library,
 * never a caller mistake). A {@link UsageError} with `code: 'policy_definition_invalid'`: `problems`
 * lists every problem at once, each with a JSON Pointer into the options (`/owner`, `/tools/2`,
 * `/policy`) and a problem code: `invalid_owner`, `invalid_pattern`, `invalid_list`,
 * `invalid_approval_mode`, `invalid_policy`, `invalid_retired_ids`, or `invalid_decision` (thrown
 * by an intersection's `decide` for a member's malformed decision, see `intersectPolicies`).
 */
export const PolicyDefinitionError = usageErrorClass(UsageError, 'policy_definition_invalid')

/** An error of the class PolicyDefinitionError (`new PolicyDefinitionError(problems, cause?)`; `code: 'policy_definition_invalid'`). */
export type PolicyDefinitionError = CodedUsageError<'policy_definition_invalid'>

/** True for an {@link PolicyDefinitionError} from any copy of this library (checks its own global brand, not `instanceof`). */
export const isPolicyDefinitionError = PolicyDefinitionError.is
