import { ToolErrorCodes } from '../errors/codes.js'
import { isPlainObject } from '../json/guards.js'
import { ownJsonCopy } from '../json/own-copy.js'
import { isView } from '../views/view.js'
import { grantKeyText, type ApprovalGrant, type ApprovalTokenRecord, type GrantDecision, type GrantKey, type GrantScope, type PendingApprovalRecord, type PendingState } from './stores.js'

// How the answer of each store method is read: inside the store-call guard (`callStore`), into a
// checked plain JSON copy of the shape the approval step relies on. An answer of another shape
// throws here, which the guard turns into `approval_unavailable` / `store_failed` (fail closed):
// nothing downstream ever reads a field of the wrong type.

/** Reads one store method's answer (see `callStore`); throws for an answer of the wrong shape. */
export type StoreAnswer<T> = (answer: unknown) => T

/** Why a store's answer was refused: the `cause` of the `store_failed` error (never shown to callers). */
class StoreAnswerError extends Error {
  override readonly name = 'StoreAnswerError'
}

function refuse(what: string): never {
  throw new StoreAnswerError(what)
}

/** The answer of a method whose value is never used (`insert`, `put`, `deleteExpired`): not read at all. */
export const ignoredAnswer: StoreAnswer<undefined> = () => undefined

/** The answer of `consume`, `update` and `delete`: exactly `true` or `false` (a `"yes"` is a failing store). */
export const booleanAnswer: StoreAnswer<boolean> = (answer) => (typeof answer === 'boolean' ? answer : refuse('the store answered something that is not a boolean'))

/** The answer of `deleteExpired`: how many records it deleted, a non-negative integer. */
export const countAnswer: StoreAnswer<number> = (answer) =>
  typeof answer === 'number' && Number.isSafeInteger(answer) && answer >= 0 ? answer : refuse('the store answered something that is not a count')

/** A checked plain JSON copy of an object answer (the default reading); scalars as they are. */
export const copiedAnswer: StoreAnswer<unknown> = (answer) => (typeof answer === 'object' && answer !== null ? ownJsonCopy(answer) : answer)

/** The answer of `tokens.get`: `undefined` (or `null`) for none, else a token record. */
export const tokenRecordAnswer: StoreAnswer<ApprovalTokenRecord | undefined> = (answer) => {
  const record = recordCopy(answer)
  if (record === undefined) return undefined
  requireStrings(record, ['token_hash', 'tool_id', 'input_digest', 'created_at', 'expires_at'], ['workspace_id', 'session_id', 'agent_name', 'consumed_at'])
  return record as unknown as ApprovalTokenRecord
}

const GRANT_SCOPES: readonly unknown[] = ['exact', 'agent', 'tool']
const DECISIONS: readonly unknown[] = ['allow', 'reject']
const ORIGINS: readonly unknown[] = ['prompt', 'management']

/**
 * The one checked reader of a grant, for `grants.get` answers and every `grants.list` entry: a
 * frozen plain copy holding only the grant's fields (`null` optional fields read as absent). A
 * grant of the wrong shape (a field of the wrong type, an unknown scope, decision or origin, an
 * agent or input digest its scope forbids) throws, so a broken store fails closed.
 */
function checkedGrant(value: unknown): ApprovalGrant {
  if (!isPlainObject(value)) refuse('the grant store answered a grant that is not an object')
  requireStrings(value, ['grant_id', 'workspace_id', 'tool_id', 'created_at'], ['agent_name', 'input_digest'])
  const { grant_id, workspace_id, tool_id, scope, decision, origin, created_at } = value
  if (!GRANT_SCOPES.includes(scope) || !DECISIONS.includes(decision) || !ORIGINS.includes(origin)) refuse('the grant store answered a grant of the wrong shape')
  const agent_name = (value.agent_name ?? undefined) as string | undefined
  const input_digest = (value.input_digest ?? undefined) as string | undefined
  if ((scope === 'exact') !== (input_digest !== undefined)) refuse('the grant store answered a grant whose input_digest does not fit its scope')
  if ((scope === 'agent' && agent_name === undefined) || (scope === 'tool' && agent_name !== undefined)) refuse('the grant store answered a grant whose agent_name does not fit its scope')
  return Object.freeze({
    grant_id: grant_id as string,
    workspace_id: workspace_id as string,
    tool_id: tool_id as string,
    scope: scope as GrantScope,
    ...(agent_name === undefined ? {} : { agent_name }),
    ...(input_digest === undefined ? {} : { input_digest }),
    decision: decision as GrantDecision,
    origin: origin as ApprovalGrant['origin'],
    created_at: created_at as string,
  })
}

/**
 * The answer of `grants.get` for `key`: `undefined` (or `null`) for none, else a checked grant with
 * exactly that key. Anything else (a scalar, a record that is not a well-formed grant, another
 * key's grant) throws: only an explicit "none" means no grant.
 */
