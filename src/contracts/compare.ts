import { ContractsError } from './contracts-error.js'
import { UNNAMED_TOKENIZER } from './measure.js'
import { readOptions } from './options.js'
import { compareReasons, compareSchemas, type ContractReason, type SchemaVerdict, type SchemaVerdictKind } from './compare-schemas.js'
import { completeView, defaultView, viewOf, type ContractLock, type ContractToolKind, type ContractView, type ToolContract, type ViewBudget } from './lock.js'
import { compareIds, lockOf, type ContractFixtures, type ContractSource } from './sources.js'
import type { CountTokens } from '../tokens/count-tokens.js'
import { firstHole, isRecord } from '../json/guards.js'
import { setOwn } from '../json/clone.js'
import { appendPointer } from '../json/pointer.js'
import { RESULT_VIEW_KEY } from '../views/view.js'

/** Options of {@link compareContracts}. */
export interface CompareContractsOptions {
  /**
   * Unproven verdicts the author accepts: `true` for all, or the tool IDs whose unproven schemas
   * are accepted. An accepted unproven schema does not make the comparison `breaking` (it is
   * still a change, listed with `accepted: true`). Default: none.
   */
  acceptUnproven?: boolean | readonly string[]
  /**
   * How much a compact budget may grow before it fails, as a ratio of the recorded figure
   * (`0.05`: 5 % more tokens or bytes). Default `0.05`. See `docs/contracts.md` "Token budgets".
   */
  budgetTolerance?: number
  /** Fixtures for budgets when `after` is a catalog (see `contractLock`). */
  fixtures?: ContractFixtures
  /** Counts tokens for those budgets. Default: `gpt-tokenizer` o200k. */
  countTokens?: CountTokens
  /**
   * The name recorded for `countTokens` (the budget's `tokenizer`, e.g. `words-v1`): 1–64
   * printable ASCII characters. Budgets compare only when both sides name the same tokenizer;
   * an unnamed `countTokens` records `custom`, and two `custom` budgets are `incomparable` (two
   * different counters must not be compared as one). Only with `countTokens`.
   */
  tokenizer?: string
}

/** Default {@link CompareContractsOptions.budgetTolerance}. */
export const DEFAULT_BUDGET_TOLERANCE = 0.05

/** Which schema of a tool a comparison is about. */
export type ContractSchemaName = 'input' | ContractView

/** One changed schema of a tool. */
export interface SchemaComparison {
  /** The schema in the new contract. */
  readonly schema: ContractSchemaName
  /** The schema of the old contract it is compared with (another one when the tool gained or lost views). */
  readonly compared_with: ContractSchemaName
  /** `compatible`, `breaking` or `unproven` (see `compareSchemas`). */
  readonly verdict: SchemaVerdictKind
  /** Whether an `unproven` verdict was accepted (`acceptUnproven`). */
  readonly accepted: boolean
  /** Schema digest of the old schema. */
  readonly before_digest: string
  /** Schema digest of the new schema. */
  readonly after_digest: string
  /** Why the schema is breaking or unproven (empty when compatible), in canonical order (see `compareSchemas`): breaking reasons first. */
  readonly reasons: readonly ContractReason[]
}

/**
 * How a tool's compact budget compares: `within` the tolerance (no change), `exceeded` (breaking),
 * `added` or `removed` (fixtures appeared or went away), `incomparable` (another tokenizer, or
 * another number of fixture records: measure again with `--update`).
 */
export interface BudgetComparison {
  /** How the budgets compare (see above). */
  readonly status: 'within' | 'exceeded' | 'added' | 'removed' | 'incomparable'
  /** The budget the old lock recorded (absent when `added`). */
  readonly before?: ViewBudget
  /** The budget measured now (absent when `removed`). */
  readonly after?: ViewBudget
  /** What failed or changed, in a sentence (absent when `within`). */
  readonly message?: string
}

