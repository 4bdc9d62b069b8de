import { ToolError, type CallScope, type UsageProblem, type ValidationIssue, type View } from 'result-views'
import { quoted } from '../errors/quote.js'
import { isPlainObject } from '../json/guards.js'
import { appendPointer } from '../json/pointer.js'
import { optionsTable, readOptions } from '../options/options.js'
import { resultPartForModel, type ResultPart } from '../model-output/result-part.js'
import { CONTINUATION_DEFAULTS, ContinuationStore, type ContinuationStoreOptions } from './continuation-store.js'
import { nextCut, utf8Bytes } from './cut-json-text.js'

/** The smallest `maxResultBytes` a surface takes: a part must have room for some JSON. */
export const MIN_RESULT_BYTES = 256

/** The continuation tool's name after its prefix. */
export const CONTINUE_TOOL = 'result_continue'

/** The continuation tool's input schema, as listed: `{ continuation: string }` and nothing else. */
export const CONTINUE_INPUT_SCHEMA = Object.freeze({
  type: 'object',
  properties: Object.freeze({ continuation: Object.freeze({ type: 'string', description: 'The "continuation" handle of the previous part.' }) }),
  required: Object.freeze(['continuation']),
  additionalProperties: false,
})

/** A surface's result size limit, ready to use: the bound, the store, the continuation tool's name. */
export interface ResultLimit {
  readonly maxResultBytes: number
  readonly store: ContinuationStore
  readonly continueTool: string
}

/** The bounds `continuations` knows. */
const STORE_OPTIONS = optionsTable(['maxEntries', 'maxBytes', 'ttlMs'])

/** The problem codes of the limit options, the same on every surface (`docs/errors.md` "Misuse errors"). */
const LIMIT_OPTION_CODES = { invalid: 'invalid_limit' } as const

/**
 * Checks `maxResultBytes` (an integer ≥ {@link MIN_RESULT_BYTES}) and `continuations` (an object
 * of positive integers `maxEntries`, `maxBytes`, `ttlMs`, only with `maxResultBytes`), reporting
 * each problem at its JSON Pointer with the same codes on every surface (MCP and HTTP):
 * `invalid_limit` for a bad value, and the options reader's `unknown_option` (an unknown
 * `continuations` key, with "did you mean"), `unreadable_option` (a throwing getter or Proxy) and
 * `invalid_option` (`continuations` not an object). Each bound is read once.
 *
 * @returns a plain copy of the `continuations` bounds that were given.
 */
export function checkLimitOptions(
  maxResultBytes: unknown,
  continuations: unknown,
  problem: (path: string, code: string, message: string) => void,
): ContinuationStoreOptions {
  const codes = LIMIT_OPTION_CODES
  const read: ContinuationStoreOptions = {}
  if (maxResultBytes !== undefined && (!Number.isSafeInteger(maxResultBytes) || (maxResultBytes as number) < MIN_RESULT_BYTES)) {
    problem('/maxResultBytes', codes.invalid, `maxResultBytes must be an integer ≥ ${MIN_RESULT_BYTES} (UTF-8 bytes of JSON text per result)`)
  }
  if (continuations === undefined) return read
  if (maxResultBytes === undefined) problem('/continuations', codes.invalid, 'continuations needs maxResultBytes (without a limit no result is cut)')
  if (typeof continuations !== 'object' || continuations === null || Array.isArray(continuations)) {
    problem('/continuations', codes.invalid, 'continuations must be an object { maxEntries?, maxBytes?, ttlMs? }')
    return read
  }
  const problems: UsageProblem[] = []
  const given = readOptions(continuations, STORE_OPTIONS, '/continuations', problems)
  for (const { path, code, message } of problems) problem(path, code, message)
  for (const key of STORE_OPTIONS.keys) {
    const value = given[key]
    if (value === undefined) continue
    if (!Number.isSafeInteger(value) || (value as number) < 1) problem(appendPointer('/continuations', key), codes.invalid, `continuations.${key} must be an integer ≥ 1`)
    else read[key] = value as number
  }
  return read
}

/** The limit of checked options (`continuations` as {@link checkLimitOptions} copied it), or `undefined` when `maxResultBytes` is not set. */
export function createResultLimit(maxResultBytes: number | undefined, continuations: ContinuationStoreOptions, continueTool: string, now?: () => number): ResultLimit | undefined {
  if (maxResultBytes === undefined) return undefined
  const store = new ContinuationStore({ ...CONTINUATION_DEFAULTS, ...continuations }, now)
  return { maxResultBytes, store, continueTool }
}

/** The key a continuation is bound to: the scope's four fields as canonical JSON (absent fields omitted). */
export function scopeKeyOf(scope: CallScope | undefined): string {
  const fields: Record<string, string> = {}
  for (const name of ['agent_name', 'profile_id', 'session_id', 'workspace_id'] as const) {
    const value = scope?.[name]
    if (typeof value === 'string') fields[name] = value
  }
  return JSON.stringify(fields)
}

/**
 * The first part of a result whose JSON `text` is larger than the limit, with the rest kept for
 * the continuation tool; `undefined` when the text fits (the result is returned whole).
 */
