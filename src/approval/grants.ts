import { randomUUID } from 'node:crypto'
import type { Call } from '../call/call.js'
import type { ToolError } from '../errors/tool-error.js'
import type { CallScope, Tool } from '../tool/types.js'
import { unknownTool } from '../tool/unknown-tool.js'
import { nonEmptyString, oneOf, optionalString, recordOf, type ListGrantsRequest, type RevokeGrantRequest, type SetGrantRequest } from './approvals-api.js'
import { approvalRequestInvalid, rememberedReject } from './errors.js'
import type { ResolvedApprovals } from './options.js'
import { booleanAnswer, grantAnswerFor, grantListAnswer, ignoredAnswer } from './store-answers.js'
import { callStore, type StoreGuard } from './store-call.js'
import { memoryGrantsOfTool } from './memory-stores.js'
import { mostSpecificMatch, type MatchingGrants } from './precedence.js'
import { grantKeyText, type ApprovalGrant, type ApprovalGrantStore, type GrantKey, type GrantScope } from './stores.js'

// Remembered decisions (grants): looked up by the approval step, stored from `_always` prompt
// answers, and set, listed and revoked through the management API.

/**
 * The keys a call is looked up under, most specific first (`docs/approvals.md` "Precedence"):
 * exact (workspace + agent + tool + input digest), then agent scope, then tool scope. A call
 * without `workspace_id` has none: remembered decisions are workspace-scoped. Without an input
 * digest (scoped diagnostics, which have no input) the exact key is left out.
 */
export function grantKeysOf(toolId: string, scope: Readonly<CallScope>, inputDigest: string | undefined): GrantKey[] {
  const workspace_id = scope.workspace_id
  if (workspace_id === undefined) return []
  const agent = scope.agent_name
  const keys: GrantKey[] = []
  if (inputDigest !== undefined) {
    keys.push({ workspace_id, tool_id: toolId, scope: 'exact', ...(agent === undefined ? {} : { agent_name: agent }), input_digest: inputDigest })
  }
  if (agent !== undefined) keys.push({ workspace_id, tool_id: toolId, scope: 'agent', agent_name: agent })
  keys.push({ workspace_id, tool_id: toolId, scope: 'tool' })
  return keys
}

/**
 * Every remembered decision that matches a call, one per scope: all keys are asked (at once), since
 * a reject at any scope blocks the call whatever an allow at another scope says (`approvalVerdict`).
 * No store call for a call without `workspace_id`, nor, on the memory store, for a tool of which
 * the workspace holds no grant; the input digest is computed only when the exact key is asked.
 *
 * @returns the matching grants by scope, or `approval_unavailable` when a lookup fails (fail closed).
 */
export async function findGrants(
  store: ApprovalGrantStore,
  guard: StoreGuard,
  toolId: string,
  scope: Readonly<CallScope>,
  inputDigest: () => string,
): Promise<{ ok: true; grants: MatchingGrants } | { ok: false; error: ToolError }> {
  const workspace = scope.workspace_id
  if (workspace === undefined || memoryGrantsOfTool(store)?.(workspace, toolId) === false) return FOUND_NONE
  const keys = grantKeysOf(toolId, scope, inputDigest())
  const answers = await Promise.all(keys.map((key) => callStore(guard, 'grants', 'get', () => store.get(key), grantAnswerFor(key))))
  const grants: Partial<Record<GrantScope, ApprovalGrant>> = {}
  for (const [index, found] of answers.entries()) {
    if (!found.ok) return found
    if (found.value !== undefined) grants[keys[index]!.scope] = found.value
  }
  return { ok: true, grants }
}

/**
 * The grants of a workspace listing (`ApprovalGrantStore.list`, read by `grantListAnswer`) that
 * match input-free calls of each of `toolIds` in `scope`: agent and tool scope only (exact grants
 * bind one input). For scoped diagnostics, which read the workspace's grants once for every tool.
 */
