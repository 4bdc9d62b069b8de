import { randomUUID } from 'node:crypto'
import { approvalRequestInvalid } from './errors.js'
import type { ApprovalGrant, GrantDecision } from './grant-store.js'
import type { ResolvedApprovals } from './options.js'
import { nonEmptyString, oneOf, optionalString, recordOf } from './request-checks.js'
import { callStore } from './store-call.js'

/**
 * What `setGrant` takes (spec 001: the PUT body `{tool_id, decision, scope, agent_name?}` plus the
 * workspace). `agent_name` is required for `agent` scope and forbidden for `tool` scope. Never an
 * input digest: exact grants come only from prompt answers. A key whose value is `undefined`
 * counts as absent, for every field (`{ agent_name: undefined }` and `{ input_digest: undefined }`
 * are the same as leaving them out).
 */
export interface SetGrantRequest {
  workspace_id: string
  tool_id: string
  decision: GrantDecision
  scope: 'agent' | 'tool'
  agent_name?: string
}

/** What `listGrants` takes. */
export interface ListGrantsRequest {
  workspace_id: string
  /** Only the grants of this tool. */
  tool_id?: string
}

/** What `revokeGrant` takes. */
export interface RevokeGrantRequest {
  workspace_id: string
  grant_id: string
}

/**
 * Sets a wider remembered decision (agent or tool scope), replacing the grant with the same key.
 * It only skips prompts the policy would show: it never turns a policy `deny` into an allow.
 *
 * @throws ToolError `approval_request_invalid` (`field_invalid`, `agent_name_required`,
 *   `agent_name_forbidden`, `input_digest_forbidden`); `approval_unavailable` when the store fails.
 */
export async function setGrant(deps: ResolvedApprovals, request: SetGrantRequest): Promise<ApprovalGrant> {
  const r = recordOf(request, 'setGrant request', ['workspace_id', 'tool_id', 'decision', 'scope', 'agent_name', 'input_digest'])
  if (r.input_digest !== undefined) {
    throw approvalRequestInvalid('input_digest_forbidden', 'setGrant never accepts an input digest: exact grants come only from prompt answers')
  }
  const workspace_id = nonEmptyString(r, 'workspace_id')
  const tool_id = nonEmptyString(r, 'tool_id')
  const decision = oneOf(r, 'decision', ['allow', 'reject'] as const)
  const scope = oneOf(r, 'scope', ['agent', 'tool'] as const)
  const agent = optionalString(r, 'agent_name')
  if (scope === 'agent' && (agent === undefined || agent.length === 0)) throw approvalRequestInvalid('agent_name_required', 'agent_name is required for scope "agent"')
  if (scope === 'tool' && agent !== undefined) throw approvalRequestInvalid('agent_name_forbidden', 'agent_name is forbidden for scope "tool"')

  const grant: ApprovalGrant = {
    grant_id: randomUUID(),
    workspace_id,
    tool_id,
    scope,
    ...(scope === 'agent' ? { agent_name: agent } : {}),
    decision,
    origin: 'management',
    created_at: new Date(deps.now()).toISOString(),
  }
  const put = await callStore(deps.guard, 'grants', 'put', () => deps.stores.grants.put(grant))
  if (!put.ok) throw put.error
  return grant
}

/**
 * The remembered decisions of one workspace (exact, agent and tool scope), optionally of one tool.
 *
 * @throws ToolError `approval_request_invalid` / `field_invalid`; `approval_unavailable`.
 */
export async function listGrants(deps: ResolvedApprovals, request: ListGrantsRequest): Promise<readonly ApprovalGrant[]> {
  const r = recordOf(request, 'listGrants request', ['workspace_id', 'tool_id'])
  const workspace_id = nonEmptyString(r, 'workspace_id')
  const tool_id = optionalString(r, 'tool_id')
  const listed = await callStore(deps.guard, 'grants', 'list', () => deps.stores.grants.list(workspace_id))
  if (!listed.ok) throw listed.error
  return listed.value.filter((grant) => grant.workspace_id === workspace_id && (tool_id === undefined || grant.tool_id === tool_id))
}

/**
 * Revokes one grant of a workspace (any scope, including exact grants from prompt answers).
 *
 * @returns `true` when a grant was removed, `false` when the workspace holds no grant with that ID.
 * @throws ToolError `approval_request_invalid` / `field_invalid`; `approval_unavailable`.
 */
export async function revokeGrant(deps: ResolvedApprovals, request: RevokeGrantRequest): Promise<boolean> {
  const r = recordOf(request, 'revokeGrant request', ['workspace_id', 'grant_id'])
  const workspace_id = nonEmptyString(r, 'workspace_id')
  const grant_id = nonEmptyString(r, 'grant_id')
  const deleted = await callStore(deps.guard, 'grants', 'delete', () => deps.stores.grants.delete(workspace_id, grant_id))
  if (!deleted.ok) throw deleted.error
  return deleted.value === true
}