/** How one tool compares. */
export interface ToolComparison {
  /** The tool's ID. */
  readonly tool_id: string
  /** `changed` when a schema, the kind, the origin, the `omit_when` rule paths or the budget (past `within`) differs. */
  readonly status: 'added' | 'removed' | 'unchanged' | 'changed'
  /** Whether this tool's change breaks consumers: removed, a breaking or unaccepted unproven schema, another origin, a budget exceeded. */
  readonly breaking: boolean
  /** The kind in the old contract (absent when `added`). */
  readonly before_kind?: ContractToolKind
  /** The kind in the new contract (absent when `removed`). */
  readonly after_kind?: ContractToolKind
  /**
   * The tool gained or lost views, so callers that send no `result_view` now get another record
   * (`docs/contracts.md` "Default-view changes"; the release note lists the fields that moved).
   */
  readonly default_view_changed: boolean
  /** Both origins, when they differ (a native tool's `result_view` selector comes or goes). */
  readonly origin_changed?: { readonly before: string; readonly after: string }
  /**
   * Both lists of value-dependent compact rule paths (`omit_when`), when they differ. Never
   * breaking by itself: a rule may only omit a field the compact schema already makes optional.
   */
  readonly omit_when_changed?: { readonly before: readonly string[]; readonly after: readonly string[] }
  /** The changed schemas, each with its verdict. */
  readonly schemas: readonly SchemaComparison[]
  /** How the compact budgets compare, when either side recorded one. */
  readonly budget?: BudgetComparison
}

/** What {@link compareContracts} returns. */
export interface ContractComparison {
  /** True when anything differs from `before` (a tool added, removed or changed). */
  readonly drifted: boolean
  /** True when any tool's change is breaking. */
  readonly breaking: boolean
  /** How many tools are in each status, and how many are breaking. */
  readonly summary: { readonly added: number; readonly removed: number; readonly changed: number; readonly unchanged: number; readonly breaking: number }
  /** Every tool of either side, sorted by ID. */
  readonly tools: readonly ToolComparison[]
}

/**
 * Compares two contract sets (`docs/contracts.md` "What is compatible, and why"): each a lock (as
 * `contractLock` makes it, or as read from a file) or a catalog (tools, descriptors, a dispatcher).
 * Per tool: `added`, `removed`, `unchanged` or `changed`; per changed schema a verdict with reasons
 * at JSON Pointers (see `compareSchemas`): input schemas compared as inputs, view schemas as
 * outputs. A tool that gained views compares its old output with the new compact view (what
 * callers now get by default) and with the new full view, and is flagged `default_view_changed`;
 * one that lost views compares its old compact and full views with its output. Compact budgets
 * recorded on both sides are compared with `budgetTolerance`.
 *
 * @throws ContractsError (`contracts_invalid`) when a side is neither a lock nor a catalog (or a
 *   lock does not have the lock format), or an option is malformed.
 */
export function compareContracts(before: ContractSource, after: ContractSource, options: CompareContractsOptions = {}): ContractComparison {
  const read = readOptions(options, ['acceptUnproven', 'budgetTolerance', 'fixtures', 'countTokens', 'tokenizer'], 'compareContracts options')
  const { accept, tolerance } = readComparisonOptions(read)
  const lockOptions = { ...(read.fixtures === undefined ? {} : { fixtures: read.fixtures as ContractFixtures }), ...(read.countTokens === undefined ? {} : { countTokens: read.countTokens as CountTokens }), ...(read.tokenizer === undefined ? {} : { tokenizer: read.tokenizer as string }) }
  const old = lockOf(before, 'compareContracts before')
  const now = lockOf(after, 'compareContracts after', lockOptions)
  const ids = [...new Set([...Object.keys(old.tools), ...Object.keys(now.tools)])].sort(compareIds)
  const tools = ids.map((id) => compareTool(id, own(old, id), own(now, id), accept, tolerance))
  const count = (status: ToolComparison['status']): number => tools.filter((t) => t.status === status).length
  const summary = { added: count('added'), removed: count('removed'), changed: count('changed'), unchanged: count('unchanged'), breaking: tools.filter((t) => t.breaking).length }
  return { drifted: tools.some((t) => t.status !== 'unchanged'), breaking: summary.breaking > 0, summary, tools }
}

function own(lock: ContractLock, id: string): ToolContract | undefined {
  return Object.hasOwn(lock.tools, id) ? lock.tools[id] : undefined
}

function readComparisonOptions(options: CompareContractsOptions): { accept: (id: string) => boolean; tolerance: number } {
  const problems = []
  const { acceptUnproven = false, budgetTolerance = DEFAULT_BUDGET_TOLERANCE } = options
  let accept: (id: string) => boolean = () => false
  if (acceptUnproven === true) accept = () => true
  // Holes first: `every` would walk all 2 ** 32 - 1 indices of a sparse list.
  else if (Array.isArray(acceptUnproven) && firstHole(acceptUnproven) === -1 && acceptUnproven.every((id) => typeof id === 'string')) {
    const ids = new Set<string>(acceptUnproven)
    accept = (id) => ids.has(id)
  } else if (acceptUnproven !== false) {
    problems.push({ path: '/acceptUnproven', code: 'invalid_accept', message: 'acceptUnproven must be a boolean or a list of tool IDs' })
  }
  if (typeof budgetTolerance !== 'number' || !Number.isFinite(budgetTolerance) || budgetTolerance < 0) {
    problems.push({ path: '/budgetTolerance', code: 'invalid_tolerance', message: 'budgetTolerance must be a finite ratio ≥ 0 (0.05 is 5 %)' })
  }
  if (problems.length > 0) throw new ContractsError('compareContracts options', problems)
  return { accept, tolerance: budgetTolerance }
}

