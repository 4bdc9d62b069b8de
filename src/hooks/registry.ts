import type { HookEvent, HookHandlers } from './events.js'

const EVENTS: readonly HookEvent[] = ['tool.pre_call', 'tool.post_call', 'tool.post_error']
const NONE: readonly never[] = Object.freeze([])

/** How long one hook handler may take by default: 10 s. */
export const DEFAULT_HOOK_TIMEOUT_MS = 10_000

/** Initial hooks for `createDispatcher({ hooks })`: one handler or a list per event, in order. */
export type HookOptions = { readonly [E in HookEvent]?: HookHandlers[E] | readonly HookHandlers[E][] }

/** The registered hook handlers of one dispatcher, per event, in registration order. */
export class HookRegistry {
  readonly #handlers: { [E in HookEvent]: Array<HookHandlers[E]> } = {
    'tool.pre_call': [],
    'tool.post_call': [],
    'tool.post_error': [],
  }

  /** How long one handler may take, in milliseconds (`Infinity`: no limit). */
  readonly timeoutMs: number

  /**
   * @param timeoutMs - how long one handler may take (default {@link DEFAULT_HOOK_TIMEOUT_MS}).
   * @throws HookRegistrationError for an `initial` that is not an object, an unknown event, a
   *   non-function handler, or a `timeoutMs` that is not a positive number of milliseconds.
   */
  constructor(initial: HookOptions = {}, timeoutMs: number = DEFAULT_HOOK_TIMEOUT_MS) {
    if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) throw new HookRegistrationError('hookTimeoutMs must be a positive number of milliseconds')
    this.timeoutMs = timeoutMs
    if (typeof initial !== 'object' || initial === null || Array.isArray(initial)) {
      throw new HookRegistrationError('hooks must be an object of handlers per event')
    }
    for (const event of Object.keys(initial)) {
      if (!EVENTS.includes(event as HookEvent)) throw new HookRegistrationError(`unknown hook event ${JSON.stringify(event)}; expected one of ${EVENTS.join(', ')}`)
    }
    for (const event of EVENTS) {
      const given = initial[event]
      if (given === undefined) continue
      for (const handler of (Array.isArray(given) ? given : [given]) as Array<HookHandlers[typeof event]>) this.add(event, handler)
    }
  }

  /**
   * Registers a handler; returns a function that unregisters it (calling it twice is harmless).
   *
   * @throws HookRegistrationError for an unknown event or a handler that is not a function.
   */
  add<E extends HookEvent>(event: E, handler: HookHandlers[E]): () => void {
    if (!EVENTS.includes(event)) throw new HookRegistrationError(`unknown hook event ${JSON.stringify(event)}; expected one of ${EVENTS.join(', ')}`)
    if (typeof handler !== 'function') throw new HookRegistrationError(`the handler of ${event} must be a function`)
    const list = this.#handlers[event] as Array<HookHandlers[E]>
    const entry = handler
    list.push(entry)
    return () => {
      const index = list.indexOf(entry)
      if (index >= 0) list.splice(index, 1)
    }
  }

  /** Whether any handler is registered for an event. */
  has(event: HookEvent): boolean {
    return this.#handlers[event].length > 0
  }

  /** A snapshot of the handlers of an event: registering during a call does not change that call. */
  list<E extends HookEvent>(event: E): ReadonlyArray<HookHandlers[E]> {
    const handlers = this.#handlers[event] as Array<HookHandlers[E]>
    return handlers.length === 0 ? NONE : [...handlers]
  }
}

/** Thrown by `dispatcher.hook` (and `createDispatcher({ hooks })`) for misuse; `code` is `'hook_registration_invalid'`. */
export class HookRegistrationError extends Error {
  override readonly name = 'HookRegistrationError'
  readonly code = 'hook_registration_invalid' as const
}
