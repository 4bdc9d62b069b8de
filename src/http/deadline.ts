/** How a bounded host callback ended. */
export type Settled<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: 'threw' | 'timeout'; readonly cause?: unknown }

/**
 * Runs a host callback with a deadline: its value, or why it did not give one (it threw, rejected,
 * or did not settle within `timeoutMs`; `Infinity` waits forever). Never rejects; the timer is
 * always cleared.
 */
export function withDeadline<T>(run: () => T | PromiseLike<T>, timeoutMs: number): Promise<Settled<Awaited<T>>> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const settled = new Promise<Settled<Awaited<T>>>((resolve) => {
    let started: Promise<Awaited<T>>
    try {
      started = Promise.resolve(run()) as Promise<Awaited<T>>
    } catch (cause) {
      resolve({ ok: false, problem: 'threw', cause })
      return
    }
    if (timeoutMs !== Infinity) timer = setTimeout(() => resolve({ ok: false, problem: 'timeout' }), timeoutMs)
    started.then(
      (value) => resolve({ ok: true, value }),
      (cause: unknown) => resolve({ ok: false, problem: 'threw', cause }),
    )
  })
  return settled.finally(() => clearTimeout(timer))
}
