/** Longest delay `setTimeout` honours (2^31 - 1 ms); longer budgets wait forever. */
const MAX_TIMER_MS = 2_147_483_647

/** What {@link withDeadline} settles to: the value, the thrown value, or a timeout. Never rejects. */
export type DeadlineResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly timedOut: boolean; readonly cause?: unknown }

/**
 * Runs `work` (sync or async) and settles with its value, or with `{ ok: false }` when it throws,
 * rejects, or takes longer than `timeoutMs` (a late answer is then ignored). `timeoutMs` of
 * `Infinity` (or more than about 24.8 days) waits forever. A synchronous answer settles at once,
 * without a timer.
 */
export function withDeadline<T>(work: () => T | Promise<T>, timeoutMs: number): Promise<DeadlineResult<T>> {
  let pending: T | Promise<T>
  try {
    pending = work()
  } catch (cause) {
    return Promise.resolve({ ok: false, timedOut: false, cause })
  }
  if (!isThenable(pending)) return Promise.resolve({ ok: true, value: pending })
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    if (Number.isFinite(timeoutMs) && timeoutMs <= MAX_TIMER_MS) timer = setTimeout(() => resolve({ ok: false, timedOut: true }), timeoutMs)
    const settle = (result: DeadlineResult<T>): void => {
      if (timer !== undefined) clearTimeout(timer)
      resolve(result)
    }
    Promise.resolve(pending).then(
      (value) => settle({ ok: true, value }),
      (cause: unknown) => settle({ ok: false, timedOut: false, cause }),
    )
  })
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function'
}
