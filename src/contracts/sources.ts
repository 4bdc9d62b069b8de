import { describeTool, schemaDigest, type JsonSchema, type Tool, type ToolDescriptor, type UsageProblem, type ViewContract, type ViewedTool } from 'result-views'
import { defineBrand } from '../errors/brand.js'
import { setOwn } from '../json/clone.js'
import { isRecord } from '../json/guards.js'
import { escapePointerToken } from '../json/pointer.js'
import { describeThrown, type CountTokens } from '../tokens/count-tokens.js'
import { ContractsError, isContractsError } from './contracts-error.js'
import { CONTRACT_LOCK_FORMAT, CONTRACT_LOCK_VERSION, type ContractLock, type ToolContract, type ViewBudget } from './lock.js'
import { parseContractLock } from './lock-text.js'
import { measureViews, tokenizerName } from './measure.js'
import { readOptions } from './options.js'

/** Anything with a `list()` of descriptors, such as a `createDispatcher` result. */
export interface DescriptorCatalog {
  /** The descriptors of every tool, in catalog order. */
  list(): readonly ToolDescriptor[]
}

/** A catalog a lock is made from: tools from `defineTool`, their descriptors (mixed or not), or a dispatcher. */
export type ContractCatalog = readonly (Tool | ToolDescriptor)[] | DescriptorCatalog

/** What the comparison functions take for either side: a lock (parsed or as read from JSON) or a catalog. */
export type ContractSource = ContractLock | ContractCatalog

/** Full records per tool ID, measured into each tool's compact budget. */
export type ContractFixtures = { readonly [tool_id: string]: readonly unknown[] }

/** Options of {@link contractLock}. */
export interface ContractLockOptions {
  /**
   * Full records per viewed tool ID: each listed tool's lock entry records the compact budget
   * measured on them (`budget`, see `docs/contracts.md` "Token budgets"). Needs tools from
   * `defineTool` (descriptors cannot project).
   */
  fixtures?: ContractFixtures
  /** Counts tokens for the budgets. Default: `gpt-tokenizer` o200k (an optional peer dependency). */
  countTokens?: CountTokens
  /**
   * The name recorded for `countTokens` (the budget's `tokenizer`, e.g. `words-v1`): 1–64
   * printable ASCII characters. Budgets compare only when both sides name the same tokenizer;
   * an unnamed `countTokens` records `custom`, and two `custom` budgets are `incomparable` (two
   * different counters must not be compared as one). Only with `countTokens`.
   */
  tokenizer?: string
}

const toolBrand = defineBrand('result-views.Tool')

/** True for a tool from `defineTool` (any copy of this library); never throws. */
export function isTool(value: unknown): value is Tool {
  try {
    return toolBrand.has(value)
  } catch {
    return false
  }
}

/**
 * The contract lock of a catalog (`docs/contracts.md` "The lock file"): per tool, sorted by ID, its
 * kind (`viewed` or `single`), origin, input schema (as callers see it: a viewed tool's lists
 * `result_view`) and every view schema, each with its schema digest, plus the compact budget of
 * the tools `options.fixtures` lists. Plain JSON (schemas are copies); write it with
 * `formatContractLock`.
 *
 * @param catalog - tools from `defineTool`, descriptors (`describeTool`, `dispatcher.list()`), or a dispatcher.
 * @throws ContractsError (`contracts_invalid`) listing every problem: a catalog that is none of
 *   those (`/tools`, `/tools/<index>`), a tool ID listed twice, fixtures for a tool that is not in
 *   the catalog, is not viewed, or is only a descriptor (`/fixtures/<tool_id>`), a fixture that is
 *   not a full record of its tool (`/fixtures/<tool_id>/<index>`).
 * @throws TokenizerUnavailableError when fixtures are given, no `countTokens`, and `gpt-tokenizer` is missing.
 */
export function contractLock(catalog: ContractCatalog, options: ContractLockOptions = {}): ContractLock {
  const { fixtures, countTokens, tokenizer } = readOptions(options, ['fixtures', 'countTokens', 'tokenizer'], 'contractLock options')
  tokenizerName(countTokens, tokenizer, 'contractLock options')
  if (countTokens !== undefined && typeof countTokens !== 'function') {
    throw new ContractsError('contractLock options', [{ path: '/countTokens', code: 'invalid_count_tokens', message: 'countTokens must be a function from text to a token count' }])
  }
  const entries = catalogEntries(catalog, 'contractLock catalog')
  const budgets = fixtures === undefined ? new Map<string, ViewBudget>() : measureFixtures(entries, fixtures, { ...(countTokens === undefined ? {} : { countTokens: countTokens as CountTokens }), ...(tokenizer === undefined ? {} : { tokenizer: tokenizer as string }) })
  const tools: Record<string, ToolContract> = {}
  for (const entry of [...entries].sort((a, b) => compareIds(a.descriptor.tool_id, b.descriptor.tool_id))) {
    const contract = toolContract(entry)
    const budget = budgets.get(entry.descriptor.tool_id)
    setOwn(tools, entry.descriptor.tool_id, budget === undefined ? contract : { ...contract, budget })
  }
  return { format: CONTRACT_LOCK_FORMAT, version: CONTRACT_LOCK_VERSION, tools }
}

