import type { ToolError } from '../errors/tool-error.js'
import { safeLog, type Logger } from '../log/logger.js'
import { withDeadline } from '../async/deadline.js'
import { ownJsonCopy } from '../json/own-copy.js'
import { storeFailed, storeTimeout, type ApprovalStoreName } from './errors.js'
import type { Awaitable } from './stores.js'

/** What a guarded store call needs: its time budget and where failures are logged. */
export interface StoreGuard {
  readonly timeoutMs: number
  readonly logger: Logger
}

/**
 * Calls one store method under the approval timeout (fail closed: `docs/approvals.md` "The order,
 * on the final input"): its value, or `approval_unavailable` (`store_failed` when it threw,
 * rejected or answered a record that is not plain JSON; `store_timeout` when it took longer than
 * `timeoutMs`). A record or list the store answers is read once, inside this guard, into a
 * checked plain JSON copy (`ownJsonCopy`): a getter or Proxy that throws, a cycle or a sparse
 * array in a store's answer fails the call closed instead of escaping as an exception, and what
 * the approval step reads afterwards cannot change under it. The failure is logged without the
 * thrown value's text (it may quote a record).
 */
export async function callStore<T>(guard: StoreGuard, store: ApprovalStoreName, operation: string, work: () => Awaitable<T>): Promise<{ ok: true; value: T } | { ok: false; error: ToolError }> {
  const result = await withDeadline(work, guard.timeoutMs)
  if (result.ok) {
    const { value } = result
    if (typeof value !== 'object' || value === null) return { ok: true, value }
    try {
      return { ok: true, value: ownJsonCopy(value) as T }
    } catch (cause) {
      return failed(guard, store, operation, storeFailed(store, operation, cause), false)
    }
  }
  return failed(guard, store, operation, result.timedOut ? storeTimeout(store, operation, guard.timeoutMs) : storeFailed(store, operation, result.cause), result.timedOut)
}

function failed(guard: StoreGuard, store: ApprovalStoreName, operation: string, error: ToolError, timedOut: boolean): { ok: false; error: ToolError } {
  safeLog(guard.logger, 'error', { event: 'approval.store_failed', store, operation, timed_out: timedOut }, 'approval store failed')
  return { ok: false, error }
}
