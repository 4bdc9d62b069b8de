import { isThenable } from './thenable.js'

/** Longest delay `setTimeout` honours (2^31 - 1 ms); {@link withDeadline} waits forever on longer budgets. */
export const MAX_TIMER_MS = 2_147_483_647

/** What {@link withDeadline} settles to: the value, the thrown value, or a timeout. Never rejects. */
export type DeadlineResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly timedOut: boolean; readonly cause?: unknown }

/**
 * Runs `work` (sync or async) and settles with its value, or with `{ ok: false }` when it throws,
 * rejects, or takes longer than `timeoutMs` (a late answer is then ignored). Never rejects and
 * never throws, also when the answer is a Proxy or thenable whose `then` or `constructor` throws.
 * `timeoutMs` of `Infinity` (or more than about 24.8 days) waits forever. A synchronous answer
 * settles at once, without a timer.
 */
export function withDeadline<T>(work: () => T | Promise<T>, timeoutMs: number): Promise<DeadlineResult<T>> {
  let pending: T | Promise<T>
  let thenable: boolean
  try {
    pending = work()
    // Reading `then` runs a getter or a Proxy trap of the host's answer: inside the guard.
    thenable = isThenable(pending)
  } catch (cause) {
    return Promise.resolve({ ok: false, timedOut: false, cause })
  }
  if (!thenable) return Promise.resolve({ ok: true, value: pending as T })
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const settle = (result: DeadlineResult<T>): void => {
      if (timer !== undefined) clearTimeout(timer)
      resolve(result)
    }
    let adopted: Promise<T>
    try {
      // Adopting a promise reads its `constructor`, a thenable its `then` again: either can throw.
      adopted = Promise.resolve(pending)
    } catch (cause) {
      settle({ ok: false, timedOut: false, cause })
      return
    }
    if (Number.isFinite(timeoutMs) && timeoutMs <= MAX_TIMER_MS) timer = setTimeout(() => resolve({ ok: false, timedOut: true }), timeoutMs)
    adopted.then(
      (value) => settle({ ok: true, value }),
      (cause: unknown) => settle({ ok: false, timedOut: false, cause }),
    )
  })
}
