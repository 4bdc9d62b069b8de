import { setOwn } from '../json/clone.js'
import { isPlainObject } from '../json/guards.js'
import { optionsTable, unknownOption } from '../options/options.js'

// The one check of a call's scope, shared by the dispatcher (invoke, describe, list) and every
// surface that takes a scope beside it (the HTTP result continuation).

/** The four fields of a scope. */
export const SCOPE_KEYS = ['workspace_id', 'session_id', 'agent_name', 'profile_id'] as const

/** The table of a scope's fields, for "did you mean" on an unknown one. */
const SCOPE_FIELDS = optionsTable(SCOPE_KEYS, 'field')

/**
 * The scope's own fields copied (so later checks and uses read the same values, and nothing is
 * read through a prototype). Anything but a plain object is kept as it is, for the check to
 * refuse. Throws what a getter or Proxy throws: call it inside a guard.
 */
export function copyScopeFields(scope: object): Record<string, unknown> {
  if (!isPlainObject(scope)) return scope as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(scope)) setOwn(out, key, (scope as Record<string, unknown>)[key])
  return out
}

/**
 * Why a scope is malformed, or `undefined`: it must be a plain object whose own fields are among
 * `workspace_id`, `session_id`, `agent_name` and `profile_id`, each a string (or `undefined`). An
 * unknown field is refused rather than dropped: a misspelt `workspaceId` would otherwise run the
 * call with no workspace, which policies and grants match on.
 */
export function scopeProblem(scope: unknown): string | undefined {
  try {
    if (!isPlainObject(scope)) return 'scope must be a plain object of string fields'
    for (const key of Object.keys(scope)) {
      if (!(SCOPE_KEYS as readonly string[]).includes(key)) return `scope has an ${unknownOption(key, SCOPE_FIELDS, '').message}`
      const value = (scope as Record<string, unknown>)[key]
      if (value !== undefined && typeof value !== 'string') return `scope field ${key} must be a string`
    }
    return undefined
  } catch {
    return 'the scope could not be read (a getter or a Proxy threw)'
  }
}
