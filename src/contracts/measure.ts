import { Ajv, type ValidateFunction } from 'ajv'
import formatsModule from 'ajv-formats'
import { canonicalJson, isJsonValueError, type JsonSchema, type UsageProblem, type ViewedTool } from 'result-views'
import { defineBrand } from '../errors/brand.js'
import { DEFAULT_TOKENIZER, describeThrown, tokenCounter, type CountTokens } from '../tokens/count-tokens.js'
import { readOptions } from './options.js'
import { ContractsError } from './contracts-error.js'

/** Options of {@link measureViews}. */
export interface MeasureViewsOptions {
  /** Counts the tokens of a text, synchronously. Default: `gpt-tokenizer` o200k (an optional peer dependency). */
  countTokens?: CountTokens
  /**
   * The name recorded for `countTokens` (the budget's `tokenizer`, e.g. `words-v1`): 1–64
   * printable ASCII characters. Budgets compare only when both sides name the same tokenizer;
   * an unnamed `countTokens` records `custom`, and two `custom` budgets are `incomparable` (two
   * different counters must not be compared as one). Only with `countTokens`.
   */
  tokenizer?: string
  /**
   * `false`: measure bytes only (`ViewByteMeasurement`); no tokenizer is loaded or needed, so
   * `gpt-tokenizer` may be absent. Not with `countTokens` or `tokenizer`. Default: `true`.
   */
  tokens?: boolean
}

/** The byte sizes of one full record and of its compact projection (`measureViews` with `tokens: false`). */
export type RecordByteMeasurement = Pick<RecordMeasurement, 'index' | 'compact_bytes' | 'full_bytes'>

/** What {@link measureViews} returns with `tokens: false`: bytes only, no token was counted. */
export interface ViewByteMeasurement {
  /** The measured tool's ID. */
  readonly tool_id: string
  /** Always `null`: no tokenizer ran. */
  readonly tokenizer: null
  /** One measurement per record, in `records` order. */
  readonly records: readonly RecordByteMeasurement[]
  /** The byte totals over every record. */
  readonly total: Pick<MeasurementTotal, 'compact_bytes' | 'full_bytes'>
}

/** The sizes of one full record and of its compact projection. */
export interface RecordMeasurement {
  /** The record's index in the `records` argument. */
  readonly index: number
  /** UTF-8 bytes of the compact record's canonical JSON (sorted keys, no whitespace). */
  readonly compact_bytes: number
  /** Tokens of the compact record's canonical JSON. */
  readonly compact_tokens: number
  /** UTF-8 bytes of the full record's canonical JSON. */
  readonly full_bytes: number
  /** Tokens of the full record's canonical JSON. */
  readonly full_tokens: number
  /** `1 - compact_tokens / full_tokens` (0 when the full record has no token). */
  readonly savings_ratio: number
}

/** The totals over every measured record, with the same fields. */
export interface MeasurementTotal {
  /** Sum of the records' `compact_bytes`. */
  readonly compact_bytes: number
  /** Sum of the records' `compact_tokens`. */
  readonly compact_tokens: number
  /** Sum of the records' `full_bytes`. */
  readonly full_bytes: number
  /** Sum of the records' `full_tokens`. */
  readonly full_tokens: number
  /** `1 - compact_tokens / full_tokens` over the totals (0 when no full token). */
  readonly savings_ratio: number
}

/** What {@link measureViews} returns. */
export interface ViewMeasurement {
  /** The measured tool's ID. */
  readonly tool_id: string
  /** `o200k_base` for the default counter; for a caller's `countTokens`, the `tokenizer` option, else `custom`. */
  readonly tokenizer: string
  /** One measurement per record, in `records` order. */
  readonly records: readonly RecordMeasurement[]
  /** The totals over every record. */
  readonly total: MeasurementTotal
}

const toolBrand = defineBrand('result-views.Tool')

