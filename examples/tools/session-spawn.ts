/**
 * The result of `compozy__session_spawn` (spec 000 "Session record tools"): the spawn facts in the
 * compact view; the full view adds the `permissions` the child received, "as before".
 *
 * - Compact keeps `session_id` (the input of every follow-up call on the child), `spawn_role`,
 *   `spawn_depth` and `ttl_expires_at` (a limit the caller must not miss), all required.
 * - `prompt` and `worktree` appear only when the call sends a first prompt or creates a worktree;
 *   "both views carry the same prompt and worktree entries", so they are the same closed schemas
 *   in both views.
 * - Both views are closed: the spawn record is small and fully specified. `permissions` is required
 *   in full (the full record is the record the tool returned before result views).
 */
import Type, { type Static } from 'typebox'
import { PermissionPolicy, Timestamp } from './session-record.js'

/** The first prompt the spawn call sent to the child. */
export const SpawnPrompt = Type.Object(
  { turn_id: Type.String({ minLength: 1 }), status: Type.String() },
  { additionalProperties: false },
)

/** The worktree the spawn call created for the child. */
export const SpawnWorktree = Type.Object(
  { worktree_id: Type.String({ minLength: 1 }), branch: Type.String(), path: Type.String() },
  { additionalProperties: false },
)

/** The permissions the child received: the same four lists as `lineage.permission_policy`. */
export const SpawnPermissions = PermissionPolicy

const spawnFacts = {
  session_id: Type.String({ minLength: 1 }),
  spawn_role: Type.String(),
  spawn_depth: Type.Integer({ minimum: 1 }),
  ttl_expires_at: Timestamp,
  prompt: Type.Optional(SpawnPrompt),
  worktree: Type.Optional(SpawnWorktree),
}

/** The compact spawn record: the spawn facts without the permission echo. */
export const CompactSpawnRecord = Type.Object(spawnFacts, { additionalProperties: false })
export type CompactSpawnRecord = Static<typeof CompactSpawnRecord>

/** The full spawn record: the spawn facts plus `permissions`. */
export const FullSpawnRecord = Type.Object({ ...spawnFacts, permissions: SpawnPermissions }, { additionalProperties: false })
export type FullSpawnRecord = Static<typeof FullSpawnRecord>

/** The `output` of the spawn tool definition. */
export const spawnResultViews = { compact: CompactSpawnRecord, full: FullSpawnRecord }
