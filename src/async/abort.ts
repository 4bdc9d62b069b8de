import { types } from 'node:util'

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

// The platform's own members, taken before any caller code runs: reading a genuine signal through
// them runs no code of the caller's (an own `aborted` or `addEventListener` on the object is not
// consulted), so it can neither throw nor answer differently.
const abortedOf = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted')!.get! as (this: AbortSignal) => boolean
const addListener = EventTarget.prototype.addEventListener
const removeListener = EventTarget.prototype.removeEventListener

/**
 * Follows a caller's `AbortSignal` with a signal of our own (`docs/views.md` "Time budgets and
 * cancellation"):
 * - a genuine `AbortSignal` (not a Proxy, its own prototype, no own `constructor`) is read
 *   through the platform's own `aborted` getter at each check, and listened to only once the
 *   library first waits on something (`callHost` adds a listener for a pending answer), through
 *   one listener per signal however many calls share it: a call that never waits adds no
 *   listener, and a thousand calls on one signal add one; a listener that cannot be added aborts
 *   the call, one that cannot be removed is left to the signal;
 * - anything else that looks like a signal (a boolean `aborted`, `addEventListener` and
 *   `removeEventListener` functions) is read once, each member once, inside a guard, and
 *   listened to at once, as a host's own object: a getter, Proxy trap or method that throws there
 *   answers `undefined` (the caller's request is malformed); afterwards only the
 *   `removeEventListener` it answered is called, to remove the listener (a throw there is ignored).
 *
 * Ours is a {@link Follower}, not an `AbortController`: an `AbortSignal` costs about a microsecond
 * to make, on every call that carries one, and only the library ever reads ours.
 */
export function followSignal(given: unknown): FollowedSignal | undefined {
  if (typeof given !== 'object' || given === null) return undefined
  // Genuine: the platform's own signal, as the platform made it (not a Proxy, its own prototype,
  // no own `constructor`, which the platform's listener methods read). Anything else is a host's.
  if (!types.isProxy(given) && Object.getPrototypeOf(given) === AbortSignal.prototype && !Object.hasOwn(given, 'constructor')) {
    let aborted: boolean | undefined
    try {
      aborted = abortedOf.call(given as AbortSignal)
    } catch {
      // Not an AbortSignal of this realm: read below as a host's signal-like object.
    }
    if (aborted !== undefined) {
      const follower = new Follower(given as AbortSignal)
      if (aborted) follower.abort()
      return follower
    }
  }
  const caller = given as AbortSignal
  const follower = new Follower(undefined)
  const onCallerAbort = (): void => follower.abort()
  // Each member is read once; the methods are called as they were read.
  let remove: AbortSignal['removeEventListener']
  try {
    const aborted: unknown = caller.aborted
    const add: unknown = caller.addEventListener
    const removeMember: unknown = caller.removeEventListener
    if (typeof aborted !== 'boolean' || typeof add !== 'function' || typeof removeMember !== 'function') return undefined
    remove = removeMember as AbortSignal['removeEventListener']
    if (aborted) follower.abort()
    else (add as AbortSignal['addEventListener']).call(caller, 'abort', onCallerAbort, { once: true })
  } catch {
    return undefined
  }
  follower.releaseWith(() => {
    try {
      remove.call(caller, 'abort', onCallerAbort)
    } catch {
      // A listener we cannot remove is the caller's signal's own problem.
    }
  })
  return follower
}

/** The followers waiting on each genuine caller signal, and the one listener that wakes them. */
interface Listening {
  readonly followers: Set<Follower>
  readonly onAbort: () => void
}

const listening = new WeakMap<AbortSignal, Listening>()

/**
 * Adds a follower to the one listener of a genuine signal (adding the listener for the first one).
 * `false` when the listener could not be added (the caller changed its signal since the call began,
 * e.g. defined a throwing `constructor` on it, which the platform's method reads).
 */
function listen(signal: AbortSignal, follower: Follower): boolean {
  let entry = listening.get(signal)
  if (entry === undefined) {
    const followers = new Set<Follower>()
    const onAbort = (): void => {
      listening.delete(signal)
      for (const waiting of followers) waiting.abort()
    }
    try {
      addListener.call(signal, 'abort', onAbort, { once: true })
    } catch {
      return false
    }
    entry = { followers, onAbort }
    listening.set(signal, entry)
  }
  entry.followers.add(follower)
  return true
}

/** Removes a follower; the last one removes the listener (a throw there is the caller's signal's own problem, and ignored). */
function unlisten(signal: AbortSignal, follower: Follower): void {
  const entry = listening.get(signal)
  if (entry === undefined || !entry.followers.delete(follower) || entry.followers.size > 0) return
  listening.delete(signal)
  try {
    removeListener.call(signal, 'abort', entry.onAbort)
  } catch {
    // As for a host's object: a listener we cannot remove is the signal's own problem.
  }
}

/**
 * The library's own signal: `aborted`, and listeners called once, in the order they were added,
 * when it aborts (a listener added after that is never called: readers check `aborted` first, as
 * they would on an `AbortSignal`). A listener that throws does not stop the others.
 */
class Follower implements AbortWatch, FollowedSignal {
  readonly signal: AbortWatch = this
  #aborted = false
  /** The genuine caller signal while it is followed (until the work is done); `undefined` for a host's object. */
  #genuine: AbortSignal | undefined
  #listening = false
  #release: (() => void) | undefined
  /** Made for the first listener: most calls never wait on anything. */
  #listeners: (() => void)[] | undefined

  constructor(genuine: AbortSignal | undefined) {
    this.#genuine = genuine
  }

  /**
   * A genuine signal is read afresh each time, listened to or not: an `abort` event that never
   * reached the listener (an earlier listener stopped it) still counts once the call next looks.
   */
  get aborted(): boolean {
    const genuine = this.#genuine
    if (!this.#aborted && genuine !== undefined && abortedOf.call(genuine)) this.abort()
    return this.#aborted
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.#aborted) return
    ;(this.#listeners ??= []).push(listener)
    const genuine = this.#genuine
    if (this.#listening || genuine === undefined) return
    // It may have aborted since it was last read: a listener added now would never be called.
    if (abortedOf.call(genuine)) return this.abort()
    this.#listening = true
    // A listener that cannot be added leaves the call unable to hear its caller: it stops, as one
    // whose signal aborted (the caller changed its signal under the call).
    if (!listen(genuine, this)) {
      this.#listening = false
      this.abort()
    }
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.#listeners?.indexOf(listener) ?? -1
    if (at !== -1) this.#listeners!.splice(at, 1)
  }

  abort(): void {
    if (this.#aborted) return
    this.#aborted = true
    const listeners = this.#listeners ?? []
    this.#listeners = undefined
    for (const listener of listeners) {
      try {
        listener()
      } catch {
        // The library's own listeners settle a promise; none throws, and one that did must not stop the rest.
      }
    }
  }

  /** What {@link release} does for a host's signal-like object (remove its listener). */
  releaseWith(release: () => void): void {
    this.#release = release
  }

  /** Stops following (see {@link FollowedSignal.release}); a function of its own, so that it can be handed to `then` as it is. */
  readonly release = (): void => {
    const genuine = this.#genuine
    this.#genuine = undefined
    if (genuine !== undefined && this.#listening) unlisten(genuine, this)
    const release = this.#release
    this.#release = undefined
    release?.()
  }
}
