import { compilePatterns, type PatternList } from './patterns.js'
import type { UsageProblem } from '../errors/usage-error.js'
import { firstHole } from '../json/guards.js'
import { optionsTable, readOptions } from '../options/options.js'
import { PolicyDefinitionError } from './policy-definition-error.js'
import { markDecidesAtOnce, type PolicyDecision, type PolicyRequest, type ToolPolicy } from './policy.js'
import type { RetiredIdFilter } from './retired.js'
import { filterEntry, registerPolicy } from './retired-registry.js'

/**
 * When the reference policy asks for an approval, on top of a tool's own requirement (a tool that
 * declares `approval: 'required'` always needs one; no mode waives it):
 * - `'declared'` (default): only when the tool declares it;
 * - `'non_read_only'`: also for every tool that is not read-only;
 * - `'always'`: for every call.
 */
export type ApprovalMode = 'declared' | 'non_read_only' | 'always'

const APPROVAL_MODES: readonly ApprovalMode[] = ['declared', 'non_read_only', 'always']
const OWNER = /^(agent|session):.+$/s

/** The options {@link createPatternPolicy} knows; any other key is refused (`unknown_option`). */
const PATTERN_POLICY_OPTIONS = optionsTable(['owner', 'tools', 'toolsets', 'deny_tools', 'approval', 'retired'])

/** Options of {@link createPatternPolicy}: the policy as data. */
export interface PatternPolicyOptions {
  /** Who owns the policy: `agent:<source path or name>` or `session:<session id>`. Named in denials and warnings. */
  owner: string
  /**
   * Allow-list of tool ID patterns (`*` matches any run of characters). When `tools` or `toolsets`
   * is given, a tool runs only if its ID matches `tools` or one of its toolsets matches
   * `toolsets`. When both are absent, every tool is allowed (deny_tools still applies). An empty
   * list grants nothing.
   */
  tools?: readonly string[]
  /** Allow-list of toolset patterns (see `tools`). */
  toolsets?: readonly string[]
  /** Tool ID patterns that are always denied: deny wins over every allow-list entry. */
  deny_tools?: readonly string[]
  /** Default `'declared'`. */
  approval?: ApprovalMode
  /**
   * Drops retired IDs from the lists before they are compiled (`docs/policy.md` "Retired tool IDs:
   * `createRetiredIdFilter`"). When the filter has no logger, its `tools.retired_ids_ignored`
   * warning for this owner goes to the logger of the dispatcher this policy is given to (see
   * `RetiredIdFilterOptions.logger`).
   */
  retired?: RetiredIdFilter
}

/** The reference policy: a {@link ToolPolicy} whose lists can be read back. */
export interface PatternPolicy extends ToolPolicy {
/** The owner label (`agent:…` or `session:…`), named in denials and warnings. */
  readonly owner: string
  /** The tool allow-list after retired IDs were dropped; `undefined` when none was given. */
  readonly tools: readonly string[] | undefined
/** The toolset allow-list after retired IDs were dropped; `undefined` when none was given. */
  readonly toolsets: readonly string[] | undefined
/** The deny-list after retired IDs were dropped (`[]` when none was given). */
  readonly deny_tools: readonly string[]
/** When it asks for an approval beyond a tool's own requirement. */
  readonly approval: ApprovalMode
  /** The retired entries dropped from the lists. */
  readonly dropped_ids: readonly string[]
/** Decides synchronously, on the tool's facts only (never the input), as {@link createPatternPolicy} describes. */
  decide(request: PolicyRequest): PolicyDecision
}

/**
 * Builds the reference policy from data (`docs/policy.md`). Decisions, first
 * match wins: a tool ID matching `deny_tools` → `{ decision: 'deny', reason: 'deny_listed', owner }`;
 * an enforced allow-list that matches neither the ID nor a toolset → `{ decision: 'deny', reason:
 * 'not_allowed', owner }`; then `approval_required` with reason `tool_requires_approval`,
 * `policy_requires_approval` (mode `always`) or `not_read_only` (mode `non_read_only`); else
 * `allow`. The input is never read, so `result_view` cannot change a decision.
 *
 * @throws PolicyDefinitionError (`code: 'policy_definition_invalid'`) listing every problem: an
 *   owner that is not `agent:…`/`session:…`, a list that is not an array of non-empty strings, an
 *   unknown approval mode.
 */
