import type { ToolError } from '../errors/tool-error.js'
import { safeLog, type Logger } from '../log/logger.js'
import { withDeadline } from '../async/deadline.js'
import { storeFailed, storeTimeout, type ApprovalStoreName } from './errors.js'
import type { Awaitable } from './stores.js'

/** What a guarded store call needs: its time budget and where failures are logged. */
export interface StoreGuard {
  readonly timeoutMs: number
  readonly logger: Logger
}

/**
 * Calls one store method under the approval timeout (fail closed: `docs/approvals.md` "The order,
 * on the final input"): its value, or `approval_unavailable` (`store_failed` when it threw or
 * rejected, `store_timeout` when it took longer than `timeoutMs`). The failure is logged without
 * the thrown value's text (it may quote a record).
 */
export async function callStore<T>(guard: StoreGuard, store: ApprovalStoreName, operation: string, work: () => Awaitable<T>): Promise<{ ok: true; value: T } | { ok: false; error: ToolError }> {
  const result = await withDeadline(work, guard.timeoutMs)
  if (result.ok) return { ok: true, value: result.value }
  safeLog(guard.logger, 'error', { event: 'approval.store_failed', store, operation, timed_out: result.timedOut }, 'approval store failed')
  return { ok: false, error: result.timedOut ? storeTimeout(store, operation, guard.timeoutMs) : storeFailed(store, operation, result.cause) }
}