/**
 * Measures what a viewed tool's results cost: for each full record, the UTF-8 bytes and tokens of
 * its JSON in the full view and in the compact view (`tool.project(record, 'compact')`), and the
 * totals. The JSON is canonical JSON (RFC 8785: sorted keys, no whitespace), so the figures do
 * not depend on the order a handler wrote its keys in.
 * Tokens are counted by `options.countTokens`, else by `gpt-tokenizer` (o200k, loaded on first
 * use; works offline). Each record must be a valid full record of the tool (plain JSON, accepted by
 * its full schema): measuring anything else would measure a projection the dispatcher never makes.
 * See `docs/contracts.md` "Token budgets".
 *
 * @param tool - a viewed tool from `defineTool`.
 * @param records - full records (e.g. the tool's fixtures); a dense array, at least one.
 * @param options - `countTokens` and its `tokenizer` name, or `tokens: false` for bytes only.
 * @returns per record and in total: `compact_bytes`, `compact_tokens`, `full_bytes`, `full_tokens`,
 *   `savings_ratio`; with `tokens: false`, `compact_bytes` and `full_bytes` only (`tokenizer: null`).
 * @throws ContractsError (`contracts_invalid`) listing every problem: a `tool` that is not a viewed
 *   tool from `defineTool` (`/tool`), `records` not a dense non-empty array (`/records`), a record
 *   that is not plain JSON or not full-valid (`/records/<index>`, with the first ajv message), a
 *   `countTokens` that throws or returns something other than a non-negative integer (`/countTokens`).
 * @throws TokenizerUnavailableError (`tokenizer_unavailable`) when no `countTokens` is given,
 *   tokens are counted and `gpt-tokenizer` cannot be loaded.
 */
export function measureViews(tool: ViewedTool, records: readonly unknown[], options: MeasureViewsOptions & { tokens: false }): ViewByteMeasurement
/**
 * Measures bytes and tokens of a viewed tool's records (the overload above describes every
 * figure, option and error; `docs/contracts.md` "Token budgets").
 *
 * @returns per record and in total: `compact_bytes`, `compact_tokens`, `full_bytes`, `full_tokens`, `savings_ratio`.
 */
export function measureViews(tool: ViewedTool, records: readonly unknown[], options?: MeasureViewsOptions): ViewMeasurement
export function measureViews(tool: ViewedTool, records: readonly unknown[], options: MeasureViewsOptions = {}): ViewMeasurement | ViewByteMeasurement {
  const subject = 'measureViews arguments'
  const fail = (problem: UsageProblem, cause?: unknown): never => {
    throw new ContractsError(subject, [problem], cause)
  }
  if (!toolBrand.has(tool) || (tool as { kind?: unknown }).kind !== 'viewed') {
    fail({ path: '/tool', code: 'not_a_viewed_tool', message: 'tool must be a viewed tool from defineTool (output: { compact, full })' })
  }
  const { countTokens, tokenizer, tokens } = readOptions(options, ['countTokens', 'tokenizer', 'tokens'], 'measureViews options')
  if (tokens !== undefined && typeof tokens !== 'boolean') {
    throw new ContractsError('measureViews options', [{ path: '/tokens', code: 'invalid_options', message: 'tokens must be a boolean (false: bytes only)' }])
  }
  if (tokens === false) {
    if (countTokens !== undefined || tokenizer !== undefined) {
      throw new ContractsError('measureViews options', [{ path: '/tokens', code: 'invalid_options', message: 'tokens: false measures bytes only: give no countTokens or tokenizer with it' }])
    }
    return measureBytes(tool, checkedRecords(tool, records, subject))
  }
  const name = tokenizerName(countTokens, tokenizer, 'measureViews options')
  const full = checkedRecords(tool, records, subject)
  const count = tokenCounter(countTokens, subject, fail)
  const measured: RecordMeasurement[] = []
  for (let index = 0; index < full.length; index++) {
    const fullText = full[index]!
    const compactText = compactTextOf(tool, fullText)
    const sizes = sizesOf(compactText, fullText, count)
    measured.push({ index, ...sizes, savings_ratio: savings(sizes.compact_tokens, sizes.full_tokens) })
  }
  let compact_bytes = 0
  let compact_tokens = 0
  let full_bytes = 0
  let full_tokens = 0
  for (const m of measured) {
    compact_bytes += m.compact_bytes
    compact_tokens += m.compact_tokens
    full_bytes += m.full_bytes
    full_tokens += m.full_tokens
  }
  return {
    tool_id: tool.id,
    tokenizer: name,
    records: measured,
    total: { compact_bytes, compact_tokens, full_bytes, full_tokens, savings_ratio: savings(compact_tokens, full_tokens) },
  }
}

/** The canonical JSON of a full record's compact projection. */
function compactTextOf(tool: ViewedTool, fullText: string): string {
  return canonicalJson(tool.project(JSON.parse(fullText), 'compact'))
}

/** Bytes only: what `measureViews` measures with `tokens: false`. */
function measureBytes(tool: ViewedTool, full: readonly string[]): ViewByteMeasurement {
  const records: RecordByteMeasurement[] = []
  let compact_bytes = 0
  let full_bytes = 0
  for (let index = 0; index < full.length; index++) {
    const fullText = full[index]!
    const measured = { index, compact_bytes: Buffer.byteLength(compactTextOf(tool, fullText), 'utf8'), full_bytes: Buffer.byteLength(fullText, 'utf8') }
    compact_bytes += measured.compact_bytes
    full_bytes += measured.full_bytes
    records.push(measured)
  }
  return { tool_id: tool.id, tokenizer: null, records, total: { compact_bytes, full_bytes } }
}

