import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { inputDigest } from '../digest/input-digest.js'
import type { ToolError } from '../errors/tool-error.js'
import { isJsonValueError } from '../json/json-value-error.js'
import { safeLog } from '../log/logger.js'
import type { ToolFacts } from '../policy/policy.js'
import type { CallScope, Tool } from '../tool/types.js'
import { unknownTool } from '../tool/unknown-tool.js'
import { invalid, recordOf, scopeOf, type MintApprovalTokenRequest, type MintedApprovalToken } from './approvals-api.js'
import { tokenInvalid, type TokenBinding } from './errors.js'
import { refuseOverReject } from './grants.js'
import type { ResolvedApprovals } from './options.js'
import { booleanAnswer, countAnswer, ignoredAnswer, tokenRecordAnswer } from './store-answers.js'
import { callStore, type StoreGuard } from './store-call.js'
import { isLife, MAX_TTL_MS } from './time.js'
import { INPUT_JSON } from '../json/canonical.js'
import { ownJsonCopy } from '../json/own-copy.js'
import { quoted } from '../errors/quote.js'
import type { ApprovalTokenRecord, ApprovalTokenStore } from './stores.js'

// Approval tokens: single-use credentials minted by `mintApprovalToken`, stored only as their
// SHA-256 hash, and checked (then consumed) by the approval step.

/** Random bytes in a token (256 bits). */
export const TOKEN_BYTES = 32

/** A new approval token: 32 random bytes, base64url (43 characters, no padding). */
export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url')
}

/** Lowercase hex SHA-256 of a token's text: the only form a token is ever stored in. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

const HEX_HASH = /^[0-9a-f]{64}$/

/** Compares two token hashes in constant time (`crypto.timingSafeEqual`); false for anything but two 64-hex hashes. */
export function sameTokenHash(a: string, b: string): boolean {
  if (typeof a !== 'string' || typeof b !== 'string' || !HEX_HASH.test(a) || !HEX_HASH.test(b)) return false
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'))
}

/** What a presented token is checked against: the call that would run. */
export interface TokenCall {
  readonly tool: ToolFacts
  readonly scope: Readonly<CallScope>
  readonly input_digest: string
}

/** The bound fields on which a token record and a call differ (empty when the token fits the call). */
export function tokenMismatch(record: ApprovalTokenRecord, call: TokenCall): TokenBinding[] {
  const out: TokenBinding[] = []
  if (record.tool_id !== call.tool.id) out.push('tool')
  if (record.workspace_id !== call.scope.workspace_id) out.push('workspace')
  if (record.session_id !== call.scope.session_id) out.push('session')
  if (record.agent_name !== call.scope.agent_name) out.push('agent')
  if (record.input_digest !== call.input_digest) out.push('input')
  return out
}

/**
 * Checks a supplied approval token against a call, without consuming it (`docs/approvals.md`
 * "Precedence": checked first, and final when refused). In order: unknown → `token_unknown`;
 * already consumed → `token_replayed`; past `expires_at` → `token_expired`; minted for another
 * tool, workspace, session, agent or input → `token_mismatch`. A refused token is not consumed.
 *
 * @returns `undefined` when the token fits the call (then {@link consumeToken} it before the call
 *   runs), or the typed error (`approval_invalid`, or `approval_unavailable` for a failing store).
 */
export async function inspectToken(token: string, call: TokenCall, store: ApprovalTokenStore, guard: StoreGuard, now: number): Promise<ToolError | undefined> {
  const hash = hashToken(token)
  const found = await callStore(guard, 'tokens', 'get', () => store.get(hash), tokenRecordAnswer)
  if (!found.ok) return found.error
  const record = found.value
  if (record === undefined || !sameTokenHash(record.token_hash, hash)) return tokenInvalid(call.tool, 'token_unknown')
  if (record.consumed_at !== undefined && record.consumed_at !== null) return tokenInvalid(call.tool, 'token_replayed')
  const expiresAt = Date.parse(record.expires_at)
  if (!(now < expiresAt)) return tokenInvalid(call.tool, 'token_expired', { expires_at: record.expires_at })
  const mismatch = tokenMismatch(record, call)
  if (mismatch.length > 0) return tokenInvalid(call.tool, 'token_mismatch', { mismatch })
  return undefined
}

/**
 * Consumes a token {@link inspectToken} found fitting, as the call is about to run: the store's
 * atomic `consume`, which only one of N concurrent calls wins (the others → `token_replayed`).
 *
 * @returns `undefined` when this call won the token, or `approval_invalid` / `token_replayed`, or
 *   `approval_unavailable` for a failing store.
 */
