import type { JsonSchema, ToolOrigin, ViewContract } from 'result-views'

/** The `format` of every contract lock: names the file as ours, whatever its name. */
export const CONTRACT_LOCK_FORMAT = 'result-views/tool-contracts'

/** The lock format version this library writes and reads. */
export const CONTRACT_LOCK_VERSION = 1

/** The name `contracts check` reads and writes when no lock path is given. */
export const DEFAULT_LOCK_FILE = 'tool-contracts.lock.json'

/** Which kind of tool a contract describes: one with a compact and a full view, or one output. */
export type ContractToolKind = 'viewed' | 'single'

/**
 * A compact budget measured on a tool's fixtures (full records): the totals over all of them, in
 * UTF-8 bytes of their JSON and in tokens of `tokenizer` (`o200k_base` for the default counter, the
 * `tokenizer` option or `custom` for a caller's `countTokens`). See `docs/contracts.md` "Token budgets".
 */
export interface ViewBudget {
  /** The tokenizer the tokens were counted with: `o200k_base`, the name a caller gave its `countTokens` (`tokenizer` option), or `custom` (two `custom` budgets never compare). */
  readonly tokenizer: string
  /** How many fixture records were measured. */
  readonly records: number
  /** UTF-8 bytes of the compact records' canonical JSON, summed. */
  readonly compact_bytes: number
  /** Tokens of the compact records, summed. */
  readonly compact_tokens: number
  /** UTF-8 bytes of the full records' canonical JSON, summed. */
  readonly full_bytes: number
  /** Tokens of the full records, summed. */
  readonly full_tokens: number
}

/** What every tool contract records. */
interface ToolContractBase {
  /**
   * `native`, `extension` or `mcp`. Absent when the lock was made from a dispatcher's descriptors
   * of single-result tools, which do not carry it (a viewed tool is native by definition).
   */
  readonly origin?: ToolOrigin
  /** The input schema callers see (a viewed tool's lists `result_view`), and its schema digest. */
  readonly input: ViewContract
  /** The compact budget measured on the tool's fixtures, when fixtures were given. */
  readonly budget?: ViewBudget
}

/** The contract of a tool with views: both view schemas and their digests. */
export interface ViewedToolContract extends ToolContractBase {
  /** Always `'viewed'`. */
  readonly kind: 'viewed'
  /** Each view's schema and schema digest. */
  readonly views: { readonly compact: ViewContract; readonly full: ViewContract }
  /**
   * The paths of the tool's value-dependent compact rules, sorted (`docs/views.md`
   * "Value-dependent compact rules"): optional compact fields the compact record omits or keeps
   * depending on their values. Absent when the tool has none. Not part of any schema digest.
   */
  readonly omit_when?: readonly string[]
}

/** The contract of a single-result tool: its one output schema and digest. */
export interface SingleToolContract extends ToolContractBase {
  /** Always `'single'`. */
  readonly kind: 'single'
  /** The one output schema and its schema digest. */
  readonly views: { readonly output: ViewContract }
}

/** One tool's contract in a lock. */
export type ToolContract = ViewedToolContract | SingleToolContract

/**
 * A contract lock (`docs/contracts.md` "The lock file"): plain JSON, one entry per tool ID in
 * sorted order. Write it with `formatContractLock` (sorted keys, identical bytes for identical
 * contracts); read it with `parseContractLock`.
 */
export interface ContractLock {
  /** Always `result-views/tool-contracts`. */
  readonly format: typeof CONTRACT_LOCK_FORMAT
  /** The lock format version, 1. */
  readonly version: typeof CONTRACT_LOCK_VERSION
  /** Tool ID → contract, in sorted order. */
  readonly tools: { readonly [tool_id: string]: ToolContract }
}

/** The view names a tool contract holds, by kind. */
export type ContractView = 'compact' | 'full' | 'output'

/** The schema of one view of a contract (`output` of a single-result tool, `compact` or `full` of a viewed one). */
export function viewOf(contract: ToolContract, view: ContractView): ViewContract | undefined {
  if (contract.kind === 'single') return view === 'output' ? contract.views.output : undefined
  return view === 'compact' ? contract.views.compact : view === 'full' ? contract.views.full : undefined
}

/** The contract's default view: what a caller gets without `result_view`. */
export function defaultView(contract: ToolContract): ContractView {
  return contract.kind === 'viewed' ? 'compact' : 'output'
}

/** The contract's complete record: the full view, or the one output. */
export function completeView(contract: ToolContract): ContractView {
  return contract.kind === 'viewed' ? 'full' : 'output'
}

/** A schema with its digest, as a lock records it. */
export function schemaContract(schema: JsonSchema, digest: string): ViewContract {
  return { schema, digest }
}
