import type { ToolError } from '../errors/tool-error.js'
import { safeLog, type Logger } from '../log/logger.js'
import { callHost } from '../async/deadline.js'
import { storeFailed, storeOutcomeUnknown, storeTimeout, type ApprovalStoreName } from './errors.js'
import { copiedAnswer, type StoreAnswer } from './store-answers.js'
import type { Awaitable } from './stores.js'

/** What a guarded store call needs: its time budget and where failures are logged. */
export interface StoreGuard {
  readonly timeoutMs: number
  readonly logger: Logger
}

/**
 * Calls one store method under the approval timeout (fail closed: `docs/approvals.md` "The order,
 * on the final input"): its answer, or `approval_unavailable` (`store_failed` when it threw,
 * rejected or answered something `read` refuses; `store_timeout` when it took longer than
 * `timeoutMs`, judged by a timer and by the clock when it answers, or threw an error whose `code`
 * is `'store_timeout'`; `store_outcome_unknown` when it threw one whose `code` is
 * `'store_outcome_unknown'`). The answer is read once,
 * inside this guard, by `read` (`store-answers.ts`: a checked plain JSON copy of the shape the
 * caller relies on, a boolean, or nothing at all): a getter or Proxy that throws, a cycle, a
 * sparse array or a field of the wrong type fails the call closed instead of escaping as an
 * exception, and what the approval step reads afterwards cannot change under it. Store calls are
 * never cut short by a caller's signal: a write in flight is waited for, within `timeoutMs`. The
 * failure is logged without the thrown value's text (it may quote a record).
 *
 * @param read - how the answer is read; default: a checked plain JSON copy of an object answer.
 */
export async function callStore<A, T = A>(
  guard: StoreGuard,
  store: ApprovalStoreName,
  operation: string,
  work: () => Awaitable<A>,
  read?: StoreAnswer<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: ToolError }> {
  const result = await callHost(work, { timeoutMs: guard.timeoutMs }, (read ?? copiedAnswer) as (answer: A) => T)
  if (result.ok) return { ok: true, value: result.value }
  const declared = result.failure === 'timeout' ? 'store_timeout' : declaredFailure(result.cause)
  safeLog(guard.logger, 'error', { event: 'approval.store_failed', store, operation, timed_out: declared === 'store_timeout', ...(declared === 'store_outcome_unknown' ? { outcome_unknown: true } : {}) }, 'approval store failed')
  if (declared === 'store_timeout') return { ok: false, error: storeTimeout(store, operation, guard.timeoutMs, result.failure === 'timeout' ? undefined : result.cause) }
  if (declared === 'store_outcome_unknown') return { ok: false, error: storeOutcomeUnknown(store, operation, result.cause) }
  return { ok: false, error: storeFailed(store, operation, result.cause) }
}

/**
 * What a store said of its own failure (`docs/approvals.md` "Implementing the stores (for hosts)"): an error
 * whose `code` is `'store_timeout'` (it gave up on time, and nothing was written) or
 * `'store_outcome_unknown'` (it cannot tell whether the write took effect). Read inside a guard:
 * a thrown value's getter can throw too.
 */
function declaredFailure(thrown: unknown): 'store_timeout' | 'store_outcome_unknown' | undefined {
  try {
    if (!(thrown instanceof Error)) return undefined
    const code = (thrown as { code?: unknown }).code
    return code === 'store_timeout' || code === 'store_outcome_unknown' ? code : undefined
  } catch {
    return undefined
  }
}
