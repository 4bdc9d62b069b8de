import { defineBrand } from '../errors/brand.js'
import { problemListMessage } from '../errors/problem-list.js'

const brand = defineBrand('result-views.ApprovalConfigError')

/** One problem in `createDispatcher({ approvals })`. */
export interface ApprovalConfigProblem {
  /** A JSON Pointer into the options, e.g. `/approvals/tokens`, `/approvals/timeoutMs`. */
  path: string
  message: string
}

/**
 * Thrown by `createDispatcher` for `approvals` options it cannot run with (misuse of the library):
 * a store without its methods, a non-function `prompt`, a bad time budget. Lists every problem;
 * `code` is always `'approval_config_invalid'`.
 */
export class ApprovalConfigError extends Error {
  override readonly name = 'ApprovalConfigError'
  readonly code = 'approval_config_invalid' as const
  readonly problems: readonly ApprovalConfigProblem[]

  constructor(problems: readonly ApprovalConfigProblem[]) {
    super(problemListMessage('approvals options', 'are', problems))
    this.problems = problems
    brand.mark(this)
  }
}

/** True for an {@link ApprovalConfigError} from any copy of this library. */
export function isApprovalConfigError(value: unknown): value is ApprovalConfigError {
  return brand.has(value)
}
