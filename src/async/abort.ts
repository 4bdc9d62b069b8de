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
  /** Stops following the caller's signal (removes the listener, if one was added); call it once the work is done. */
  release(): void
}

/**
 * Follows a caller's `AbortSignal` with a signal of our own, checked inside a guard: a
 * signal-like object whose `aborted` is not a boolean, whose `addEventListener` or
 * `removeEventListener` is not a function, or any getter or Proxy trap that throws, answers
 * `undefined` (the caller's request is malformed).
 *
 * Ours is a {@link Follower}, not an `AbortController` (an `AbortSignal` costs about a microsecond
 * to make, on every call that carries one), and it listens to the caller's signal only once the
 * library first waits on something (`callHost` adds a listener for a pending answer): a call that
 * never waits adds and removes no listener, and reads the caller's `aborted` at each check
 * instead. Every later read of the caller's object is guarded: a throw there aborts the call,
 * since the library can no longer tell whether the caller gave up.
 */
export function followSignal(given: unknown): FollowedSignal | undefined {
  if (typeof given !== 'object' || given === null) return undefined
  const caller = given as AbortSignal
  let follower: Follower
  try {
    const aborted: unknown = caller.aborted
    const add: unknown = caller.addEventListener
    const remove: unknown = caller.removeEventListener
    if (typeof aborted !== 'boolean' || typeof add !== 'function' || typeof remove !== 'function') return undefined
    follower = new Follower(caller, add as AbortSignal['addEventListener'], remove as AbortSignal['removeEventListener'])
    if (aborted) follower.abort()
  } catch {
    return undefined
  }
  return follower
}

/**
 * The library's own signal: `aborted`, and listeners called once, in the order they were added,
 * when it aborts (a listener added after that is never called: readers check `aborted` first, as
 * they would on an `AbortSignal`). A listener that throws does not stop the others.
 */
class Follower implements AbortWatch, FollowedSignal {
  readonly signal: AbortWatch = this
  #aborted = false
  /** The caller's signal while it is followed (until it aborted or the work is done). */
  #caller: AbortSignal | undefined
  readonly #add: AbortSignal['addEventListener']
  readonly #remove: AbortSignal['removeEventListener']
  #listening = false
  #listeners: (() => void)[] = []
  readonly #onAbort = (): void => this.abort()

  constructor(caller: AbortSignal, add: AbortSignal['addEventListener'], remove: AbortSignal['removeEventListener']) {
    this.#caller = caller
    this.#add = add
    this.#remove = remove
  }

  get aborted(): boolean {
    const caller = this.#caller
    if (!this.#aborted && !this.#listening && caller !== undefined) {
      try {
        if (caller.aborted === true) this.abort()
      } catch {
        this.abort()
      }
    }
    return this.#aborted
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.#aborted) return
    this.#listeners.push(listener)
    const caller = this.#caller
    if (this.#listening || caller === undefined) return
    this.#listening = true
    try {
      this.#add.call(caller, 'abort', this.#onAbort, { once: true })
      // It may have aborted since it was last read: a listener added now would never be called.
      if (caller.aborted === true) this.abort()
    } catch {
      this.abort()
    }
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.#listeners.indexOf(listener)
    if (at !== -1) this.#listeners.splice(at, 1)
  }

  abort(): void {
    if (this.#aborted) return
    this.#aborted = true
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

  release(): void {
    const caller = this.#caller
    if (caller === undefined) return
    this.#caller = undefined
    if (!this.#listening) return
    try {
      this.#remove.call(caller, 'abort', this.#onAbort)
    } catch {
      // A listener we cannot remove is the caller's signal's own problem.
    }
  }
}
