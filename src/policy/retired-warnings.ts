import type { Logger } from '../log/logger.js'

/** Logs a filter's held-back `tools.retired_ids_ignored` warning for one owner, if it still holds one. */
type FilterAnnouncer = (owner: string, logger: Logger) => void
/** Logs the held-back warnings of every owner a policy (or its members) names. */
type PolicyAnnouncer = (logger: Logger) => void

const filters = new WeakMap<object, FilterAnnouncer>()
const policies = new WeakMap<object, PolicyAnnouncer>()

/**
 * Registers how a retired-ID filter created without a logger logs a held-back warning. Used by
 * `createRetiredIdFilter` only.
 */
export function registerFilterAnnouncer(filter: object, announce: FilterAnnouncer): void {
  filters.set(filter, announce)
}

/** The announcer of a filter from `createRetiredIdFilter` (without a logger); `undefined` for anything else. */
export function filterAnnouncer(filter: unknown): FilterAnnouncer | undefined {
  return typeof filter === 'object' && filter !== null ? filters.get(filter) : undefined
}

/**
 * Registers how a policy logs the held-back retired-ID warnings of its owners (`createPatternPolicy`:
 * its own owner; `intersectPolicies`: each member's).
 */
export function registerPolicyAnnouncer(policy: object, announce: PolicyAnnouncer): void {
  policies.set(policy, announce)
}

/**
 * Logs, through `logger`, every `tools.retired_ids_ignored` warning a logger-less retired-ID filter
 * held back for the owners of `policy` (a pattern policy, or an intersection holding pattern
 * policies at any depth). Each owner's warning is logged at most once per filter, whichever
 * dispatcher logs it first. A policy the library did not build logs nothing. Called by
 * `createDispatcher` with its logger.
 */
export function announceRetiredIds(policy: unknown, logger: Logger): void {
  if (typeof policy !== 'object' || policy === null) return
  policies.get(policy)?.(logger)
}