export function limitResult(limit: ResultLimit, text: string, toolId: string, resultView: View | undefined, scope: CallScope | undefined): ResultPart | undefined {
  if (text.length <= limit.maxResultBytes / 3) return undefined
  const totalBytes = utf8Bytes(text)
  if (totalBytes <= limit.maxResultBytes) return undefined
  const { end, bytes } = nextCut(text, 0, limit.maxResultBytes)
  const entry = limit.store.put({ text, totalBytes, scopeKey: scopeKeyOf(scope), toolId, resultView })
  const continuation = entry === undefined ? undefined : limit.store.handleOf(entry, end, 2, bytes)
  return resultPartForModel({
    text: text.slice(0, end), part: 1, bytesFrom: 0, bytesShown: bytes, totalBytes, resultView, continuation,
    continueTool: limit.continueTool, toolId, restDropped: entry === undefined,
  })
}

/**
 * The part a continuation handle names, for the scope asking:
 *
 * @returns the part, or a `ToolError`: `tool_invalid_input` / `continuation_unknown` (not a handle
 *   this store issued, or one it no longer keeps), `tool_invalid_input` / `continuation_expired`
 *   (past its `ttlMs`), `tool_denied` / `continuation_scope_mismatch` (made by another scope).
 */
export function continueResult(limit: ResultLimit, handle: unknown, scope: CallScope | undefined): ResultPart | ToolError {
  const found = limit.store.lookup(handle, scopeKeyOf(scope))
  const tool = JSON.stringify(limit.continueTool)
  switch (found.kind) {
    case 'unknown':
      return new ToolError({ code: 'tool_invalid_input', reason: 'continuation_unknown', message: `tool ${tool}: the continuation is not one this server issued or keeps (results are kept for a limited time and number); call the tool again` })
    case 'expired':
      return new ToolError({ code: 'tool_invalid_input', reason: 'continuation_expired', message: `tool ${tool}: the continuation expired; call the tool again` })
    case 'foreign':
      return new ToolError({ code: 'tool_denied', reason: 'continuation_scope_mismatch', message: `tool ${tool}: the continuation belongs to another scope` })
  }
  const { entry, start, part, bytesFrom } = found
  const { end, bytes } = nextCut(entry.text, start, limit.maxResultBytes)
  const continuation = end < entry.text.length ? limit.store.handleOf(entry, end, part + 1, bytesFrom + bytes) : undefined
  return resultPartForModel({
    text: entry.text.slice(start, end), part, bytesFrom, bytesShown: bytes, totalBytes: entry.totalBytes,
    resultView: entry.resultView as View | undefined, continuation, continueTool: limit.continueTool, toolId: entry.toolId,
  })
}

/**
 * The continuation tool's arguments checked against {@link CONTINUE_INPUT_SCHEMA}, as any tool's
 * input is checked against its schema (absent arguments are `{}`).
 *
 * @returns the handle, or `tool_invalid_input` / `schema_invalid` with every problem in
 *   `details.issues` (JSON Schema validation issues: an unknown property, a missing or non-string
 *   `continuation`, arguments that are not an object) and the first three named in the message.
 */
export function continueHandleOf(limit: ResultLimit, args: unknown): string | ToolError {
  const issues: ValidationIssue[] = []
  const given = args === undefined ? {} : args
  try {
    if (!isPlainObject(given)) {
      issues.push({ instancePath: '', schemaPath: '#/type', keyword: 'type', message: 'must be object', params: { type: 'object' } })
    } else {
      for (const key of Object.keys(given)) {
        if (key === 'continuation') continue
        issues.push({ instancePath: '', schemaPath: '#/additionalProperties', keyword: 'additionalProperties', message: 'must NOT have additional properties', params: { additionalProperty: key } })
      }
      const handle = Object.hasOwn(given, 'continuation') ? given.continuation : undefined
      if (handle === undefined) {
        issues.push({ instancePath: '', schemaPath: '#/required', keyword: 'required', message: "must have required property 'continuation'", params: { missingProperty: 'continuation' } })
      } else if (typeof handle !== 'string') {
        issues.push({ instancePath: '/continuation', schemaPath: '#/properties/continuation/type', keyword: 'type', message: 'must be string', params: { type: 'string' } })
      } else if (issues.length === 0) return handle
    }
  } catch {
    issues.push({ instancePath: '', schemaPath: '#/type', keyword: 'type', message: 'could not be read (a getter or a Proxy threw)', params: { type: 'object' } })
  }
  const named = issues.slice(0, 3).map(describeIssue)
  const more = issues.length - named.length
  const problems = named.join('; ') + (more > 0 ? `; and ${more} more problem${more === 1 ? '' : 's'} (details.issues lists all)` : '')
  return new ToolError({
    code: 'tool_invalid_input',
    reason: 'schema_invalid',
    message: `tool ${JSON.stringify(limit.continueTool)} input does not match its schema: ${problems}`,
    details: { issues },
  })
}

/** One issue of the continuation tool's arguments, worded as the dispatcher words a tool's input issues. */
function describeIssue(issue: ValidationIssue): string {
  switch (issue.keyword) {
    case 'additionalProperties':
      return `unknown property ${quoted(String(issue.params.additionalProperty))}`
    case 'required':
      return 'missing required property "continuation"'
    default:
      return `wrong type${issue.instancePath === '' ? ' of the input' : ` at ${quoted(issue.instancePath)}`}: ${issue.message}`
  }
}
