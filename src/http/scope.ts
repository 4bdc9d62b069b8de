import type { CallScope, ToolError } from 'result-views'
import { copyScopeFields, SCOPE_KEYS, scopeProblem } from '../call/scope.js'
import { invokeRequestInvalid, scopeForbidden } from './errors.js'

/** The four fields of a scope, as the dispatcher names them. */
export const SCOPE_FIELDS = SCOPE_KEYS

/**
 * The `scope` of a request body, checked as the dispatcher checks an invoke's scope (one check:
 * a plain object whose own fields are among the four scope fields, each a string).
 *
 * @param sent - the body's `scope` field (`undefined` when absent).
 * @param request - the request's name in the message (`invoke`, `continue`).
 * @returns a copy of the scope's own fields, or `undefined` when none was sent.
 * @throws ToolError `tool_invalid_input` / `request_invalid` naming the problem.
 */
export function bodyScope(sent: unknown, request: string): CallScope | undefined {
  if (sent === undefined) return undefined
  let copy: unknown
  try {
    copy = typeof sent === 'object' && sent !== null ? copyScopeFields(sent) : sent
  } catch {
    throw invokeRequestInvalid(`invalid ${request} request: the scope could not be read (a getter or a Proxy threw)`)
  }
  const problem = scopeProblem(copy)
  if (problem !== undefined) throw invokeRequestInvalid(`invalid ${request} request: ${problem}`)
  return copy as CallScope
}

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