export function grantAnswerFor(key: GrantKey): StoreAnswer<ApprovalGrant | undefined> {
  return (answer) => {
    const record = recordCopy(answer)
    if (record === undefined) return undefined
    const grant = checkedGrant(record)
    if (grantKeyText(grant) !== grantKeyText(key)) refuse('grants.get answered the grant of another key')
    return grant
  }
}

/** The answer of `grants.list`: a dense array of checked grants (see {@link grantAnswerFor}). */
export const grantListAnswer: StoreAnswer<readonly ApprovalGrant[]> = (answer) => {
  const list = ownJsonCopy(answer)
  if (!Array.isArray(list)) refuse('grants.list answered something that is not an array')
  return Object.freeze(list.map(checkedGrant))
}

const STATES: readonly PendingState[] = ['pending', 'dispatching', 'completed', 'failed', 'denied', 'canceled', 'expired']
const SCOPE_FIELDS = ['workspace_id', 'session_id', 'agent_name', 'profile_id']

/** The answer of `pending.get`: `undefined` (or `null`) for none, else a pending approval record every reader can rely on. */
export const pendingRecordAnswer: StoreAnswer<PendingApprovalRecord | undefined> = (answer) => {
  const record = recordCopy(answer)
  if (record === undefined) return undefined
  requireStrings(record, ['approval_id', 'tool_id', 'tool_call_id', 'input_digest', 'created_at', 'expires_at'], ['reason', 'decided_at', 'finished_at'])
  if (!(STATES as readonly unknown[]).includes(record.state)) refuse('the pending record has an unknown state')
  const scope = record.scope
  if (!isPlainObject(scope)) refuse('the pending record has no scope object')
  for (const [key, value] of Object.entries(scope)) {
    if (!SCOPE_FIELDS.includes(key) || typeof value !== 'string') refuse('the pending record scope is not a scope of string fields')
  }
  const fields = record.sensitive_input_fields
  if (fields !== undefined && !(Array.isArray(fields) && fields.every((field) => typeof field === 'string'))) refuse('the pending record has malformed sensitive_input_fields')
  if (record.pinned_result_view !== undefined && !isView(record.pinned_result_view)) refuse('the pending record has a malformed pinned_result_view')
  if (record.outcome !== undefined) checkOutcome(record.outcome)
  return record as unknown as PendingApprovalRecord
}

/** A stored outcome the view can rebuild: `ok` with `{ structured, preview }`, or `error` with a registered code. */
function checkOutcome(outcome: unknown): void {
  if (!isPlainObject(outcome)) refuse('the pending record outcome is not an object')
  if (outcome.status === 'ok') {
    const result = outcome.result
    if (!isPlainObject(result) || typeof result.preview !== 'string' || !Object.prototype.hasOwnProperty.call(result, 'structured')) refuse('the pending record has a malformed ok outcome')
    if (outcome.result_view !== undefined && !isView(outcome.result_view)) refuse('the pending record outcome has a malformed result_view')
    return
  }
  const error = outcome.error
  if (outcome.status !== 'error' || !isPlainObject(error)) refuse('the pending record has a malformed outcome')
  if (typeof error.code !== 'string' || !Object.prototype.hasOwnProperty.call(ToolErrorCodes, error.code)) refuse('the pending record outcome has an unregistered error code')
  requireStrings(error, ['reason', 'message'], [])
  if (error.details !== undefined && !isPlainObject(error.details)) refuse('the pending record outcome has malformed error details')
}

/** A checked copy of a record answer, or `undefined` for none (`undefined` or `null`). */
function recordCopy(answer: unknown): Record<string, unknown> | undefined {
  if (answer === undefined || answer === null) return undefined
  const record = ownJsonCopy(answer)
  if (!isPlainObject(record)) refuse('the store answered something that is not a record')
  return record
}

/** Required fields must be strings; optional ones strings, `null` or absent. */
function requireStrings(record: Record<string, unknown>, required: readonly string[], optional: readonly string[]): void {
  for (const key of required) if (typeof record[key] !== 'string') refuse(`the record's ${key} is not a string`)
  for (const key of optional) {
    const value = record[key]
    if (value !== undefined && value !== null && typeof value !== 'string') refuse(`the record's ${key} is not a string`)
  }
}

/** The answer of `pending.list`: an array of pending approval records, each checked as `pending.get`'s answer is. */
export const pendingListAnswer: StoreAnswer<readonly PendingApprovalRecord[]> = (answer) => {
  const list = ownJsonCopy(answer)
  if (!Array.isArray(list)) refuse('pending.list answered something that is not an array')
  return Object.freeze(
    list.map((entry) => {
      const record = pendingRecordAnswer(entry)
      if (record === undefined) refuse('pending.list answered an empty entry')
      return record
    }),
  )
}
