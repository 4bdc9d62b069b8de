import { isToolError, ToolError, type CallScope, type UsageProblem, type ValidationIssue, type View } from 'result-views'
import { callHost, type HostAnswer } from '../async/deadline.js'
import { quoted } from '../errors/quote.js'
import { isPlainObject } from '../json/guards.js'
import { resultPartForModel, type ResultPart } from '../model-output/result-part.js'
import { CONTINUATION_DEFAULTS, type ContinuationFound, type ContinuationPart, type ContinuationStore, type ContinuationStoreOptions } from './continuation-store.js'
import { memoryStore, readStoreBounds } from './memory-continuation-store.js'
import { nextCut, utf8Bytes } from './cut-json-text.js'

/** The smallest `maxResultBytes` a surface takes: a part must have room for some JSON. */
export const MIN_RESULT_BYTES = 256

/** The continuation tool's name after its prefix. */
export const CONTINUE_TOOL = 'result_continue'

/** How long one continuation store call may take, in milliseconds, before the surface gives up on it (`store_timeout`). */
export const CONTINUATION_STORE_TIMEOUT_MS = 5_000

/** The continuation tool's input schema, as listed: `{ continuation: string }` and nothing else. */
export const CONTINUE_INPUT_SCHEMA = Object.freeze({
  type: 'object',
  properties: Object.freeze({ continuation: Object.freeze({ type: 'string', description: 'The "continuation" handle of the previous part.' }) }),
  required: Object.freeze(['continuation']),
  additionalProperties: false,
})

/** A surface's result size limit, ready to use: the bound, the store, the continuation tool's name, the clock. */
export interface ResultLimit {
  readonly maxResultBytes: number
  readonly store: ContinuationStore
  readonly continueTool: string
  readonly now: () => number
}

/** What {@link checkLimitOptions} read: the bounds of a default store, or the host's store. */
export interface LimitOptions {
  readonly bounds: ContinuationStoreOptions
  readonly store: ContinuationStore | undefined
}

/** The problem codes of the limit options, the same on every surface (`docs/errors.md` "Misuse errors"). */
const LIMIT_OPTION_CODES = { invalid: 'invalid_limit', store: 'invalid_continuation_store' } as const

/** The methods a continuation store has. */
const STORE_METHODS = ['put', 'read', 'deleteExpired'] as const

/**
 * Checks `maxResultBytes` (an integer ≥ {@link MIN_RESULT_BYTES}), `continuations` (an object
 * of positive integers `maxEntries`, `maxBytes`, `ttlMs`, only with `maxResultBytes`) and
 * `continuationStore` (a `ContinuationStore`: `put`, `read`, `deleteExpired` functions; only with
 * `maxResultBytes`, and not with `continuations`, whose bounds the store's factory takes),
 * reporting each problem at its JSON Pointer with the same codes on every surface (MCP and HTTP):
 * `invalid_limit` for a bad value, `invalid_continuation_store` for a store that is not one (or
 * given with `continuations` or without `maxResultBytes`), and the options reader's
 * `unknown_option` (an unknown `continuations` key, with "did you mean"), `unreadable_option` (a
 * throwing getter or Proxy) and `invalid_option` (`continuations` not an object). Each bound is
 * read once.
 *
 * @returns a plain copy of the `continuations` bounds that were given, and the store.
 */
export function checkLimitOptions(
  maxResultBytes: unknown,
  continuations: unknown,
  problem: (path: string, code: string, message: string) => void,
  continuationStore?: unknown,
): LimitOptions {
  const codes = LIMIT_OPTION_CODES
  let store: ContinuationStore | undefined
  if (maxResultBytes !== undefined && (!Number.isSafeInteger(maxResultBytes) || (maxResultBytes as number) < MIN_RESULT_BYTES)) {
    problem('/maxResultBytes', codes.invalid, `maxResultBytes must be an integer ≥ ${MIN_RESULT_BYTES} (UTF-8 bytes of JSON text per result)`)
  }
  if (continuationStore !== undefined) {
    if (maxResultBytes === undefined) problem('/continuationStore', codes.store, 'continuationStore needs maxResultBytes (without a limit no result is cut)')
    if (continuations !== undefined) problem('/continuationStore', codes.store, 'give continuations (the bounds of the default memory store) or continuationStore (whose factory takes the bounds), not both')
    if (!hasMethods(continuationStore, STORE_METHODS)) problem('/continuationStore', codes.store, 'continuationStore must be a ContinuationStore (put, read and deleteExpired functions), e.g. createPostgresContinuationStore(...)')
    else store = continuationStore as ContinuationStore
  }
  if (continuations === undefined) return { bounds: {}, store }
  if (maxResultBytes === undefined) problem('/continuations', codes.invalid, 'continuations needs maxResultBytes (without a limit no result is cut)')
  if (typeof continuations !== 'object' || continuations === null || Array.isArray(continuations)) {
    problem('/continuations', codes.invalid, 'continuations must be an object { maxEntries?, maxBytes?, ttlMs? }')
    return { bounds: {}, store }
  }
  const problems: UsageProblem[] = []
  const bounds = readStoreBounds(continuations, '/continuations', problems)
  for (const { path, code, message } of problems) problem(path, code, code === 'invalid_limit' ? `continuations.${message}` : message)
  return { bounds, store }
}