function compareTool(id: string, before: ToolContract | undefined, after: ToolContract | undefined, accept: (id: string) => boolean, tolerance: number): ToolComparison {
  if (before === undefined) return { tool_id: id, status: 'added', breaking: false, after_kind: after!.kind, default_view_changed: false, schemas: [] }
  if (after === undefined) return { tool_id: id, status: 'removed', breaking: true, before_kind: before.kind, default_view_changed: false, schemas: [] }
  const schemas: SchemaComparison[] = []
  const compare = (schema: ContractSchemaName, comparedWith: ContractSchemaName): void => {
    const a = schema === 'input' ? before.input : viewOf(before, comparedWith as ContractView)!
    const b = schema === 'input' ? after.input : viewOf(after, schema)!
    // One digest is one schema, but not one reading for inputs: a new tool recorded as native
    // single-result refuses a `result_view` that the old one, recorded with another origin or
    // none, may have accepted. Two sides with no recorded origin are read as the same tool.
    if (a.digest === b.digest && (schema !== 'input' || after.origin !== 'native' || !refusesSelector(after, false) || refusesSelector(before, false))) return
    const { verdict, reasons } = schema === 'input'
      ? compareInputs(before, after)
      : compareSchemas(a.schema, b.schema, 'output')
    schemas.push({ schema, compared_with: comparedWith, verdict, accepted: verdict === 'unproven' && accept(id), before_digest: a.digest, after_digest: b.digest, reasons })
  }
  compare('input', 'input')
  const defaultChanged = before.kind !== after.kind
  compare(defaultView(after), defaultView(before))
  // A single-result tool's default view is its complete record: compare it once.
  if (after.kind === 'viewed' || before.kind === 'viewed') compare(completeView(after), completeView(before))
  const originChanged = before.origin !== undefined && after.origin !== undefined && before.origin !== after.origin
  const budget = compareBudgets(before.budget, after.budget, tolerance)
  const rulesBefore = rulePaths(before)
  const rulesAfter = rulePaths(after)
  const rulesChanged = rulesBefore.join('\n') !== rulesAfter.join('\n')
  const changed = schemas.length > 0 || defaultChanged || originChanged || rulesChanged || (budget !== undefined && budget.status !== 'within')
  const breaking = originChanged || budget?.status === 'exceeded' ||
    schemas.some((s) => s.verdict === 'breaking' || (s.verdict === 'unproven' && !s.accepted))
  return {
    tool_id: id, status: changed ? 'changed' : 'unchanged', breaking,
    before_kind: before.kind, after_kind: after.kind, default_view_changed: defaultChanged,
    ...(originChanged ? { origin_changed: { before: before.origin!, after: after.origin! } } : {}),
    ...(rulesChanged ? { omit_when_changed: { before: rulesBefore, after: rulesAfter } } : {}),
    schemas,
    ...(budget === undefined ? {} : { budget }),
  }
}

/** A contract's value-dependent rule paths (none for a single-result tool). */
function rulePaths(contract: ToolContract): readonly string[] {
  return contract.kind === 'viewed' ? (contract.omit_when ?? []) : []
}

/**
 * Compares input schemas as the dispatcher reads them at run time: a native single-result tool
 * refuses any `result_view`, although its input schema (open, say) may allow one. So a tool that
 * loses its views refuses the selector its old callers sent, and one that gains them accepts a
 * selector its old callers could never send. A contract of unknown origin (a descriptor of a
 * single-result tool) is read as refusing it when new (which requires more) and as the schema
 * says when old (which accepts more): both sound.
 *
 * The new side's refusal is a second containment, not an edit of its schema: every old input must
 * be accepted by the new schema and refused no `result_view`, and each is proven on its own (so a
 * new input root that is a union, which takes no keyword beside it, is compared as written).
 */
