import type { Logger } from '../log/logger.js'

// What the library remembers about retired IDs, out of sight of the public objects: the reserved
// IDs of every filter `createRetiredIdFilter` made, which filters each library-built policy went
// through, and which owners this process has already warned about.

/** What `createRetiredIdFilter` registers for each filter it makes. */
export interface FilterEntry {
  /** The reserved tool IDs. */
  readonly tools: ReadonlySet<string>
  /** The reserved toolset IDs. */
  readonly toolsets: ReadonlySet<string>
  /** Logs the warning the filter held back for `owner`, if it holds one; absent for a filter with its own logger. */
  readonly announce?: (owner: string, logger: Logger) => void
}

/** What a library-built policy (`createPatternPolicy`, `intersectPolicies`) registers. */
export interface PolicyEntry {
  /** Logs the held-back warnings of every owner the policy (or its members) names. */
  readonly announce: (logger: Logger) => void
  /** The filters of `createRetiredIdFilter` its lists went through, its members' included. */
  readonly filters: readonly object[]
}

const filters = new WeakMap<object, FilterEntry>()
const policies = new WeakMap<object, PolicyEntry>()

/** Registers a filter made by `createRetiredIdFilter`. */
export function registerFilter(filter: object, entry: FilterEntry): void {
  filters.set(filter, entry)
}

/** The entry of a filter from `createRetiredIdFilter`; `undefined` for anything else. */
export function filterEntry(filter: unknown): FilterEntry | undefined {
  return typeof filter === 'object' && filter !== null ? filters.get(filter) : undefined
}

/** Registers what a policy built by this library knows about retired IDs. */
export function registerPolicy(policy: object, entry: PolicyEntry): void {
  policies.set(policy, entry)
}

/** The entry of a policy built by this library; `undefined` for a host's own policy (the dispatcher cannot see through it). */
function policyEntry(policy: unknown): PolicyEntry | undefined {
  return typeof policy === 'object' && policy !== null ? policies.get(policy) : undefined
}

/**
 * Logs, through `logger`, every `tools.retired_ids_ignored` warning a logger-less retired-ID filter
 * held back for the owners of `policy` (a pattern policy, or an intersection holding pattern
 * policies at any depth). Each owner is warned at most once per process, whichever filter or
 * dispatcher logs it first. A policy the library did not build logs nothing. Called by
 * `createDispatcher` with its logger.
 */
export function announceRetiredIds(policy: unknown, logger: Logger): void {
  policyEntry(policy)?.announce(logger)
}

/**
 * The reserved tool and toolset IDs of every `createRetiredIdFilter` filter the lists of `policy`
 * went through (at any depth of intersections); empty sets for a host's own policy.
 */
export function retiredIdsOf(policy: unknown): { readonly tools: ReadonlySet<string>; readonly toolsets: ReadonlySet<string> } {
  const tools = new Set<string>()
  const toolsets = new Set<string>()
  for (const filter of policyEntry(policy)?.filters ?? []) {
    const entry = filters.get(filter)
    entry?.tools.forEach((id) => tools.add(id))
    entry?.toolsets.forEach((id) => toolsets.add(id))
  }
  return { tools, toolsets }
}

/** The filters a policy's entry lists (for an intersection to collect its members'). */
export function filtersOf(policy: unknown): readonly object[] {
  return policyEntry(policy)?.filters ?? []
}

/**
 * The owners warned about in this process. Kept on `globalThis` under a `Symbol.for` key, so that
 * two copies of the library in one process (its ESM and CJS builds, say) share it: the warning is
 * once per owner for the life of the process, as the spec has it, not once per filter or copy.
 */
const WARNED = Symbol.for('result-views.retired_ids_ignored.owners')

function warnedOwners(): Set<string> {
  const global = globalThis as { [WARNED]?: unknown }
  if (!(global[WARNED] instanceof Set)) Object.defineProperty(global, WARNED, { value: new Set<string>(), configurable: true, writable: false, enumerable: false })
  return global[WARNED] as Set<string>
}

/** True when this process has logged the owner's warning already. */
export function ownerWarned(owner: string): boolean {
  return warnedOwners().has(owner)
}

/** Marks the owner warned; true when it was not yet, so the caller logs the warning now. */
export function claimOwnerWarning(owner: string): boolean {
  const warned = warnedOwners()
  if (warned.has(owner)) return false
  warned.add(owner)
  return true
}