/** Code-unit order, the order `formatContractLock` writes keys in. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** One catalog entry: its descriptor, and the tool when the catalog gave one. */
export interface CatalogEntry {
  readonly descriptor: ToolDescriptor
  readonly tool: Tool | undefined
}

/** The entries of a catalog, checked (every problem listed at once). */
export function catalogEntries(catalog: unknown, subject: string): CatalogEntry[] {
  let list: unknown
  try {
    list = Array.isArray(catalog) ? catalog : isDescriptorCatalog(catalog) ? (catalog as DescriptorCatalog).list() : undefined
  } catch (error) {
    throw new ContractsError(subject, [{ path: '/tools', code: 'unreadable_catalog', message: `the catalog could not be listed: ${describeThrown(error)}` }], error)
  }
  if (!Array.isArray(list)) {
    throw new ContractsError(subject, [{ path: '/tools', code: 'invalid_catalog', message: 'a catalog is an array of tools from defineTool or descriptors, or a dispatcher (anything with list())' }])
  }
  let dense = false
  try {
    dense = Object.keys(list).length === list.length
  } catch {
    dense = false
  }
  if (!dense) throw new ContractsError(subject, [{ path: '/tools', code: 'sparse_catalog', message: 'the catalog must be a dense array (it has holes, or cannot be read)' }])
  const problems: UsageProblem[] = []
  const entries: CatalogEntry[] = []
  const first = new Map<string, number>()
  for (let index = 0; index < list.length; index++) {
    const entry = readEntry(list, index)
    if (entry === undefined) {
      problems.push({ path: `/tools/${index}`, code: 'not_a_tool', message: 'not a tool from defineTool nor a tool descriptor (tool_id, description, input_schema, output_schema, output_schema_digest)' })
      continue
    }
    const id = entry.descriptor.tool_id
    const seen = first.get(id)
    if (seen !== undefined) {
      problems.push({ path: `/tools/${index}`, code: 'duplicate_tool_id', message: `tool ID ${JSON.stringify(id)} is already at /tools/${seen}` })
      continue
    }
    first.set(id, index)
    if (entry.tool === undefined) {
      const found = descriptorProblems(entry.descriptor, `/tools/${index}`)
      if (found.length > 0) {
        problems.push(...found)
        continue
      }
    }
    entries.push(entry)
  }
  if (problems.length > 0) throw new ContractsError(subject, problems)
  return entries
}

function isDescriptorCatalog(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { list?: unknown }).list === 'function'
}

/** The entry at `index`: a defined tool's descriptor, or a descriptor checked field by field. */
function readEntry(list: readonly unknown[], index: number): CatalogEntry | undefined {
  try {
    const value = list[index]
    if (isTool(value)) return { descriptor: describeTool(value), tool: value }
    return isDescriptor(value) ? { descriptor: value, tool: undefined } : undefined
  } catch {
    return undefined
  }
}

/** A descriptor's shape (`describeTool`): the fields a lock reads, each of the right type. */
function isDescriptor(value: unknown): value is ToolDescriptor {
  if (!isRecord(value)) return false
  const { tool_id, description, input_schema, output_schema, output_schema_digest, output_views } = value
  return typeof tool_id === 'string' && tool_id !== '' && typeof description === 'string' && isRecord(input_schema) &&
    isContract({ schema: output_schema, digest: output_schema_digest }) &&
    (output_views === undefined || (isRecord(output_views) && isContract(output_views.compact) && isContract(output_views.full)))
}

/**
 * What makes a descriptor's schemas unusable in a lock: a schema that is not plain JSON (a cycle,
 * nesting too deep, a lone surrogate: `invalid_schema`), or a digest that is not its schema's
 * (`digest_mismatch`: the lock would be refused when read back).
 */
function descriptorProblems(descriptor: ToolDescriptor, at: string): UsageProblem[] {
  const problems: UsageProblem[] = []
  const check = (schema: unknown, digest: string | undefined, schemaPath: string, digestPath: string): void => {
    let actual: string
    try {
      actual = schemaDigest(schema as JsonSchema)
    } catch (error) {
      problems.push({ path: `${at}${schemaPath}`, code: 'invalid_schema', message: `not a plain JSON schema: ${describeThrown(error)}` })
      return
    }
    if (digest !== undefined && digest !== actual) {
      problems.push({ path: `${at}${digestPath}`, code: 'digest_mismatch', message: `the digest ${digest} is not the schema digest of its schema (${actual})` })
    }
  }
  check(descriptor.input_schema, undefined, '/input_schema', '')
  check(descriptor.output_schema, descriptor.output_schema_digest, '/output_schema', '/output_schema_digest')
  const views = descriptor.output_views
  if (views !== undefined) {
    for (const view of ['compact', 'full'] as const) check(views[view].schema, views[view].digest, `/output_views/${view}/schema`, `/output_views/${view}/digest`)
  }
  return problems
}

