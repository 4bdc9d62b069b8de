import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { ToolError } from '../errors/tool-error.js'
import type { UsageProblem } from '../errors/usage-error.js'
import { canonicalJson } from '../json/canonical.js'
import type { CallScope } from '../tool/types.js'
import { approvalStateInvalid } from './errors.js'
import { resolveKeyRing, type KeyRingSpec, type SealKeys } from './seal.js'

// Approval request states (`docs/mcp.md` "Approvals as `input_required`"): the opaque state a
// server hands a client with an approval question and reads back on the client's retry. It holds
// no secret and lives in no memory: it names the pending approval (which lives in the pending
// store) and binds it to the tool, the input digest, the scope and an expiry, signed with
// HMAC-SHA-256, so any instance holding the key and the stores verifies it.

/** Least bytes of an approval-state key (HMAC-SHA-256 wants at least its output size). */
export const APPROVAL_STATE_KEY_MIN_BYTES = 32
/** Most bytes of an approval-state key (HMAC hashes a longer key down to 32 bytes first: no gain). */
const APPROVAL_STATE_KEY_MAX_BYTES = 64
/** The prefix every state starts with; the version of its layout. */
const STATE_PREFIX = 'rvs1'
/** The text each MAC covers: this label, then the encoded payload. */
const MAC_LABEL = 'result-views approval request state v1\n'
const BASE64URL = /^[A-Za-z0-9_-]+$/
const KEY_ID = /^[0-9a-f]{16}$/

const STATE_KEY_RING: KeyRingSpec = {
  path: '/approvalStateKey',
  previousPath: '/previousApprovalStateKeys',
  invalidCode: 'invalid_state_key',
  missingCode: 'state_key_missing',
  minBytes: APPROVAL_STATE_KEY_MIN_BYTES,
  maxBytes: APPROVAL_STATE_KEY_MAX_BYTES,
  sizeMessage: `an approval state key must be a Uint8Array (a Buffer) of ${APPROVAL_STATE_KEY_MIN_BYTES} to ${APPROVAL_STATE_KEY_MAX_BYTES} bytes, e.g. Buffer.from(process.env.MCP_STATE_KEY, 'base64') or randomBytes(32)`,
  zeroMessage: 'an approval state key must be random bytes, not zero bytes',
  missingMessage: 'previousApprovalStateKeys only verify older states: give the key that signs new ones as approvalStateKey',
  arrayMessage: 'previousApprovalStateKeys must be an array of Uint8Arrays of 32 to 64 bytes',
  idLabel: 'result-views approval state key id',
}

/**
 * Reads `approvalStateKey` and `previousApprovalStateKeys` (problems `invalid_state_key`,
 * `state_key_missing`, `unreadable_option` at their JSON Pointers).
 *
 * @returns the keys, `undefined` when no key is given or a problem was found.
 */
export function resolveApprovalStateKeys(current: unknown, previous: unknown, problems: UsageProblem[]): SealKeys | undefined {
  return resolveKeyRing(current, previous, STATE_KEY_RING, problems)
}

/** What one approval request state says. */
export interface ApprovalStateClaims {
  /** The pending approval the state asks about. */
  readonly approval_id: string
  /** The called tool. */
  readonly tool_id: string
  /** The digest of the arguments as called (`inputDigest(arguments, { origin: 'mcp' })`: every key kept). */
  readonly input_digest: string
  /** {@link scopeDigest} of the call's scope. */
  readonly scope_digest: string
  /** Until when (epoch ms) the state is answered. */
  readonly expires_at_ms: number
}

/** The digest a state binds a scope by: `sha256:` of the canonical JSON of its four fields (absent ones left out). */
export function scopeDigest(scope: CallScope | undefined): string {
  const fields: Record<string, string> = {}
  for (const key of ['workspace_id', 'session_id', 'agent_name', 'profile_id'] as const) {
    const value = scope?.[key]
    if (typeof value === 'string') fields[key] = value
  }
  return 'sha256:' + createHash('sha256').update(canonicalJson(fields), 'utf8').digest('hex')
}

/** Signs `claims` with the current key: `rvs1.<payload>.<key id>.<mac>`, base64url parts. */
export function signApprovalState(keys: SealKeys, claims: ApprovalStateClaims): string {
  const payload = Buffer.from(JSON.stringify([claims.approval_id, claims.tool_id, claims.input_digest, claims.scope_digest, claims.expires_at_ms]), 'utf8').toString('base64url')
  return `${STATE_PREFIX}.${payload}.${keys.current.id}.${mac(keys.current.key, payload)}`
}

/** What a retry must match: the call it comes with. */
export interface ApprovalStateCall {
  readonly tool_id: string
  readonly input_digest: string
  readonly scope_digest: string
  readonly now: number
}

/**
 * Verifies a state a client sent back, failing closed (`approval_invalid`): anything this server
 * did not sign with a key it holds (malformed, changed, signed with another key) is
 * `state_invalid`; a state for another tool, input or scope is `state_mismatch`; one past its
 * expiry is `state_expired`. Checked in that order, so nothing of an unsigned state is trusted.
 */
export function verifyApprovalState(keys: SealKeys, state: unknown, call: ApprovalStateCall): { ok: true; claims: ApprovalStateClaims } | { ok: false; error: ToolError } {
  const invalid = { ok: false as const, error: approvalStateInvalid(call.tool_id, 'state_invalid') }
  if (typeof state !== 'string' || state.length > 4096) return invalid
  const parts = state.split('.')
  if (parts.length !== 4 || parts[0] !== STATE_PREFIX) return invalid
  const [, payload, keyId, tag] = parts as [string, string, string, string]
  if (!BASE64URL.test(payload) || !KEY_ID.test(keyId) || !BASE64URL.test(tag)) return invalid
  const key = keys.byId.get(keyId)
  if (key === undefined) return invalid
  const expected = Buffer.from(mac(key.key, payload), 'base64url')
  const given = Buffer.from(tag, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected) || given.toString('base64url') !== tag) return invalid
  let claims: ApprovalStateClaims
  try {
    const fields: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
    if (!Array.isArray(fields) || fields.length !== 5) return invalid
    const [approvalId, toolId, digest, scope, expires] = fields as unknown[]
    if (typeof approvalId !== 'string' || typeof toolId !== 'string' || typeof digest !== 'string' || typeof scope !== 'string' || typeof expires !== 'number' || !Number.isSafeInteger(expires)) return invalid
    claims = { approval_id: approvalId, tool_id: toolId, input_digest: digest, scope_digest: scope, expires_at_ms: expires }
  } catch {
    // Signed by a holder of the key: still, never act on it.
    return invalid
  }
  const mismatch: ('tool' | 'input' | 'scope')[] = []
  if (claims.tool_id !== call.tool_id) mismatch.push('tool')
  if (claims.input_digest !== call.input_digest) mismatch.push('input')
  if (claims.scope_digest !== call.scope_digest) mismatch.push('scope')
  if (mismatch.length > 0) return { ok: false, error: approvalStateInvalid(call.tool_id, 'state_mismatch', { mismatch }) }
  if (!(call.now < claims.expires_at_ms)) return { ok: false, error: approvalStateInvalid(call.tool_id, 'state_expired', { expires_at: new Date(claims.expires_at_ms).toISOString() }) }
  return { ok: true, claims }
}

function mac(key: SealKeys['current']['key'], payload: string): string {
  return createHmac('sha256', key).update(MAC_LABEL + payload, 'utf8').digest('base64url')
}
