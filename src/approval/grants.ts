import type { CallScope } from '../tool/types.js'
import type { ToolError } from '../errors/tool-error.js'
import type { ApprovalGrant, ApprovalGrantStore, GrantKey } from './grant-store.js'
import { callStore, type StoreGuard } from './store-call.js'

/**
 * The keys a call is looked up under, most specific first (spec 001 "Remembered native-tool
 * decisions"): exact (workspace + agent + tool + input digest), then agent scope, then tool scope.
 * A call without `workspace_id` has none: remembered decisions are workspace-scoped.
 */
export function grantKeysOf(toolId: string, scope: Readonly<CallScope>, inputDigest: string): GrantKey[] {
  const workspace_id = scope.workspace_id
  if (workspace_id === undefined) return []
  const agent = scope.agent_name
  const keys: GrantKey[] = [
    { workspace_id, tool_id: toolId, scope: 'exact', ...(agent === undefined ? {} : { agent_name: agent }), input_digest: inputDigest },
  ]
  if (agent !== undefined) keys.push({ workspace_id, tool_id: toolId, scope: 'agent', agent_name: agent })
  keys.push({ workspace_id, tool_id: toolId, scope: 'tool' })
  return keys
}

/**
 * The most specific remembered decision for a call, or `undefined`. Stops at the first key that
 * holds a grant, so a wider grant never overrides a narrower one.
 *
 * @returns the grant, or `approval_unavailable` when the store fails (fail closed).
 */
export async function findGrant(
  store: ApprovalGrantStore,
  guard: StoreGuard,
  toolId: string,
  scope: Readonly<CallScope>,
  inputDigest: string,
): Promise<{ ok: true; grant: ApprovalGrant | undefined } | { ok: false; error: ToolError }> {
  for (const key of grantKeysOf(toolId, scope, inputDigest)) {
    const found = await callStore(guard, 'grants', 'get', () => store.get(key))
    if (!found.ok) return found
    const grant = found.value
    if (grant !== undefined && grant !== null && matches(grant, key)) return { ok: true, grant }
  }
  return { ok: true, grant: undefined }
}

/** A store's answer is trusted only if it is a grant for exactly the key asked for (`null` read as absent), with a known decision. */
function matches(grant: ApprovalGrant, key: GrantKey): boolean {
  return (
    grant.workspace_id === key.workspace_id &&
    grant.tool_id === key.tool_id &&
    grant.scope === key.scope &&
    (grant.agent_name ?? undefined) === key.agent_name &&
    (grant.input_digest ?? undefined) === key.input_digest &&
    (grant.decision === 'allow' || grant.decision === 'reject')
  )
}
