import { canonicalJson, schemaDigest, type UsageProblem, type ViewContract } from 'result-views'
import { setOwn } from '../json/clone.js'
import { firstHole, isRecord } from '../json/guards.js'
import { escapePointerToken } from '../json/pointer.js'
import { describeThrown } from '../tokens/count-tokens.js'
import { ContractsError } from './contracts-error.js'
import { CONTRACT_LOCK_FORMAT, CONTRACT_LOCK_VERSION, type ContractLock, type ToolContract, type ViewBudget } from './lock.js'

/**
 * The text of a lock file: JSON with every object's keys in sorted (code-unit) order, two-space
 * indentation and a final newline, so the file diffs well and equal contracts give identical bytes
 * on every run and machine. Arrays keep their order (`required` lists stay as declared).
 *
 * @param lock - a lock from `contractLock` (or `parseContractLock`).
 * @throws JsonValueError (`non_json_value`) when the lock is not plain JSON.
 */
export function formatContractLock(lock: ContractLock): string {
  canonicalJson(lock)
  return `${sortedJson(lock, '')}\n`
}

/** Pretty JSON with sorted keys, of a value already checked to be plain JSON. */
export function sortedJson(value: unknown, indent: string): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value)
  const inner = indent + '  '
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    return `[\n${value.map((item) => inner + sortedJson(item, inner)).join(',\n')}\n${indent}]`
  }
  const keys = Object.keys(value).sort()
  if (keys.length === 0) return '{}'
  const record = value as Record<string, unknown>
  return `{\n${keys.map((key) => `${inner}${JSON.stringify(key)}: ${sortedJson(record[key], inner)}`).join(',\n')}\n${indent}}`
}

const DIGEST = /^[0-9a-f]{64}$/
const ORIGINS: ReadonlySet<unknown> = new Set(['native', 'extension', 'mcp'])
const BUDGET_COUNTS = ['records', 'compact_bytes', 'compact_tokens', 'full_bytes', 'full_tokens'] as const

/**
 * Reads a lock: its JSON text (a file's contents) or the parsed value, checked against the lock
 * format of `docs/contracts.md` "The lock file": `format`, `version` 1, and per tool a `kind`, an
 * optional `origin`, the `input` and the view schemas each with the digest of that very schema, and
 * an optional `budget`. Unknown keys are refused (a typo must not pass for a contract).
 *
 * @param source - the lock text, or the lock value.
 * @param subject - names the lock in the error message (e.g. the file path). Default `'contract lock'`.
 * @returns a plain-JSON copy of the lock.
 * @throws ContractsError (`contracts_invalid`) listing every problem at its JSON Pointer in the
 *   lock: text that is not JSON, a value that is not plain JSON, an unknown format or version, a
 *   missing or malformed field, a digest that does not match its schema.
 */
export function parseContractLock(source: unknown, subject = 'contract lock'): ContractLock {
  let value: unknown
  try {
    value = JSON.parse(typeof source === 'string' ? source : canonicalJson(source))
  } catch (error) {
    const what = typeof source === 'string' ? 'is not JSON' : 'is not plain JSON'
    throw new ContractsError(subject, [{ path: '', code: 'not_json', message: `the lock ${what}: ${describeThrown(error)}` }], error)
  }
  const problems: UsageProblem[] = []
  const lock = readLock(value, problems)
  if (lock === undefined || problems.length > 0) throw new ContractsError(subject, problems)
  return lock
}

type Problems = UsageProblem[]


function unknownKeys(value: Record<string, unknown>, allowed: readonly string[], at: string, problems: Problems): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) problems.push({ path: `${at}/${escapePointerToken(key)}`, code: 'unknown_key', message: `unknown key ${JSON.stringify(key)}` })
  }
}

function readLock(value: unknown, problems: Problems): ContractLock | undefined {
  if (!isRecord(value)) {
    problems.push({ path: '', code: 'invalid_lock', message: `a lock is an object with format, version and tools` })
    return undefined
  }
  if (value.format !== CONTRACT_LOCK_FORMAT) {
    problems.push({ path: '/format', code: 'unknown_format', message: `format must be ${JSON.stringify(CONTRACT_LOCK_FORMAT)}` })
  }
  if (value.version !== CONTRACT_LOCK_VERSION) {
    problems.push({ path: '/version', code: 'unknown_version', message: `version ${JSON.stringify(value.version)} is not one this library reads (${CONTRACT_LOCK_VERSION}); a newer lock needs a newer result-views` })
    return undefined
  }
  unknownKeys(value, ['format', 'version', 'tools'], '', problems)
  if (!isRecord(value.tools)) {
    problems.push({ path: '/tools', code: 'invalid_tools', message: 'tools must be an object of tool ID → contract' })
    return undefined
  }
  const tools: Record<string, ToolContract> = {}
  for (const id of Object.keys(value.tools).sort()) {
    const at = `/tools/${escapePointerToken(id)}`
    if (id === '') problems.push({ path: at, code: 'invalid_tool_id', message: 'a tool ID is a non-empty string' })
    const contract = readTool(value.tools[id], at, problems)
    if (contract !== undefined) setOwn(tools, id, contract)
  }
  return { format: CONTRACT_LOCK_FORMAT, version: CONTRACT_LOCK_VERSION, tools }
}

