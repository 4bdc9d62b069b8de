/**
 * An `AbortSignal` made on first read and aborted by {@link LazyAbort.abort}, so a handler that never
 * reads `context.signal` costs no `AbortController`. Aborting before the first read hands out a
 * signal that is already aborted, with the same reason.
 */
export class LazyAbort {
  #controller: AbortController | undefined
  #aborted = false
  #reason: unknown

  /** The signal (created on first read). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController()
      if (this.#aborted) this.#controller.abort(this.#reason)
    }
    return this.#controller.signal
  }

  /** Aborts the signal with `reason` (once; later calls change nothing). */
  abort(reason: unknown): void {
    if (this.#aborted) return
    this.#aborted = true
    this.#reason = reason
    this.#controller?.abort(reason)
  }
}

/**
 * What the library reads of a call's signal (the caller's, followed by {@link followSignal}):
 * whether it aborted, and the listeners of `callHost`. A DOM `AbortSignal` is one.
 */
export interface AbortWatch {
  readonly aborted: boolean
  addEventListener(type: 'abort', listener: () => void, options: { once: true }): void
  removeEventListener(type: 'abort', listener: () => void): void
}

/** A caller's signal, followed by one of our own: the only one the library reads afterwards. */
export interface FollowedSignal {
  /** Aborts when the caller's signal does (at once when it already had). */
  readonly signal: AbortWatch
  /** Stops following the caller's signal (removes the listener); call it once the work is done. */
  release(): void
}

/**
 * Follows a caller's `AbortSignal` with a signal of our own, read once and inside a guard: a
 * signal-like object whose `aborted` is not a boolean, whose `addEventListener` is missing or
 * throws, or any getter or Proxy trap that throws, answers `undefined` (the caller's request is
 * malformed). Afterwards the library never reads the caller's object again except to remove its
 * listener (a throw there is ignored).
 *
 * Ours is a {@link Follower}, not an `AbortController`: it only ever has the library as a reader,
 * and an `AbortSignal` costs about a microsecond to make, on every call that carries a signal.
 */
export function followSignal(given: unknown): FollowedSignal | undefined {
  if (typeof given !== 'object' || given === null) return undefined
  const caller = given as AbortSignal
  const own = new Follower()
  const onAbort = (): void => own.abort()
  try {
    const aborted: unknown = caller.aborted
    if (typeof aborted !== 'boolean') return undefined
    if (aborted) own.abort()
    else caller.addEventListener('abort', onAbort, { once: true })
  } catch {
    return undefined
  }
  return {
    signal: own,
    release: () => {
      try {
        caller.removeEventListener('abort', onAbort)
      } catch {
        // A listener we cannot remove is the caller's signal's own problem.
      }
    },
  }
}

/**
 * The library's own signal: `aborted`, and listeners called once, in the order they were added,
 * when it aborts (a listener added after that is never called: readers check `aborted` first, as
 * they would on an `AbortSignal`). A listener that throws does not stop the others.
 */
class Follower implements AbortWatch {
  aborted = false
  #listeners: (() => void)[] = []

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.#listeners.push(listener)
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.#listeners.indexOf(listener)
    if (at !== -1) this.#listeners.splice(at, 1)
  }

  abort(): void {
    if (this.aborted) return
    this.aborted = true
    const listeners = this.#listeners
    this.#listeners = []
    for (const listener of listeners) {
      try {
        listener()
      } catch {
        // The library's own listeners settle a promise; none throws, and one that did must not stop the rest.
      }
    }
  }
}