function compareInputs(before: ToolContract, after: ToolContract): SchemaVerdict {
  const old = runTimeInput(before)
  const verdict = compareSchemas(old, after.input.schema, 'input')
  if (!refusesSelector(after, true)) return verdict
  const refusal = compareSchemas(old, SELECTOR_REFUSED, 'input')
  const selector = appendPointer('/properties', RESULT_VIEW_KEY)
  const refused = refusal.reasons.map((r): ContractReason => r.new_path !== selector ? r : {
    ...r, kind: 'breaking', code: 'field_rejected',
    message: before.kind === 'viewed'
      ? `the tool no longer has views: at run time it refuses "${RESULT_VIEW_KEY}", which the old tool accepted`
      : `at run time the new native tool refuses "${RESULT_VIEW_KEY}", which the old tool's input accepted (its origin was not native, or is not recorded)`,
  })
  return mergeVerdicts(verdict, refused)
}

/** What a native single-result tool refuses at run time beside its own input schema. */
const SELECTOR_REFUSED: unknown = { properties: { [RESULT_VIEW_KEY]: false } }

/** The verdict of two containments that must both hold: every reason of either, each once, in canonical order. */
function mergeVerdicts(first: SchemaVerdict, more: readonly ContractReason[]): SchemaVerdict {
  if (more.length === 0) return first
  const seen = new Set<string>()
  const reasons: ContractReason[] = []
  for (const reason of [...first.reasons, ...more]) {
    const key = JSON.stringify([reason.kind, reason.code, reason.old_path, reason.new_path, reason.message])
    if (seen.has(key)) continue
    seen.add(key)
    reasons.push(reason)
  }
  reasons.sort(compareReasons)
  return { verdict: reasons.some((r) => r.kind === 'breaking') ? 'breaking' : 'unproven', reasons }
}

/**
 * Whether the dispatcher refuses `result_view` beside this contract's input schema: a native
 * single-result tool does (one of unknown origin is read as one when `unknownRefuses`), unless
 * its schema declares the key itself.
 */
function refusesSelector(contract: ToolContract, unknownRefuses: boolean): boolean {
  if (contract.kind !== 'single' || !(contract.origin === 'native' || (contract.origin === undefined && unknownRefuses))) return false
  const schema = contract.input.schema
  return !(isRecord(schema) && isRecord(schema.properties) && Object.hasOwn(schema.properties, RESULT_VIEW_KEY))
}

/**
 * The old contract's input schema as the dispatcher read it, with `result_view` refused where a
 * native single-result tool refused it. This side only needs to be read, never to accept, so the
 * refusal may sit beside any keyword (a union root included).
 */
function runTimeInput(contract: ToolContract): unknown {
  const schema = contract.input.schema
  if (!refusesSelector(contract, false) || !isRecord(schema)) return schema
  const properties = isRecord(schema.properties) ? schema.properties : {}
  const refused = Object.create(null) as Record<string, unknown>
  for (const key of Object.keys(properties)) setOwn(refused, key, properties[key])
  setOwn(refused, RESULT_VIEW_KEY, false)
  const out = Object.create(null) as Record<string, unknown>
  for (const key of Object.keys(schema)) setOwn(out, key, schema[key])
  setOwn(out, 'properties', refused)
  return out
}

function compareBudgets(before: ViewBudget | undefined, after: ViewBudget | undefined, tolerance: number): BudgetComparison | undefined {
  if (before === undefined && after === undefined) return undefined
  if (before === undefined) return { status: 'added', after: after!, message: `a compact budget was measured (${after!.compact_tokens} tokens over ${after!.records} records)` }
  if (after === undefined) return { status: 'removed', before, message: 'the lock records a compact budget, but no fixtures were measured this time' }
  if (before.tokenizer === UNNAMED_TOKENIZER && after.tokenizer === UNNAMED_TOKENIZER) {
    return {
      status: 'incomparable', before, after,
      message: `both sides were counted by an unnamed countTokens ("${UNNAMED_TOKENIZER}"), which may be two different counters: name it with the tokenizer option and update the lock`,
    }
  }
  if (before.tokenizer !== after.tokenizer || before.records !== after.records) {
    return {
      status: 'incomparable', before, after,
      message: `measured with ${after.tokenizer} on ${after.records} records, the lock with ${before.tokenizer} on ${before.records}: update the lock to measure again`,
    }
  }
  const grown: string[] = []
  for (const key of ['compact_tokens', 'compact_bytes'] as const) {
    const limit = before[key] * (1 + tolerance)
    if (after[key] > limit) grown.push(`${key} grew from ${before[key]} to ${after[key]} (+${percent(after[key] / before[key] - 1)}, tolerance ${percent(tolerance)})`)
  }
  if (grown.length > 0) return { status: 'exceeded', before, after, message: `the compact view grew past its budget: ${grown.join('; ')}` }
  return { status: 'within', before, after }
}

function percent(ratio: number): string {
  return Number.isFinite(ratio) ? `${(ratio * 100).toFixed(1)} %` : '∞ %'
}
