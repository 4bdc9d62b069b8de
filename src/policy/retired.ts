import { safeLog, type Logger } from '../log/logger.js'
import { optionsTable, readOptions } from '../options/options.js'
import { isWildcard } from './patterns.js'
import type { UsageProblem } from '../errors/usage-error.js'
import { firstHole } from '../json/guards.js'
import { PolicyDefinitionError } from './policy-definition-error.js'
import { claimOwnerWarning, ownerWarned, registerFilter } from './retired-registry.js'

/** The log message (and `event` field) of the retired-ID warning (`docs/policy.md` "Retired tool IDs: `createRetiredIdFilter`"). */
export const RETIRED_IDS_IGNORED = 'tools.retired_ids_ignored'

/** Options of {@link createRetiredIdFilter}. */
export interface RetiredIdFilterOptions {
  /** The reserved IDs of removed tools (exact IDs, no wildcards). */
  tools?: readonly string[]
  /** The reserved IDs of removed toolsets (exact IDs, no wildcards). */
  toolsets?: readonly string[]
  /**
   * Where the `tools.retired_ids_ignored` warning goes. Default: the logger of the dispatcher the
   * policy is given to. Without a logger here, the filter holds each owner's warning back; when
   * `createDispatcher({ policy, logger })` receives a `createPatternPolicy` policy (directly or
   * inside `intersectPolicies`, at any depth) built with this filter, it logs the held-back
   * warning of that policy's owner through its own logger. Still once per owner for the life of
   * the process. Pass a logger here when the policy is wrapped in a host's own `ToolPolicy`
   * (the dispatcher cannot see through it) or is never given to a dispatcher.
   */
  logger?: Logger
}

/** The lists of a policy the filter cleans; absent lists stay absent. */
export interface PolicyLists {
/** Tool ID patterns of an allow-list. */
  tools?: readonly string[]
/** Toolset patterns of an allow-list. */
  toolsets?: readonly string[]
/** Tool ID patterns of a deny-list. */
  deny_tools?: readonly string[]
}

/** The cleaned lists and the exact retired entries dropped from them (in list order: tools, toolsets, deny_tools). */
export interface FilteredPolicyLists extends PolicyLists {
/** Every retired entry dropped, once each. */
  readonly dropped: readonly string[]
}

/**
 * Drops retired tool and toolset IDs from policies (`docs/policy.md` "Retired tool IDs:
 * `createRetiredIdFilter`"). Hand it to every `createPatternPolicy` call. A dispatcher given a
 * policy built with it refuses a catalog that reuses one of its IDs.
 */
export interface RetiredIdFilter {
  /** The reserved tool IDs. */
  readonly tools: readonly string[]
  /** The reserved toolset IDs. */
  readonly toolsets: readonly string[]
  /**
   * Cleans one policy's lists: an exact retired tool ID in `tools` or `deny_tools`, or an exact
   * retired toolset ID in `toolsets`, is dropped (never an error); wildcard entries and unknown IDs
   * are kept. An allow-list that held only retired entries comes back empty, not absent: it stays
   * enforced and grants nothing. The first time an owner has dropped entries, one warning is
   * logged: `warn({ event: 'tools.retired_ids_ignored', owner, dropped_ids },
   * 'tools.retired_ids_ignored')`; never again for that owner in this process, through this filter
   * or any other (the owners warned are kept process-wide). Without a filter logger the warning is held back until a dispatcher with a logger receives the owner's
   * policy (see {@link RetiredIdFilterOptions.logger}).
   *
   * @param owner - the policy owner label, `agent:<source path or name>` or `session:<session id>`.
   */
  apply(owner: string, lists: PolicyLists): FilteredPolicyLists
}

/** The options {@link createRetiredIdFilter} knows; any other key is refused (`unknown_option`). */
const RETIRED_FILTER_OPTIONS = optionsTable(['tools', 'toolsets', 'logger'])

/**
 * Creates the retired-ID filter from the reserved IDs the host passes.
 *
 * @throws PolicyDefinitionError (`code: 'policy_definition_invalid'`, problem `invalid_retired_ids`)
 *   when a list is not an array of non-empty strings without `*`.
 */
export function createRetiredIdFilter(options: RetiredIdFilterOptions = {}): RetiredIdFilter {
  const problems: UsageProblem[] = []
  const read = readOptions(options, RETIRED_FILTER_OPTIONS, '', problems) as RetiredIdFilterOptions
  const tools = checkIds(read.tools, '/tools', problems)
  const toolsets = checkIds(read.toolsets, '/toolsets', problems)
  if (problems.length > 0) throw new PolicyDefinitionError(problems)
  const logger = read.logger
  const held = new Map<string, readonly string[]>()
  const retiredTools = new Set(tools)
  const retiredToolsets = new Set(toolsets)

  const filter: RetiredIdFilter = Object.freeze({
    tools: Object.freeze(tools),
    toolsets: Object.freeze(toolsets),
    apply(owner: string, lists: PolicyLists): FilteredPolicyLists {
      const dropped: string[] = []
      const clean = (list: readonly string[] | undefined, retired: ReadonlySet<string>): readonly string[] | undefined => {
        if (list === undefined) return undefined
        return list.filter((entry) => {
          const drop = !isWildcard(entry) && retired.has(entry)
          if (drop && !dropped.includes(entry)) dropped.push(entry)
          return !drop
        })
      }
      const out: FilteredPolicyLists = {
        ...withList('tools', clean(lists.tools, retiredTools)),
        ...withList('toolsets', clean(lists.toolsets, retiredToolsets)),
        ...withList('deny_tools', clean(lists.deny_tools, retiredTools)),
        dropped,
      }
      if (dropped.length > 0) {
        if (logger !== undefined) {
          if (claimOwnerWarning(owner)) warn(logger, owner, dropped)
        } else if (!held.has(owner) && !ownerWarned(owner)) held.set(owner, [...dropped])
      }
      return out
    },
  })
  const announce = (owner: string, to: Logger): void => {
    const dropped = held.get(owner)
    if (dropped === undefined) return
    held.delete(owner)
    if (claimOwnerWarning(owner)) warn(to, owner, dropped)
  }
  registerFilter(filter, { tools: retiredTools, toolsets: retiredToolsets, ...(logger === undefined ? { announce } : {}) })
  return filter
}

function warn(logger: Logger, owner: string, dropped: readonly string[]): void {
  safeLog(logger, 'warn', { event: RETIRED_IDS_IGNORED, owner, dropped_ids: [...dropped] }, RETIRED_IDS_IGNORED)
}

function withList(key: keyof PolicyLists, list: readonly string[] | undefined): PolicyLists {
  return list === undefined ? {} : { [key]: list }
}

function checkIds(ids: unknown, path: string, problems: UsageProblem[]): string[] {
  if (ids === undefined) return []
  if (!Array.isArray(ids)) {
    problems.push({ path, code: 'invalid_retired_ids', message: 'must be an array of exact IDs' })
    return []
  }
  const hole = firstHole(ids)
  if (hole !== -1) {
    problems.push({ path: `${path}/${hole}`, code: 'invalid_retired_ids', message: 'a retired ID must be a non-empty exact ID (a hole is none)' })
    return []
  }
  ids.forEach((id, index) => {
    if (typeof id !== 'string' || id.length === 0 || isWildcard(id)) {
      problems.push({ path: `${path}/${index}`, code: 'invalid_retired_ids', message: 'a retired ID must be a non-empty exact ID (no "*")' })
    }
  })
  return ids.filter((id): id is string => typeof id === 'string')
}
