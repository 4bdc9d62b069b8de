import { Script, createContext, type Context } from 'node:vm'

/** What {@link runWithinSync} answers: the work's value, what it threw, or a timeout. Never throws. */
export type SyncDeadlineResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly timedOut: false; readonly cause: unknown }
  | { readonly ok: false; readonly timedOut: true }

/** The error code Node gives a script stopped by its `timeout`. */
const TIMED_OUT = 'ERR_SCRIPT_EXECUTION_TIMEOUT'

/**
 * The one script that calls the work: it runs in an empty context of its own, and its `timeout`
 * makes V8 stop whatever JavaScript runs on this thread when the time is up, the host's
 * functions it calls included, so a synchronous loop that never ends is stopped too.
 */
let runner: { readonly script: Script; readonly context: Context } | null | undefined

function runnerOf(): { readonly script: Script; readonly context: Context } | null {
  if (runner === undefined) {
    try {
      runner = { script: new Script('work()'), context: createContext(Object.create(null)) }
    } catch {
      // A platform without `node:vm` scripts: the work runs unbounded (see below).
      runner = null
    }
  }
  return runner
}

/**
 * Runs synchronous host code (a callback that must answer at once, such as a tool's value rule)
 * and bounds it by `timeoutMs`: a callback that loops forever is stopped and answered as a
 * timeout, never a hung thread. The stop is V8's (the `timeout` of a `node:vm` script, which
 * starts a watchdog thread per run, about 40 µs), so it reaches code that catches every
 * exception. Where `node:vm` scripts are not available the work runs without a bound.
 *
 * What the work leaves half-done when it is stopped is the caller's to discard.
 *
 * @param work - the synchronous work.
 * @param timeoutMs - a positive integer of milliseconds.
 */
export function runWithinSync<T>(work: () => T, timeoutMs: number): SyncDeadlineResult<T> {
  const bound = runnerOf()
  let value: T
  let threw = false
  let cause: unknown
  const guarded = (): void => {
    try {
      value = work()
    } catch (error) {
      threw = true
      cause = error
    }
  }
  if (bound === null) {
    guarded()
  } else {
    // The context is shared: a nested call replaces `work` only after this script has read it.
    bound.context.work = guarded
    try {
      bound.script.runInContext(bound.context, { timeout: timeoutMs })
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code === TIMED_OUT) return { ok: false, timedOut: true }
      return { ok: false, timedOut: false, cause: error }
    } finally {
      bound.context.work = undefined
    }
  }
  return threw ? { ok: false, timedOut: false, cause } : { ok: true, value: value! }
}