export function matchListedGrants(listed: readonly ApprovalGrant[], toolIds: readonly string[], scope: Readonly<CallScope>): MatchingGrants[] {
  // Indexed once by key (the first grant of a key wins), so matching is linear in tools + grants.
  const byKey = new Map<string, ApprovalGrant>()
  for (const grant of listed) {
    const text = grantKeyText(grant)
    if (!byKey.has(text)) byKey.set(text, grant)
  }
  return toolIds.map((toolId) => {
    const grants: Partial<Record<GrantScope, ApprovalGrant>> = {}
    for (const key of grantKeysOf(toolId, scope, undefined)) {
      const found = byKey.get(grantKeyText(key))
      if (found !== undefined) grants[key.scope] = found
    }
    return grants
  })
}

const NO_GRANTS: MatchingGrants = Object.freeze({})
const FOUND_NONE = Object.freeze({ ok: true, grants: NO_GRANTS } as const)

/**
 * Refuses to give an approval (mint a token, approve a pending approval) for a call a remembered
 * reject matches (`docs/approvals.md` "Precedence": a supplied token is checked before the
 * remembered decision, so the refusal is made where the token is given).
 *
 * @throws ToolError `approval_forbidden` / `remembered_reject` naming the most specific reject;
 *   `approval_unavailable` when the grant store fails (fail closed).
 */
export async function refuseOverReject(deps: ResolvedApprovals, toolId: string, scope: Readonly<CallScope>, inputDigest: string, approvalId?: string): Promise<void> {
  const found = await findGrants(deps.stores.grants, deps.guard, toolId, scope, () => inputDigest)
  if (!found.ok) throw found.error
  const reject = mostSpecificMatch(found.grants, 'reject')
  if (reject !== undefined) throw rememberedReject(toolId, reject, approvalId)
}

/**
 * Stores the exact grant of an `_always` answer: workspace + agent + tool + input digest
 * (`docs/approvals.md` "The order, on the final input"). A call without `workspace_id` has nowhere
 * to remember it: the answer then counts once.
 *
 * @returns `undefined` once stored (or when there is no workspace), or `approval_unavailable` when
 *   the grant store fails.
 */
export async function rememberPromptAnswer(call: Call, digest: string, answer: 'allow_always' | 'reject_always', deps: ResolvedApprovals): Promise<ToolError | undefined> {
  const workspace = call.scope.workspace_id
  if (workspace === undefined) return undefined
  const agent = call.scope.agent_name
  const grant: ApprovalGrant = {
    grant_id: randomUUID(),
    workspace_id: workspace,
    tool_id: call.tool.id,
    scope: 'exact',
    ...(agent === undefined ? {} : { agent_name: agent }),
    input_digest: digest,
    decision: answer === 'allow_always' ? 'allow' : 'reject',
    origin: 'prompt',
    created_at: new Date(deps.now()).toISOString(),
  }
  const put = await callStore(deps.guard, 'grants', 'put', () => deps.stores.grants.put(grant), ignoredAnswer)
  return put.ok ? undefined : put.error
}

/**
 * Sets a wider remembered decision (agent or tool scope), replacing the grant with the same key.
 * An allow only skips prompts the policy would show: it never turns a policy `deny` into an allow.
 * A reject blocks every matching call (`docs/approvals.md` "Precedence").
 *
 * @throws ToolError `approval_request_invalid` (`field_invalid`, `agent_name_required`,
 *   `agent_name_forbidden`, `input_digest_forbidden`); `tool_not_found` / `unknown_tool` for a
 *   `tool_id` the dispatcher does not have (such a grant could never match a call);
 *   `approval_unavailable` when the store fails.
 */
export async function setGrant(deps: ResolvedApprovals, tools: ReadonlyMap<string, Tool>, request: SetGrantRequest): Promise<ApprovalGrant> {
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
  if (!tools.has(tool_id)) throw unknownTool(tool_id)

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
  const put = await callStore(deps.guard, 'grants', 'put', () => deps.stores.grants.put(grant), ignoredAnswer)
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
  const listed = await callStore(deps.guard, 'grants', 'list', () => deps.stores.grants.list(workspace_id), grantListAnswer)
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
  const deleted = await callStore(deps.guard, 'grants', 'delete', () => deps.stores.grants.delete(workspace_id, grant_id), booleanAnswer)
  if (!deleted.ok) throw deleted.error
  return deleted.value
}
