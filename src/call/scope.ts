import { setOwn } from '../json/clone.js'
import { isPlainObject } from '../json/guards.js'
import { optionsTable, unknownOption } from '../options/options.js'
import type { CallScope } from '../tool/types.js'

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
    const read = readScopeFields(scope)
    return typeof read === 'string' ? read : undefined
  } catch {
    return 'the scope could not be read (a getter or a Proxy threw)'
  }
}

/**
 * A scope read in one pass, the one check of a scope (see {@link scopeProblem} for the rule):
 * each own field read once in key order, all of them until a read throws (so a getter that
 * throws is met whatever else is wrong), the first problem in key order reported, and otherwise a frozen scope of the fields that are not
 * `undefined`, in the order of {@link SCOPE_KEYS} (what calls, policies and hooks see). Throws
 * what a getter or Proxy throws: call it inside a guard.
 *
 * @returns the frozen scope, or the problem's message.
 */
export function readScopeFields(scope: unknown): Readonly<CallScope> | string {
  if (!isPlainObject(scope)) return 'scope must be a plain object of string fields'
  let problem: string | undefined
  let workspace: unknown
  let session: unknown
  let agent: unknown
  let profile: unknown
  const keys = Object.keys(scope)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    const value = scope[key]
    if (key === 'workspace_id') workspace = value
    else if (key === 'session_id') session = value
    else if (key === 'agent_name') agent = value
    else if (key === 'profile_id') profile = value
    else {
      problem ??= `scope has an ${unknownOption(key, SCOPE_FIELDS, '').message}`
      continue
    }
    if (value !== undefined && typeof value !== 'string') problem ??= `scope field ${key} must be a string`
  }
  if (problem !== undefined) return problem
  const out: CallScope = {}
  if (workspace !== undefined) out.workspace_id = workspace as string
  if (session !== undefined) out.session_id = session as string
  if (agent !== undefined) out.agent_name = agent as string
  if (profile !== undefined) out.profile_id = profile as string
  return Object.freeze(out)
}
