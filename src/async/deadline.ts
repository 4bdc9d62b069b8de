import type { AbortWatch } from './abort.js'
import { isThenable } from './thenable.js'

/** Longest delay one `setTimeout` honours (2^31 - 1 ms); {@link callHost} re-arms for longer budgets. */
export const MAX_TIMER_MS = 2_147_483_647

/**
 * Whether a time budget option is usable: a positive number of milliseconds (at most
 * {@link MAX_TIMER_MS}, the longest one timer waits), or `Infinity` (no limit, only when a host
 * asks for it explicitly).
 */
export function isTimerBudget(value: unknown): value is number {
  return typeof value === 'number' && (value === Infinity || (Number.isFinite(value) && value > 0 && value <= MAX_TIMER_MS))
}

/** How long a host callback may take, and what gives up waiting on it. */
export interface Deadline {
  /**
   * The budget in milliseconds from the call; `Infinity` waits forever. Judged twice: by a timer
   * while the answer is awaited, and by the monotonic clock (`performance.now`) when the answer
   * settles, so an answer that arrives after its budget (the event loop was blocked, a synchronous
   * callback ran long) is late and refused, never accepted because no timer could fire.
   */
  readonly timeoutMs: number
  /** Aborting it gives up the wait at once; when it is already aborted the callback is not called. */
  readonly signal?: AbortWatch | undefined
}

/**
 * Why a host callback gave no usable answer:
 * - `threw`: it threw, or the promise it returned rejected;
 * - `unreadable`: its answer could not be read (a Proxy trap or getter threw, a thenable whose
 *   `then` is a throwing getter, a revoked Proxy, or the caller's `read` threw);
 * - `timeout`: no answer within `timeoutMs`, or one that settled after it;
 * - `aborted`: the deadline's signal aborted first (or while a synchronous callback ran).
 */
export type HostFailure = 'threw' | 'unreadable' | 'timeout' | 'aborted'

/** What {@link callHost} settles to. Never a rejection. */
export type HostAnswer<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: HostFailure; readonly cause?: unknown }

const TIMED_OUT: HostAnswer<never> = Object.freeze({ ok: false, failure: 'timeout' })
const ABORTED: HostAnswer<never> = Object.freeze({ ok: false, failure: 'aborted' })
const promiseThen = Promise.prototype.then

/**
 * Microtask turns an awaited answer may take before its timer is armed: an `async` callback that
 * awaits an already-settled promise or two settles within them.
 */
const ARM_AFTER_TURNS = 4

/**
 * The one way this library calls a host callback (a hook, the policy, a store method, the prompt,
 * `checkOwner`, `authenticate`) or a tool's handler: `work` runs under `deadline`, and its answer
 * (awaited when it is a promise or thenable) is read by `read` inside the same guard, so every way
 * the callback or its answer can fail is one of the {@link HostFailure}s, never an exception.
 *
 * A synchronous answer settles synchronously (no task-queue turn; callers that do not care
 * `await` it); an awaited one settles through a promise that never rejects.
 *
 * @param work - calls the callback.
 * @param deadline - the time budget and the signal that gives up the wait.
 * @param read - turns the settled answer into what the caller keeps (checks it, copies it); a throw
 *   is `unreadable`. Default: the answer as it is.
 */
export function callHost<A, T = A>(work: () => A | PromiseLike<A>, deadline: Deadline, read?: (answer: A) => T): HostAnswer<T> | Promise<HostAnswer<T>> {
  const { timeoutMs, signal } = deadline
  if (signal?.aborted === true) return ABORTED
  const started = performance.now()
  let answer: A | PromiseLike<A>
  try {
    answer = work()
  } catch (cause) {
    return { ok: false, failure: 'threw', cause }
  }
  let adopted: Promise<A> | undefined
  try {
    // Reading `then` runs a getter or a Proxy trap of the host's answer; adopting a promise reads
    // its `constructor`: both inside the guard.
    if (isThenable(answer)) adopted = Promise.resolve(answer)
  } catch (cause) {
    return { ok: false, failure: 'unreadable', cause }
  }
  // A synchronous answer is refused when the signal aborted while the callback ran (it may have
  // aborted it itself): the caller has given up, as it would have while waiting.
  if (adopted === undefined) return abortedNow(signal) ? ABORTED : isLate(started, timeoutMs) ? TIMED_OUT : readAnswer(answer as A, read)
  const pending = adopted
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    let settled = false
    const settle = (result: HostAnswer<T>): void => {
      if (settled) return
      settled = true
      if (timer !== undefined) clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      resolve(result)
    }
    const onAbort = (): void => settle(ABORTED)
    const arm = (): void => {
      if (settled) return
      // A budget past the longest timer is waited on in steps.
      const left = timeoutMs - (performance.now() - started)
      // An abort the listener did not hear (the signal's event was stopped) counts over the budget.
      if (left <= 0) settle(abortedNow(signal) ? ABORTED : TIMED_OUT)
      else timer = setTimeout(arm, Math.min(Math.ceil(left), MAX_TIMER_MS))
    }
    // The timer is armed only for an answer still pending after a few microtask turns: an async
    // callback that settles at once (no real waiting inside) costs no timer. Arming later moves no
    // deadline: the budget counts from `started`, and a late answer is refused by the clock.
    let turns = 0
    const armWhenPending = (): void => {
      if (settled) return
      if (++turns < ARM_AFTER_TURNS) queueMicrotask(armWhenPending)
      else arm()
    }
    if (Number.isFinite(timeoutMs)) queueMicrotask(armWhenPending)
    signal?.addEventListener('abort', onAbort, { once: true })
    try {
      // Promise.prototype.then, not the answer's own `then`: a promise may carry a throwing one.
      promiseThen.call(
        pending,
        // An abort the listener did not hear (the signal's event was stopped) still counts.
        (value: A) => settle(abortedNow(signal) ? ABORTED : isLate(started, timeoutMs) ? TIMED_OUT : readAnswer(value, read)),
        (cause: unknown) => settle(abortedNow(signal) ? ABORTED : isLate(started, timeoutMs) ? TIMED_OUT : { ok: false, failure: 'threw', cause }),
      )
    } catch (cause) {
      // `then` reads the promise's `constructor` (its species) again, which a getter can refuse.
      settle({ ok: false, failure: 'unreadable', cause })
    }
  })
}

/** Whether the signal has aborted by now (read afresh: the callback that just ran may have aborted it). */
function abortedNow(signal: AbortWatch | undefined): boolean {
  return signal?.aborted === true
}

/** Whether an answer settling now is past its budget, judged by the monotonic clock. */
function isLate(started: number, timeoutMs: number): boolean {
  return performance.now() - started > timeoutMs
}

function readAnswer<A, T>(answer: A, read: ((answer: A) => T) | undefined): HostAnswer<T> {
  if (read === undefined) return { ok: true, value: answer as unknown as T }
  try {
    return { ok: true, value: read(answer) }
  } catch (cause) {
    return { ok: false, failure: 'unreadable', cause }
  }
}