/** True for an object (or function) whose `methods` are functions; a throwing getter or Proxy is false. */
function hasMethods(value: unknown, methods: readonly string[]): boolean {
  try {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false
    return methods.every((name) => typeof (value as Record<string, unknown>)[name] === 'function')
  } catch {
    return false
  }
}

/**
 * The limit of checked options (as {@link checkLimitOptions} read them): the host's store, or a
 * memory store of the bounds; `undefined` when `maxResultBytes` is not set.
 */
export function createResultLimit(maxResultBytes: number | undefined, options: LimitOptions, continueTool: string, now: () => number = Date.now): ResultLimit | undefined {
  if (maxResultBytes === undefined) return undefined
  const store = options.store ?? memoryStore({ ...CONTINUATION_DEFAULTS, ...options.bounds })
  return { maxResultBytes, store, continueTool, now }
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

/** The handle format: `rvc_<result id>_<start>`. */
const HANDLE = /^rvc_([0-9a-f-]{36})_([1-9][0-9]{0,15})$/
/** What a store's `put` must resolve to: a result ID a handle can carry. */
const RESULT_ID = /^[0-9a-f-]{36}$/

const handleOf = (id: string, start: number): string => `rvc_${id}_${start}`

/**
 * The first part of a result whose JSON `text` is larger than the limit, with the rest kept in the
 * store for the continuation tool; `undefined` when the text fits (the result is returned whole).
 * Every part after the first is cut here and kept at once, so any instance sharing the store reads
 * any of them. When the store keeps nothing (the result is larger than its `maxBytes`, or it
 * failed or took longer than {@link CONTINUATION_STORE_TIMEOUT_MS}), the first part says the rest
 * is not available: too large to keep (call again with narrower input), or, when the store failed,
 * not kept right now (calling again may succeed). The call itself succeeded: nothing is run again.
 */
export async function limitResult(limit: ResultLimit, text: string, toolId: string, resultView: View | undefined, scope: CallScope | undefined): Promise<ResultPart | undefined> {
  if (text.length <= limit.maxResultBytes / 3) return undefined
  const totalBytes = utf8Bytes(text)
  if (totalBytes <= limit.maxResultBytes) return undefined
  const { end, bytes } = nextCut(text, 0, limit.maxResultBytes)
  const parts: ContinuationPart[] = []
  for (let start = end, part = 2, from = bytes; start < text.length; part++) {
    const cut = nextCut(text, start, limit.maxResultBytes)
    parts.push(cut.end < text.length ? { start, part, bytes_from: from, text: text.slice(start, cut.end), next: cut.end } : { start, part, bytes_from: from, text: text.slice(start, cut.end) })
    from += cut.bytes
    start = cut.end
  }
  const result = resultView === undefined ? { scope_key: scopeKeyOf(scope), tool_id: toolId, total_bytes: totalBytes, parts } : { scope_key: scopeKeyOf(scope), tool_id: toolId, result_view: resultView, total_bytes: totalBytes, parts }
  const kept = await storeCall(() => limit.store.put(result, limit.now()), (id) => {
    if (id !== undefined && (typeof id !== 'string' || !RESULT_ID.test(id))) throw new TypeError('put resolved to something other than a result ID or undefined')
    return id
  })
  const id = kept.ok ? kept.value : undefined
  return resultPartForModel({
    text: text.slice(0, end), part: 1, bytesFrom: 0, bytesShown: bytes, totalBytes, resultView, continuation: id === undefined ? undefined : handleOf(id, end),
    continueTool: limit.continueTool, toolId, ...(id !== undefined ? {} : { restDropped: kept.ok ? 'too_large' : 'store_failed' }),
  })
}

/** A store call under {@link CONTINUATION_STORE_TIMEOUT_MS}, its answer read inside the guard. */
function storeCall<A, T>(work: () => PromiseLike<A>, read: (answer: A) => T): Promise<HostAnswer<T>> {
  return Promise.resolve(callHost(work, { timeoutMs: CONTINUATION_STORE_TIMEOUT_MS }, read))
}

/**
 * The part a continuation handle names, for the scope asking:
 *
 * @returns the part, or a `ToolError`: `tool_invalid_input` / `continuation_unknown` (not a handle
 *   the store issued, or one it no longer keeps), `tool_invalid_input` / `continuation_expired`
 *   (past its `ttlMs`), `tool_denied` / `continuation_scope_mismatch` (made by another scope),
 *   `continuation_unavailable` / `store_failed` (the store threw, rejected or answered something
 *   that is not a read), `store_timeout` (no answer within {@link CONTINUATION_STORE_TIMEOUT_MS}),
 *   `seal_key_unknown` or `seal_invalid` (a part sealed at rest that does not open: the store's own
 *   `continuation_unavailable` error, passed on).
 */
export async function continueResult(limit: ResultLimit, handle: unknown, scope: CallScope | undefined): Promise<ResultPart | ToolError> {
  const match = typeof handle === 'string' ? HANDLE.exec(handle) : null
  const tool = JSON.stringify(limit.continueTool)
  const unknown = (): ToolError =>
    new ToolError({ code: 'tool_invalid_input', reason: 'continuation_unknown', message: `tool ${tool}: the continuation is not one this server issued or keeps (results are kept for a limited time and number); call the tool again` })
  if (match === null) return unknown()
  const answer = await storeCall(() => limit.store.read(match[1]!, Number(match[2]), scopeKeyOf(scope), limit.now()), readAnswer)
  if (!answer.ok) {
    const cause = answer.cause
    if (answer.failure === 'threw' && isToolError(cause) && cause.code === 'continuation_unavailable') return cause
    const reason = answer.failure === 'timeout' ? 'store_timeout' : 'store_failed'
    const why = reason === 'store_timeout' ? `did not answer within ${CONTINUATION_STORE_TIMEOUT_MS} ms` : 'failed'
    return new ToolError({ code: 'continuation_unavailable', reason, message: `tool ${tool}: the continuation store ${why}; nothing was read, try again` })
  }
  const found = answer.value
  switch (found.kind) {
    case 'unknown':
      return unknown()
    case 'expired':
      return new ToolError({ code: 'tool_invalid_input', reason: 'continuation_expired', message: `tool ${tool}: the continuation expired; call the tool again` })
    case 'foreign':
      return new ToolError({ code: 'tool_denied', reason: 'continuation_scope_mismatch', message: `tool ${tool}: the continuation belongs to another scope` })
  }
  const { part } = found
  return resultPartForModel({
    text: part.text, part: part.part, bytesFrom: part.bytes_from, bytesShown: utf8Bytes(part.text), totalBytes: part.total_bytes,
    resultView: part.result_view as View | undefined, continuation: part.next === undefined ? undefined : handleOf(match[1]!, part.next), continueTool: limit.continueTool, toolId: part.tool_id,
  })
}

/** A store's read answer, checked and copied (a field of the wrong type is `store_failed`, never a wrong part). */
function readAnswer(answer: unknown): { readonly kind: 'unknown' | 'expired' | 'foreign' } | { readonly kind: 'found'; readonly part: ContinuationFound } {
  const kind = (answer as { kind?: unknown } | null | undefined)?.kind
  if (kind === 'unknown' || kind === 'expired' || kind === 'foreign') return { kind }
  if (kind !== 'found') throw new TypeError('read answered no kind')
  const p = (answer as { part?: Record<string, unknown> }).part ?? {}
  const { text, part, bytes_from: bytesFrom, next, tool_id: toolId, result_view: resultView, total_bytes: totalBytes } = p
  const count = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0
  if (typeof text !== 'string' || !count(part) || !count(bytesFrom) || !count(totalBytes) || typeof toolId !== 'string') throw new TypeError('read answered a malformed part')
  if ((next !== undefined && !count(next)) || (resultView !== undefined && typeof resultView !== 'string')) throw new TypeError('read answered a malformed part')
  const copy: ContinuationFound = { start: Number(p.start), part, bytes_from: bytesFrom, text, tool_id: toolId, total_bytes: totalBytes, ...(next === undefined ? {} : { next }), ...(resultView === undefined ? {} : { result_view: resultView }) }
  return { kind, part: copy }
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