function readTool(value: unknown, at: string, problems: Problems): ToolContract | undefined {
  if (!isRecord(value)) {
    problems.push({ path: at, code: 'invalid_tool', message: 'a tool contract is an object with kind, input and views' })
    return undefined
  }
  unknownKeys(value, ['kind', 'origin', 'input', 'views', 'budget', 'omit_when'], at, problems)
  const { kind, origin } = value
  if (origin !== undefined && !ORIGINS.has(origin)) problems.push({ path: `${at}/origin`, code: 'invalid_origin', message: 'origin must be "native", "extension" or "mcp"' })
  const input = readContract(value.input, `${at}/input`, problems)
  const budget = value.budget === undefined ? undefined : readBudget(value.budget, `${at}/budget`, problems)
  const omitWhen = value.omit_when === undefined ? undefined : readOmitWhen(value.omit_when, kind, `${at}/omit_when`, problems)
  const views = value.views
  if (kind !== 'viewed' && kind !== 'single') {
    problems.push({ path: `${at}/kind`, code: 'invalid_kind', message: 'kind must be "viewed" or "single"' })
    return undefined
  }
  if (!isRecord(views)) {
    problems.push({ path: `${at}/views`, code: 'invalid_views', message: kind === 'viewed' ? 'views must be { compact, full }' : 'views must be { output }' })
    return undefined
  }
  if (kind === 'viewed' && origin !== undefined && origin !== 'native' && ORIGINS.has(origin)) {
    problems.push({ path: `${at}/origin`, code: 'invalid_origin', message: 'a viewed tool is native: only native tools have result views' })
  }
  if (kind === 'single' && value.budget !== undefined) {
    problems.push({ path: `${at}/budget`, code: 'invalid_budget', message: 'only a viewed tool has a compact budget' })
  }
  const names = kind === 'viewed' ? ['compact', 'full'] : ['output']
  unknownKeys(views, names, `${at}/views`, problems)
  const read = names.map((name) => readContract(views[name], `${at}/views/${name}`, problems))
  if (input === undefined || read.some((c) => c === undefined)) return undefined
  const base = { ...(origin === undefined ? {} : { origin: origin as ToolContract['origin'] & string }), input, ...(budget === undefined ? {} : { budget }) }
  return kind === 'viewed'
    ? { kind, ...base, views: { compact: read[0]!, full: read[1]! }, ...(omitWhen === undefined ? {} : { omit_when: omitWhen }) }
    : { kind, ...base, views: { output: read[0]! } }
}

function readContract(value: unknown, at: string, problems: Problems): ViewContract | undefined {
  if (!isRecord(value)) {
    problems.push({ path: at, code: 'invalid_schema_contract', message: 'must be { schema, digest }' })
    return undefined
  }
  unknownKeys(value, ['schema', 'digest'], at, problems)
  const { schema, digest } = value
  if (!isRecord(schema) && typeof schema !== 'boolean') {
    problems.push({ path: `${at}/schema`, code: 'invalid_schema', message: 'schema must be a JSON Schema (an object or a boolean)' })
    return undefined
  }
  if (typeof digest !== 'string' || !DIGEST.test(digest)) {
    problems.push({ path: `${at}/digest`, code: 'invalid_digest', message: 'digest must be 64 lowercase hex characters' })
    return undefined
  }
  if (schemaDigest(schema) !== digest) {
    problems.push({ path: `${at}/digest`, code: 'digest_mismatch', message: 'digest is not the schema digest of schema (the lock was edited by hand or damaged; regenerate it with --update)' })
    return undefined
  }
  return { schema: schema as ViewContract['schema'], digest }
}

/** A viewed tool's rule paths: a non-empty, sorted list of distinct JSON Pointers. */
function readOmitWhen(value: unknown, kind: unknown, at: string, problems: Problems): readonly string[] | undefined {
  // Holes first: `every` would walk all 2 ** 32 - 1 indices of a sparse list.
  const ok =
    kind === 'viewed' && Array.isArray(value) && value.length > 0 && firstHole(value) === -1 &&
    value.every((path, i) => typeof path === 'string' && path.startsWith('/') && (i === 0 || (value[i - 1] as string) < path))
  if (!ok) {
    problems.push({ path: at, code: 'invalid_omit_when', message: 'omit_when (viewed tools only) must be a non-empty sorted list of distinct rule paths ("/skills/*/diagnostics")' })
    return undefined
  }
  return value as string[]
}

function readBudget(value: unknown, at: string, problems: Problems): ViewBudget | undefined {
  if (!isRecord(value)) {
    problems.push({ path: at, code: 'invalid_budget', message: 'budget must be { tokenizer, records, compact_bytes, compact_tokens, full_bytes, full_tokens }' })
    return undefined
  }
  unknownKeys(value, ['tokenizer', ...BUDGET_COUNTS], at, problems)
  let ok = true
  if (typeof value.tokenizer !== 'string' || value.tokenizer === '') {
    problems.push({ path: `${at}/tokenizer`, code: 'invalid_budget', message: 'tokenizer must be a non-empty string' })
    ok = false
  }
  for (const key of BUDGET_COUNTS) {
    const count = value[key]
    // A budget is measured on at least one record (measureViews refuses none).
    const least = key === 'records' ? 1 : 0
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < least) {
      problems.push({ path: `${at}/${key}`, code: 'invalid_budget', message: least === 1 ? `${key} must be a positive integer` : `${key} must be a non-negative integer` })
      ok = false
    }
  }
  return ok ? (value as unknown as ViewBudget) : undefined
}