/** What an unnamed caller's `countTokens` is recorded as: budgets so named never compare equal. */
export const UNNAMED_TOKENIZER = 'custom'

/**
 * The tokenizer name a measurement records: `o200k_base` for the default counter, else the
 * `tokenizer` option, else `custom`.
 *
 * @throws ContractsError (`contracts_invalid`, `invalid_tokenizer` at `/tokenizer`) for a name
 *   that is not 1–64 printable ASCII characters, or one given without `countTokens`.
 */
export function tokenizerName(countTokens: unknown, tokenizer: unknown, subject: string): string {
  if (tokenizer === undefined) return countTokens === undefined ? DEFAULT_TOKENIZER : UNNAMED_TOKENIZER
  if (typeof tokenizer !== 'string' || !/^[\x21-\x7e][\x20-\x7e]{0,63}$/.test(tokenizer) || countTokens === undefined) {
    throw new ContractsError(subject, [{
      path: '/tokenizer', code: 'invalid_tokenizer',
      message: countTokens === undefined && typeof tokenizer === 'string'
        ? 'tokenizer names a countTokens function: pass countTokens too (the default counter is always o200k_base)'
        : 'tokenizer must be 1-64 printable ASCII characters naming the countTokens function, e.g. "words-v1"',
    }])
  }
  return tokenizer
}

function sizesOf(compactText: string, fullText: string, count: CountTokens): Omit<RecordMeasurement, 'index' | 'savings_ratio'> {
  return {
    compact_bytes: Buffer.byteLength(compactText, 'utf8'),
    compact_tokens: count(compactText),
    full_bytes: Buffer.byteLength(fullText, 'utf8'),
    full_tokens: count(fullText),
  }
}

function savings(compact: number, full: number): number {
  return full === 0 ? 0 : 1 - compact / full
}

/**
 * The records as their JSON texts, each checked: plain JSON (a canonical-JSON check that reads
 * every value inside a guard) and valid under the tool's full schema.
 */
function checkedRecords(tool: ViewedTool, records: unknown, subject: string): string[] {
  if (!Array.isArray(records)) throw new ContractsError(subject, [{ path: '/records', code: 'invalid_records', message: 'records must be an array of full records' }])
  // Holes first: a sparse array's length says nothing about its entries (2 ** 32 - 1 is valid).
  let dense: boolean
  try {
    dense = Object.keys(records).length === records.length
  } catch (error) {
    throw new ContractsError(subject, [{ path: '/records', code: 'unreadable_records', message: `records could not be read: ${describeThrown(error)}` }], error)
  }
  if (!dense) throw new ContractsError(subject, [{ path: '/records', code: 'sparse_records', message: 'records must be a dense array (it has holes)' }])
  if (records.length === 0) throw new ContractsError(subject, [{ path: '/records', code: 'no_records', message: 'records must hold at least one full record' }])
  const validate = fullValidator(tool.output.full)
  const problems: UsageProblem[] = []
  const texts: string[] = []
  for (let index = 0; index < records.length; index++) {
    const at = `/records/${index}`
    let text: string
    try {
      // One read of the record: the canonical text is the copy that gets validated and measured.
      text = canonicalJson(records[index])
    } catch (error) {
      problems.push({ path: at, code: 'not_json', message: `not plain JSON: ${isJsonValueError(error) ? error.message : describeThrown(error)}` })
      continue
    }
    const copy: unknown = JSON.parse(text)
    if (!validate(copy)) {
      const first = validate.errors?.[0]
      problems.push({ path: at, code: 'not_full_valid', message: `not a full record of tool "${tool.id}": ${first === undefined ? 'rejected by the full schema' : `${first.instancePath || '/'} ${first.message ?? ''}`.trim()}` })
      continue
    }
    texts.push(text)
  }
  if (problems.length > 0) throw new ContractsError(subject, problems)
  return texts
}

// ajv-formats is CommonJS: its plugin may sit on `default` under ESM interop.
const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (ajv: Ajv) => Ajv
const validators = new WeakMap<JsonSchema, ValidateFunction>()

/** The full schema's validator, compiled once per schema object in its own ajv (schemas may share an `$id`). */
function fullValidator(schema: JsonSchema): ValidateFunction {
  let validate = validators.get(schema)
  if (validate === undefined) {
    // loopRequired 0: ajv's unrolled `required` check never enforces `required: [""]` (an ajv 8 defect).
    validate = addFormats(new Ajv({ strict: false, ownProperties: true, loopRequired: 0 })).compile(schema)
    validators.set(schema, validate)
  }
  return validate
}
