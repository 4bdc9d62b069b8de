import type { Call } from '../dispatch/call.js'
import type { Logger } from '../log/logger.js'
import type { ToolPolicy } from '../policy/policy.js'
import { createApprovalsApi, type ApprovalsApi } from './approvals-api.js'
import { authorize, type AuthorizeResult } from './authorize.js'
import type { DispatchHost } from './deferred-call.js'
import { resolveApprovalOptions, type ApprovalOptions } from './options.js'

/** What `createDispatcher` hands the approval engine. */
export interface ApprovalEngineOptions {
  readonly policy?: ToolPolicy
  readonly approvals?: ApprovalOptions
  readonly logger?: Logger
}

/** The approval engine of one dispatcher: the lifecycle step and the `dispatcher.approvals` operations. */
export interface ApprovalEngine {
  /** The policy and approval step, on the final input (see `authorize`). */
  authorize(call: Call): Promise<AuthorizeResult>
  readonly api: ApprovalsApi
}

/**
 * Builds the approval engine of a dispatcher from its `policy` and `approvals` options (defaults:
 * `defaultToolPolicy`, in-memory stores).
 *
 * @throws PolicyDefinitionError for a `policy` without `decide`; ApprovalConfigError for bad
 *   `approvals` options.
 */
export function createApprovalEngine(options: ApprovalEngineOptions, host: DispatchHost): ApprovalEngine {
  const deps = resolveApprovalOptions(options.policy, options.approvals, options.logger)
  return Object.freeze({
    authorize: (call: Call) => authorize(call, deps),
    api: createApprovalsApi(deps, host),
  })
}
