import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { CallScope } from '../tool/types.js'
import type { ToolError } from '../errors/tool-error.js'
import type { ToolFacts } from '../policy/policy.js'
import { tokenInvalid, type TokenBinding } from './errors.js'
import { callStore, type StoreGuard } from './store-call.js'
import type { ApprovalTokenRecord, ApprovalTokenStore } from './token-store.js'

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
 * Checks a supplied approval token against a call and consumes it (spec 001: checked first, and
 * final). In order: unknown → `token_unknown`; already consumed → `token_replayed`; past
 * `expires_at` → `token_expired`; minted for another tool, workspace, session, agent or input →
 * `token_mismatch` (the token is not consumed by a refused call); then the store's atomic
 * `consume`, which only one of N concurrent calls wins (the others → `token_replayed`).
 *
 * @returns `undefined` when the call may run, or the typed error (`approval_invalid`, or
 *   `approval_unavailable` for a failing store).
 */
export async function checkToken(token: string, call: TokenCall, store: ApprovalTokenStore, guard: StoreGuard, now: number): Promise<ToolError | undefined> {
  const hash = hashToken(token)
  const found = await callStore(guard, 'tokens', 'get', () => store.get(hash))
  if (!found.ok) return found.error
  const record = found.value
  if (record === undefined || record === null || !sameTokenHash(record.token_hash, hash)) return tokenInvalid(call.tool, 'token_unknown')
  if (record.consumed_at !== undefined && record.consumed_at !== null) return tokenInvalid(call.tool, 'token_replayed')
  const expiresAt = Date.parse(record.expires_at)
  if (!(now < expiresAt)) return tokenInvalid(call.tool, 'token_expired', { expires_at: record.expires_at })
  const mismatch = tokenMismatch(record, call)
  if (mismatch.length > 0) return tokenInvalid(call.tool, 'token_mismatch', { mismatch })
  const consumed = await callStore(guard, 'tokens', 'consume', () => store.consume(hash, new Date(now).toISOString()))
  if (!consumed.ok) return consumed.error
  return consumed.value === true ? undefined : tokenInvalid(call.tool, 'token_replayed')
}
