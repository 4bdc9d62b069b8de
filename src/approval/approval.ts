// The approval engine of a dispatcher, the core of approval/. The folder, by noun: the store
// contracts (stores.ts) and the memory stores; options.ts (what createDispatcher({ approvals })
// takes, resolved); prompt.ts (the host's prompt callback); authorize.ts (the lifecycle step:
// policy, then token, grant, prompt or pending approval); tokens.ts, grants.ts, pending.ts (each
// noun's lifecycle work and its management calls); approvals-api.ts (the management API's shapes
// and argument checks); errors.ts; store-call.ts (the guard every store call goes through);
// held-inputs.ts (the inputs approval records keep, and the real ones held in memory).
//
// One error idiom per layer: lifecycle steps return their `ToolError` (the dispatcher ends the
// call with it; `invoke` never rejects); management methods (`dispatcher.approvals.*`) reject
// with a `ToolError`.
import type { Call } from '../call/call.js'
import type { ToolError } from '../errors/tool-error.js'
import type { Logger } from '../log/logger.js'
import type { ToolPolicy } from '../policy/policy.js'
import type { CallScope, Tool } from '../tool/types.js'
import type { ApprovalOwnerRequest, ApprovalsApi, ListGrantsRequest, ListPendingRequest, MintApprovalTokenRequest, ResolveApprovalRequest, RevokeGrantRequest, SetGrantRequest } from './approvals-api.js'
import { allowsAtOnce, authorize, recheckPolicy, type AuthorizeResult } from './authorize.js'
import { diagnoseCalls, type ApprovalDiagnosis } from './diagnose.js'
import { listGrants, revokeGrant, setGrant } from './grants.js'
import { resolveApprovalOptions, type ApprovalOptions, type DispatchHost, type ResolvedApprovals } from './options.js'
import { cancelApproval, listPending, resolveApproval, showApproval } from './pending.js'
import { mintApprovalToken } from './tokens.js'

/** What `createDispatcher` hands the approval engine. */
export interface ApprovalEngineOptions {
  readonly policy?: ToolPolicy
  readonly approvals?: ApprovalOptions
  readonly logger?: Logger
  /** The dispatcher's clock (epoch milliseconds); `approvals.now` wins when both are given. */
  readonly clock?: () => number
}

/** The approval engine of one dispatcher: the lifecycle step and the `dispatcher.approvals` operations. */
export interface ApprovalEngine {
  /** The policy and approval step, on the final input (see `authorize`). */
  authorize(call: Call): Promise<AuthorizeResult>
  /**
   * True when the call needs no approval work at all (see `allowsAtOnce` in authorize.ts): no
   * token, a policy that decides at once and allows, no grant that could match. Awaiting
   * `authorize` would then only cost time.
   */
  allowsAtOnce(call: Call): boolean
  /**
   * Asks the current policy again about an approved call about to run (see `recheckPolicy`):
   * `undefined` when it may run, else the error that ends it.
   */
  recheck(call: Call): Promise<ToolError | undefined>
  /** What the approval step would do with input-free calls of `tools` in a scope (for scoped diagnostics; see `diagnoseCalls`). */
  diagnose(tools: readonly Tool[], scope: Readonly<CallScope>): Promise<ApprovalDiagnosis[]>
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
  const deps = resolveApprovalOptions(options.policy, options.approvals, options.logger, options.clock)
  return Object.freeze({
    authorize: (call: Call) => authorize(call, deps),
    recheck: (call: Call) => recheckPolicy(call, deps),
    allowsAtOnce: (call: Call) => allowsAtOnce(call, deps),
    diagnose: (tools: readonly Tool[], scope: Readonly<CallScope>) => diagnoseCalls(tools, scope, deps),
    api: createApprovalsApi(deps, host),
  })
}

/** Binds the approval operations to a dispatcher's options and catalog. */
function createApprovalsApi(deps: ResolvedApprovals, host: DispatchHost): ApprovalsApi {
  return Object.freeze({
    mintApprovalToken: (request: MintApprovalTokenRequest) => mintApprovalToken(deps, host.tools, request),
    setGrant: (request: SetGrantRequest) => setGrant(deps, host.tools, request),
    listGrants: (request: ListGrantsRequest) => listGrants(deps, request),
    revokeGrant: (request: RevokeGrantRequest) => revokeGrant(deps, request),
    listPending: (request: ListPendingRequest) => listPending(deps, request),
    show: (approvalId: string, request: ApprovalOwnerRequest) => showApproval(deps, approvalId, request),
    resolve: (approvalId: string, request: ResolveApprovalRequest) => resolveApproval(deps, host, approvalId, request),
    cancel: (approvalId: string, request: ApprovalOwnerRequest) => cancelApproval(deps, approvalId, request),
  })
}
