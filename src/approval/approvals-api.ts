import type { ApprovalGrant } from './grant-store.js'
import { listGrants, revokeGrant, setGrant, type ListGrantsRequest, type RevokeGrantRequest, type SetGrantRequest } from './manage-grants.js'
import { cancelApproval, resolveApproval, showApproval, type ApprovalOwnerRequest, type ResolveApprovalRequest } from './manage-pending.js'
import { mintApprovalToken, type MintApprovalTokenRequest, type MintedApprovalToken } from './mint-token.js'
import type { DispatchHost, ResolvedApprovals } from './options.js'
import type { PendingApprovalView } from './pending.js'

/**
 * The approval operations of a dispatcher, `dispatcher.approvals` (DESIGN.md "Interface shapes";
 * spec 001 "Approval-gated tools", "Pending command-palette approvals", "Remembered native-tool
 * decisions"). Every method rejects with a `ToolError` for a bad argument or a failing store;
 * none ever returns or logs an approval token except `mintApprovalToken`, once.
 */
export interface ApprovalsApi {
  /**
   * Mints a single-use approval token bound to the tool, the workspace, session and agent of
   * `scope`, and the input digest (without `result_view`). See {@link MintApprovalTokenRequest}.
   */
  mintApprovalToken(request: MintApprovalTokenRequest): Promise<MintedApprovalToken>
  /** Sets an agent- or tool-scope remembered decision in a workspace (never an exact one). */
  setGrant(request: SetGrantRequest): Promise<ApprovalGrant>
  /** Lists a workspace's remembered decisions. */
  listGrants(request: ListGrantsRequest): Promise<readonly ApprovalGrant[]>
  /** Revokes one grant of a workspace; `false` when it holds none with that ID. */
  revokeGrant(request: RevokeGrantRequest): Promise<boolean>
  /** Shows a pending approval to the profile that created it. */
  show(approval_id: string, request: ApprovalOwnerRequest): Promise<PendingApprovalView>
  /** Approves or denies a pending approval (its creator only); an approval runs the call under the current policy. */
  resolve(approval_id: string, request: ResolveApprovalRequest): Promise<PendingApprovalView>
  /** Cancels a pending approval (its creator only). */
  cancel(approval_id: string, request: ApprovalOwnerRequest): Promise<PendingApprovalView>
}

/** Binds the approval operations to a dispatcher's options and catalog. */
export function createApprovalsApi(deps: ResolvedApprovals, host: DispatchHost): ApprovalsApi {
  return Object.freeze({
    mintApprovalToken: (request: MintApprovalTokenRequest) => mintApprovalToken(deps, host.tools, request),
    setGrant: (request: SetGrantRequest) => setGrant(deps, request),
    listGrants: (request: ListGrantsRequest) => listGrants(deps, request),
    revokeGrant: (request: RevokeGrantRequest) => revokeGrant(deps, request),
    show: (approvalId: string, request: ApprovalOwnerRequest) => showApproval(deps, approvalId, request),
    resolve: (approvalId: string, request: ResolveApprovalRequest) => resolveApproval(deps, host, approvalId, request),
    cancel: (approvalId: string, request: ApprovalOwnerRequest) => cancelApproval(deps, approvalId, request),
  })
}