export function createPatternPolicy(options: PatternPolicyOptions): PatternPolicy {
  const problems: UsageProblem[] = []
  if (typeof options !== 'object' || options === null) {
    throw new PolicyDefinitionError([{ path: '', code: 'invalid_option', message: 'policy options must be an object' }])
  }
  // Each option read once; a misspelt `deny_tools` must never leave its tools allowed.
  const read = readOptions(options, PATTERN_POLICY_OPTIONS, '', problems) as Partial<PatternPolicyOptions>
  const owner = read.owner as string
  if (typeof owner !== 'string' || !OWNER.test(owner)) {
    problems.push({ path: '/owner', code: 'invalid_owner', message: 'owner must be "agent:<source path or name>" or "session:<session id>"' })
  }
  checkList(read.tools, '/tools', problems)
  checkList(read.toolsets, '/toolsets', problems)
  checkList(read.deny_tools, '/deny_tools', problems)
  const approval = read.approval ?? 'declared'
  if (!APPROVAL_MODES.includes(approval)) {
    problems.push({ path: '/approval', code: 'invalid_approval_mode', message: `approval must be one of ${APPROVAL_MODES.map((m) => `"${m}"`).join(', ')}` })
  }
  const retired = read.retired
  if (retired !== undefined && typeof retired?.apply !== 'function') {
    problems.push({ path: '/retired', code: 'invalid_retired_ids', message: 'retired must come from createRetiredIdFilter' })
  }
  if (problems.length > 0) throw new PolicyDefinitionError(problems)

  const given = { tools: read.tools, toolsets: read.toolsets, deny_tools: read.deny_tools }
  const lists = retired === undefined ? { ...given, dropped: [] as readonly string[] } : retired.apply(owner, given)
  const tools = lists.tools === undefined ? undefined : compilePatterns(lists.tools)
  const toolsets = lists.toolsets === undefined ? undefined : compilePatterns(lists.toolsets)
  const deny = compilePatterns(lists.deny_tools ?? [])
  const enforced = tools !== undefined || toolsets !== undefined

  const allowed = (id: string, sets: readonly string[]): boolean =>
    (tools?.matches(id) ?? false) || sets.some((set) => (toolsets as PatternList | undefined)?.matches(set) ?? false)

  const policy: PatternPolicy = markDecidesAtOnce(Object.freeze({
    owner,
    tools: tools?.entries,
    toolsets: toolsets?.entries,
    deny_tools: deny.entries,
    approval,
    dropped_ids: Object.freeze([...lists.dropped]),
    decide(request: PolicyRequest): PolicyDecision {
      const { tool } = request
      if (deny.matches(tool.id)) return { decision: 'deny', reason: 'deny_listed', owner }
      if (enforced && !allowed(tool.id, tool.toolsets)) return { decision: 'deny', reason: 'not_allowed', owner }
      if (tool.approval === 'required') return { decision: 'approval_required', reason: 'tool_requires_approval', owner }
      if (approval === 'always') return { decision: 'approval_required', reason: 'policy_requires_approval', owner }
      if (approval === 'non_read_only' && !tool.read_only) return { decision: 'approval_required', reason: 'not_read_only', owner }
      return { decision: 'allow' }
    },
  }))
  const filter = retired === undefined ? undefined : filterEntry(retired)
  if (filter !== undefined) {
    const announce = filter.announce
    registerPolicy(policy, { announce: (logger) => announce?.(owner as string, logger), filters: [retired!] })
  }
  return policy
}

function checkList(list: unknown, path: string, problems: UsageProblem[]): void {
  if (list === undefined) return
  if (!Array.isArray(list)) {
    problems.push({ path, code: 'invalid_list', message: 'must be an array of ID patterns' })
    return
  }
  const hole = firstHole(list)
  if (hole !== -1) {
    problems.push({ path: `${path}/${hole}`, code: 'invalid_pattern', message: 'a pattern must be a non-empty string (a hole is none)' })
    return
  }
  list.forEach((entry, index) => {
    if (typeof entry !== 'string' || entry.length === 0) {
      problems.push({ path: `${path}/${index}`, code: 'invalid_pattern', message: 'a pattern must be a non-empty string' })
    }
  })
}