function isContract(value: unknown): value is ViewContract {
  return isRecord(value) && isRecord(value.schema) && typeof value.digest === 'string' && /^[0-9a-f]{64}$/.test(value.digest)
}


/** A tool's contract from its descriptor (schemas copied out of the frozen descriptor). */
function toolContract({ descriptor, tool }: CatalogEntry): ToolContract {
  const input = copyContract({ schema: descriptor.input_schema, digest: descriptorInputDigest(descriptor) })
  const views = descriptor.output_views
  // A viewed tool is native by definition; a single-result descriptor does not say.
  const origin = tool?.origin ?? (views === undefined ? undefined : 'native')
  const base = origin === undefined ? { input } : { origin, input }
  if (views !== undefined) {
    const rules = views.compact.omit_when
    const omitWhen = Array.isArray(rules) && rules.length > 0 ? { omit_when: [...rules].sort() } : {}
    return { kind: 'viewed', ...base, views: { compact: copyContract(views.compact), full: copyContract(views.full) }, ...omitWhen }
  }
  return { kind: 'single', ...base, views: { output: copyContract({ schema: descriptor.output_schema, digest: descriptor.output_schema_digest }) } }
}

const inputDigests = new WeakMap<object, string>()

/** The schema digest of a descriptor's input schema (descriptors carry none), once per schema object. */
function descriptorInputDigest(descriptor: ToolDescriptor): string {
  let digest = inputDigests.get(descriptor.input_schema)
  if (digest === undefined) {
    digest = schemaDigest(descriptor.input_schema)
    inputDigests.set(descriptor.input_schema, digest)
  }
  return digest
}

function copyContract(contract: ViewContract): ViewContract {
  return { schema: JSON.parse(JSON.stringify(contract.schema)), digest: contract.digest }
}

/** The compact budget of every tool `fixtures` lists. */
function measureFixtures(entries: readonly CatalogEntry[], fixtures: unknown, counting: { countTokens?: CountTokens; tokenizer?: string }): Map<string, ViewBudget> {
  const subject = 'contractLock fixtures'
  if (!isRecord(fixtures)) throw new ContractsError(subject, [{ path: '/fixtures', code: 'invalid_fixtures', message: 'fixtures must be an object of tool ID → full records' }])
  const byId = new Map(entries.map((e) => [e.descriptor.tool_id, e]))
  const problems: UsageProblem[] = []
  const tools: Array<[ViewedTool, readonly unknown[]]> = []
  for (const id of Object.keys(fixtures)) {
    const at = `/fixtures/${escapePointerToken(id)}`
    const entry = byId.get(id)
    if (entry === undefined) problems.push({ path: at, code: 'unknown_tool', message: `tool ${JSON.stringify(id)} is not in the catalog` })
    else if (entry.descriptor.output_views === undefined) problems.push({ path: at, code: 'not_viewed', message: `tool ${JSON.stringify(id)} has no views, so no compact budget` })
    else if (entry.tool === undefined) problems.push({ path: at, code: 'descriptor_only', message: `tool ${JSON.stringify(id)} is only a descriptor here; measuring needs the tool from defineTool` })
    else tools.push([entry.tool as ViewedTool, fixtures[id] as readonly unknown[]])
  }
  if (problems.length > 0) throw new ContractsError(subject, problems)
  const budgets = new Map<string, ViewBudget>()
  for (const [tool, records] of tools) {
    let measured
    try {
      measured = measureViews(tool, records, counting)
    } catch (error) {
      throw rebased(error, `/fixtures/${escapePointerToken(tool.id)}`)
    }
    const { total } = measured
    budgets.set(tool.id, {
      tokenizer: measured.tokenizer, records: measured.records.length,
      compact_bytes: total.compact_bytes, compact_tokens: total.compact_tokens, full_bytes: total.full_bytes, full_tokens: total.full_tokens,
    })
  }
  return budgets
}

/** A measureViews ContractsError with its `/records/...` paths moved under `prefix` (other errors as they are). */
function rebased(error: unknown, prefix: string): unknown {
  if (!isContractsError(error)) return error
  const problems = error.problems.map((p) => ({ ...p, path: p.path.startsWith('/records') ? prefix + p.path.slice('/records'.length) : p.path }))
  return new ContractsError('contractLock fixtures', problems, error.cause)
}

/**
 * Reads either side of a comparison: a lock object (checked with `parseContractLock`) or a
 * catalog (made into a lock with `contractLock`).
 */
export function lockOf(source: ContractSource, subject: string, options: ContractLockOptions = {}): ContractLock {
  let isLock = false
  try {
    isLock = isRecord(source) && !isDescriptorCatalog(source) && Object.hasOwn(source, 'format')
  } catch {
    isLock = true // unreadable: parseContractLock says why
  }
  return isLock ? parseContractLock(source, subject) : contractLock(source as ContractCatalog, options)
}
