import { inputDigest } from '../digest/input-digest.js'
import { unknownTool } from '../tool/unknown-tool.js'
import { isJsonValueError } from '../json/json-value-error.js'
import { safeLog } from '../log/logger.js'
import type { CallScope, Tool } from '../tool/types.js'
import type { ResolvedApprovals } from './options.js'
import { invalid, recordOf, scopeOf } from './request-checks.js'
import { callStore } from './store-call.js'
import type { ApprovalTokenRecord } from './token-store.js'
import { hashToken, newToken } from './tokens.js'

/** Default life of a minted token: 5 minutes. */
export const DEFAULT_TOKEN_TTL_MS = 5 * 60_000
/** How long a used or expired token record is kept (so a replay reads `token_replayed`/`token_expired`, not `token_unknown`): 1 hour past expiry. */
export const TOKEN_RETENTION_MS = 60 * 60_000

const DIGEST = /^sha256:[0-9a-f]{64}$/

/** What `mintApprovalToken` takes: the call a token will authorise. Give exactly one of `input` and `input_digest`. */
export interface MintApprovalTokenRequest {
  tool_id: string
  /** Bound: `workspace_id`, `session_id` and `agent_name` must equal the call's (absent matches only absent). `profile_id` is ignored. */
  scope?: CallScope
  /** The input the call will send; its `result_view` (native tools) is not part of the binding. */
  input?: unknown
  /** Or its input digest, `sha256:<64 hex>`, computed without `result_view` (spec 000 "Approvals"). */
  input_digest?: string
  /** Life of the token in milliseconds, a positive integer. Default 300000 (5 minutes). */
  ttlMs?: number
}

/** A minted token. Hand `token` to the caller once; it is never stored, logged or shown again. */
export interface MintedApprovalToken {
  /** 32 random bytes, base64url (43 characters). */
  readonly token: string
  /** ISO 8601 UTC. */
  readonly expires_at: string
}

/**
 * Mints a single-use approval token (spec 001 "Approval-gated tools"): 32 random bytes, stored
 * only as its SHA-256 hash, bound to the tool, the workspace, session and agent of `scope`, and the
 * input digest. Expired records older than {@link TOKEN_RETENTION_MS} are purged on the way
 * (`deleteExpired`, when the store has it; a failing purge is logged and ignored).
 *
 * @throws ToolError `approval_request_invalid` / `field_invalid` for bad arguments; `tool_not_found`
 *   for an unknown tool; `approval_unavailable` when the store fails.
 */
export async function mintApprovalToken(deps: ResolvedApprovals, tools: ReadonlyMap<string, Tool>, request: MintApprovalTokenRequest): Promise<MintedApprovalToken> {
  const r = recordOf(request, 'mintApprovalToken request', ['tool_id', 'scope', 'input', 'input_digest', 'ttlMs'])
  if (typeof r.tool_id !== 'string') invalid('tool_id must be a string')
  const tool = tools.get(r.tool_id)
  if (tool === undefined) throw unknownTool(r.tool_id)
  const scope = scopeOf(r.scope)
  const ttlMs = r.ttlMs ?? DEFAULT_TOKEN_TTL_MS
  if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs <= 0) invalid('ttlMs must be a positive integer of milliseconds')
  const digest = digestOf(tool, r)

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
    const purged = await callStore(deps.guard, 'tokens', 'deleteExpired', () => store.deleteExpired!(new Date(now - TOKEN_RETENTION_MS).toISOString()))
    if (!purged.ok) safeLog(deps.guard.logger, 'warn', { event: 'approval.token_purge_failed' }, 'expired approval tokens were not purged')
  }
  const inserted = await callStore(deps.guard, 'tokens', 'insert', () => store.insert(record))
  if (!inserted.ok) throw inserted.error
  return { token, expires_at: record.expires_at }
}

function digestOf(tool: Tool, r: Record<string, unknown>): string {
  const hasInput = Object.prototype.hasOwnProperty.call(r, 'input') && r.input !== undefined
  const hasDigest = r.input_digest !== undefined
  if (hasInput === hasDigest) invalid('give exactly one of input and input_digest')
  if (hasDigest) {
    if (typeof r.input_digest !== 'string' || !DIGEST.test(r.input_digest)) invalid('input_digest must be "sha256:" followed by 64 lowercase hex digits')
    return r.input_digest
  }
  try {
    return inputDigest(r.input, { origin: tool.origin })
  } catch (error) {
    if (isJsonValueError(error)) invalid(`input is not plain JSON at "${error.pointer}"`)
    throw error
  }
}
