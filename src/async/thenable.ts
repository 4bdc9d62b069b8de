/**
 * What `await` would wait on: a promise, or any object or function with a callable `then`. Reads
 * `then` (and, for a Proxy, runs its traps), which can throw: call it inside the guard that types
 * the failure.
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  if (value instanceof Promise) return true
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function'
}

const promiseThen = Promise.prototype.then

/**
 * Marks a dropped host answer's rejection as handled: when `value` is a native promise (a
 * callback that should have answered synchronously returned one), a rejection of it can no longer
 * reach the host's `unhandledRejection` handler, which by default ends the process. Anything else
 * is left alone (a foreign thenable's `then` is host code and is not called). Never throws.
 */
export function dropAnswer(value: unknown): void {
  if (!(value instanceof Promise)) return
  try {
    promiseThen.call(value, undefined, () => undefined)
  } catch {
    // A promise whose species getter throws: nothing more can be done without calling host code.
  }
}
