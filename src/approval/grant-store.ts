import type { Awaitable } from './stores.js'

/** A remembered decision. */
export type GrantDecision = 'allow' | 'reject'

/**
 * How wide a grant is (spec 001 "Remembered native-tool decisions"): `exact` matches one
 * workspace, agent, tool and input digest (only prompt answers create it); `agent` matches one
 * agent and tool across every input; `tool` matches the tool across every agent and input.
 */
export type GrantScope = 'exact' | 'agent' | 'tool'

/** The identity of a grant: a store holds at most one grant per key. */
export interface GrantKey {
  readonly workspace_id: string
  readonly tool_id: string
  readonly scope: GrantScope
  /** Present for `exact` and `agent` scope (absent on an `exact` grant of a call without agent). Absent for `tool` scope. */
  readonly agent_name?: string
  /** `sha256:<hex>`; present exactly for `exact` scope. */
  readonly input_digest?: string
}

/** A remembered approval decision, as stored and as `listGrants` returns it. Plain JSON. */
export interface ApprovalGrant extends GrantKey {
  readonly grant_id: string
  readonly decision: GrantDecision
  /** Where it came from: a prompt answer (`allow_always`/`reject_always`) or the management API. */
  readonly origin: 'prompt' | 'management'
  /** ISO 8601 UTC. */
  readonly created_at: string
}

/**
 * The canonical text of a grant key (a JSON array), usable as a unique index. Absent fields are
 * `null`, so an exact grant without agent differs from one with an agent.
 */
export function grantKeyText(key: GrantKey): string {
  return JSON.stringify([key.workspace_id, key.tool_id, key.scope, key.agent_name ?? null, key.input_digest ?? null])
}

/**
 * Where remembered decisions live (DESIGN.md "Interface shapes"); workspace-scoped: nothing in one
 * workspace is visible from another. Contract (`describeApprovalStoreConformance`):
 * - `put` saves a grant, replacing any grant with the same key (`grantKeyText`); returns nothing.
 * - `get` returns a copy of the grant with exactly that key, or `undefined`.
 * - `list` returns copies of every grant of one workspace (any order).
 * - `delete` removes the grant with that ID in that workspace; `true` when one was removed (a
 *   grant of another workspace is never removed).
 * Methods may be sync or async; failures fail the call closed (`approval_unavailable`).
 */
export interface ApprovalGrantStore {
  put(grant: ApprovalGrant): Awaitable<void>
  get(key: GrantKey): Awaitable<ApprovalGrant | undefined>
  list(workspace_id: string): Awaitable<readonly ApprovalGrant[]>
  delete(workspace_id: string, grant_id: string): Awaitable<boolean>
}
