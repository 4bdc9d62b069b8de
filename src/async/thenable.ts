/**
 * What `await` would wait on: a promise, or any object or function with a callable `then`. Reads
 * `then` (and, for a Proxy, runs its traps), which can throw: call it inside the guard that types
 * the failure.
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  if (value instanceof Promise) return true
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function'
}
