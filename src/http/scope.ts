import type { CallScope, ToolError } from 'result-views'
import { scopeForbidden } from './errors.js'

/** The four fields of a scope, as the dispatcher names them. */
export const SCOPE_FIELDS = ['workspace_id', 'session_id', 'agent_name', 'profile_id'] as const

/**
 * The scope a request runs with: the fields the request names, with every field the host's
 * `authenticate` fixed. A request that names a fixed field with another value is refused.
 *
 * @param identity - the scope `authenticate` returned (`undefined` without `authenticate`).
 * @param requested - the scope the request names (already checked to hold only string fields).
 * @returns the merged scope (`undefined` when neither names a field), or `tool_denied` /
 *   `scope_forbidden`.
 */
export function mergeScope(identity: Readonly<CallScope> | undefined, requested: Readonly<CallScope> | undefined): CallScope | undefined | ToolError {
  if (identity === undefined) return requested
  const merged: CallScope = { ...requested }
  for (const field of SCOPE_FIELDS) {
    const fixed = identity[field]
    if (fixed === undefined) continue
    if (merged[field] !== undefined && merged[field] !== fixed) return scopeForbidden(field)
    merged[field] = fixed
  }
  return Object.keys(merged).length === 0 ? undefined : merged
}
