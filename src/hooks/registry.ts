import { quoted } from '../errors/quote.js'
import type { UsageProblem } from '../errors/usage-error.js'
import { appendPointer } from '../json/pointer.js'
import type { HookEvent, HookHandlers } from './events.js'
import { HookRegistrationError } from './hook-registration-error.js'

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
   * @param initial - handlers per event, one or a list each.
   * @param timeoutMs - how long one handler may take (default {@link DEFAULT_HOOK_TIMEOUT_MS}).
   * @throws HookRegistrationError listing every problem: an `initial` that is not an object, an
   *   unknown event, a non-function handler, a `timeoutMs` that is not a positive number of
   *   milliseconds. Nothing is registered then.
   */
  constructor(initial: HookOptions = {}, timeoutMs: number = DEFAULT_HOOK_TIMEOUT_MS) {
    const problems: UsageProblem[] = []
    if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) {
      problems.push({ path: '/hookTimeoutMs', code: 'invalid_timeout', message: 'hookTimeoutMs must be a positive number of milliseconds' })
    }
    if (typeof initial !== 'object' || initial === null || Array.isArray(initial)) {
      problems.push({ path: '/hooks', code: 'invalid_hooks', message: 'hooks must be an object of handlers per event' })
      throw new HookRegistrationError(problems)
    }
    let entries: Array<[HookEvent, HookHandlers[HookEvent]]>
    try {
      entries = initialEntries(initial, problems)
    } catch {
      problems.push({ path: '/hooks', code: 'invalid_hooks', message: 'the hooks could not be read (a getter or a Proxy threw)' })
      throw new HookRegistrationError(problems)
    }
    if (problems.length > 0) throw new HookRegistrationError(problems)
    this.timeoutMs = timeoutMs
    for (const [event, handler] of entries) this.add(event, handler)
  }

  /**
   * Registers a handler; returns a function that unregisters it (calling it twice is harmless).
   *
   * @throws HookRegistrationError for an unknown event (`/event`) or a handler that is not a
   *   function (`/handler`).
   */
  add<E extends HookEvent>(event: E, handler: HookHandlers[E]): () => void {
    const problems: UsageProblem[] = []
    if (!isHookEvent(event)) problems.push({ path: '/event', code: 'unknown_event', message: unknownEvent(event) })
    if (typeof handler !== 'function') problems.push({ path: '/handler', code: 'invalid_handler', message: `the handler of ${isHookEvent(event) ? event : 'a hook'} must be a function` })
    if (problems.length > 0) throw new HookRegistrationError(problems)
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

/**
 * The handlers of `createDispatcher({ hooks })` in registration order, each event's in list order;
 * every unknown event and the first handler of each list that is not a function are reported to
 * `problems` (a list is not read past its first bad entry, so a sparse array of 2^32 - 1 holes
 * costs one read).
 */
function initialEntries(initial: HookOptions, problems: UsageProblem[]): Array<[HookEvent, HookHandlers[HookEvent]]> {
  for (const event of Object.keys(initial)) {
    if (!isHookEvent(event)) problems.push({ path: appendPointer('/hooks', event), code: 'unknown_event', message: unknownEvent(event) })
  }
  const entries: Array<[HookEvent, HookHandlers[HookEvent]]> = []
  for (const event of EVENTS) {
    const given = initial[event]
    if (given === undefined) continue
    const many = Array.isArray(given)
    const list = (many ? given : [given]) as ReadonlyArray<HookHandlers[typeof event]>
    for (let index = 0; index < list.length; index++) {
      const handler = list[index]
      if (typeof handler !== 'function') {
        problems.push({ path: appendPointer('/hooks', event, ...(many ? [index] : [])), code: 'invalid_handler', message: `the handler of ${event} must be a function` })
        break
      }
      entries.push([event, handler])
    }
  }
  return entries
}

/** True for the three hook event names. */
export function isHookEvent(event: unknown): event is HookEvent {
  return (EVENTS as readonly unknown[]).includes(event)
}

/** The `unknown_event` problem message for a value that is not an event name. */
export function unknownEvent(event: unknown): string {
  return `unknown hook event ${typeof event === 'string' ? quoted(event, 64) : typeof event}; expected one of ${EVENTS.join(', ')}`
}