export async function consumeToken(token: string, call: TokenCall, store: ApprovalTokenStore, guard: StoreGuard, now: number): Promise<ToolError | undefined> {
  const hash = hashToken(token)
  // Exactly `true` or `false`: any other answer (`"yes"`) is a failing store, not a replay.
  const consumed = await callStore(guard, 'tokens', 'consume', () => store.consume(hash, new Date(now).toISOString()), booleanAnswer)
  if (!consumed.ok) return consumed.error
  return consumed.value ? undefined : tokenInvalid(call.tool, 'token_replayed')
}

/** Default life of a minted token: 5 minutes. */
export const DEFAULT_TOKEN_TTL_MS = 5 * 60_000
/** How long a used or expired token record is kept (so a replay reads `token_replayed`/`token_expired`, not `token_unknown`): 1 hour past expiry. */
export const TOKEN_RETENTION_MS = 60 * 60_000

const DIGEST = /^sha256:[0-9a-f]{64}$/

/**
 * Mints a single-use approval token (`docs/approvals.md` "Precedence"): 32
 * random bytes, stored only as its SHA-256 hash, bound to the tool, the workspace, session and
 * agent of `scope`, and the input digest. Expired records older than {@link TOKEN_RETENTION_MS} are
 * purged on the way (`deleteExpired`, when the store has it; a failing purge is logged and
 * ignored).
 *
 * A token is refused for a call a remembered reject matches (exact, agent or tool scope of the
 * token's workspace): a supplied token runs without the remembered decision being read, so the
 * reject is honoured here, where the token is given.
 *
 * @throws ToolError `approval_request_invalid` / `field_invalid` for bad arguments; `tool_not_found`
 *   for an unknown tool; `approval_forbidden` / `remembered_reject` when a remembered reject
 *   matches; `approval_unavailable` when a store fails.
 */
export async function mintApprovalToken(deps: ResolvedApprovals, tools: ReadonlyMap<string, Tool>, request: MintApprovalTokenRequest): Promise<MintedApprovalToken> {
  const r = recordOf(request, 'mintApprovalToken request', ['tool_id', 'scope', 'input', 'input_digest', 'ttlMs'])
  if (typeof r.tool_id !== 'string') invalid('tool_id must be a string')
  const tool = tools.get(r.tool_id)
  if (tool === undefined) throw unknownTool(r.tool_id)
  const scope = scopeOf(r.scope)
  const ttlMs = r.ttlMs ?? DEFAULT_TOKEN_TTL_MS
  if (!isLife(ttlMs)) invalid(`ttlMs must be a positive integer of milliseconds of at most ${MAX_TTL_MS} (100 years)`)
  const digest = requestDigest(tool, r)
  await refuseOverReject(deps, tool.id, scope, digest)

  const now = deps.now()
  const token = newToken()
  const record: ApprovalTokenRecord = {
    token_hash: hashToken(token),
    tool_id: tool.id,
    ...(scope.workspace_id === undefined ? {} : { workspace_id: scope.workspace_id }),
    ...(scope.session_id === undefined ? {} : { session_id: scope.session_id }),
    ...(scope.agent_name === undefined ? {} : { agent_name: scope.agent_name }),
    input_digest: digest,
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + ttlMs).toISOString(),
  }
  const store = deps.stores.tokens
  if (typeof store.deleteExpired === 'function') {
    const purged = await callStore(deps.guard, 'tokens', 'deleteExpired', () => store.deleteExpired!(new Date(now - TOKEN_RETENTION_MS).toISOString()), countAnswer)
    if (!purged.ok) safeLog(deps.guard.logger, 'warn', { event: 'approval.token_purge_failed' }, 'expired approval tokens were not purged')
  }
  const inserted = await callStore(deps.guard, 'tokens', 'insert', () => store.insert(record), ignoredAnswer)
  if (!inserted.ok) throw inserted.error
  return { token, expires_at: record.expires_at }
}

/** The input digest a mint request binds: its `input_digest`, checked, or the digest of its `input`. */
function requestDigest(tool: Tool, r: Record<string, unknown>): string {
  const hasInput = Object.prototype.hasOwnProperty.call(r, 'input') && r.input !== undefined
  const hasDigest = r.input_digest !== undefined
  if (hasInput === hasDigest) invalid('give exactly one of input and input_digest')
  if (hasDigest) {
    if (typeof r.input_digest !== 'string' || !DIGEST.test(r.input_digest)) invalid('input_digest must be "sha256:" followed by 64 lowercase hex digits')
    return r.input_digest
  }
  try {
    // Read as `invoke` reads an input (a member whose value is `undefined` is absent), so a token
    // minted for the object a caller will send binds the digest that call gets.
    return inputDigest(ownJsonCopy(r.input, INPUT_JSON), { origin: tool.origin })
  } catch (error) {
    if (isJsonValueError(error)) invalid(`input is not plain JSON at ${quoted(error.pointer)}`)
    throw error
  }
}
