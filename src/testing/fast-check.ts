import { createRequire } from 'node:module'
import type FC from 'fast-check'
import { UsageError } from 'result-views'

/** The optional peer the generators and `assertViewsConsistent` run on, loaded on first use. */
const FAST_CHECK_MODULE = 'fast-check'

const require = createRequire(import.meta.url)

/**
 * `fast-check` (an optional peer dependency, 4.x), loaded on first use so that importing
 * `result-views/testing` does not need it (`assertViewBudget` and the conformance suites run
 * without it).
 *
 * @throws UsageError (`code: 'fast_check_unavailable'`, problem `fast_check_missing`) when it cannot
 *   be loaded; the loader's error is the `cause`.
 */
export function loadFastCheck(): typeof FC {
  // Not kept here: Node's module cache answers each later call, and a missing peer is reported each time.
  let module: unknown
  try {
    module = require(FAST_CHECK_MODULE)
  } catch (error) {
    const message = 'the property generators and assertViewsConsistent need the optional peer dependency fast-check (4.x), which could not be loaded: run `npm install --save-dev fast-check@4`'
    throw new UsageError({ code: 'fast_check_unavailable', subject: 'result-views/testing', problems: [{ path: '', code: 'fast_check_missing', message }], message, cause: error })
  }
  return module as typeof FC
}

/**
 * `fast-check` as a value that loads it on first use: `fc.oneof(...)` works as with the module
 * itself, and throws {@link loadFastCheck}'s error when it is missing. Build arbitraries inside
 * functions (or {@link lazy}), never at module level, so the entry imports without it.
 */
export const fc: typeof FC = new Proxy({} as typeof FC, {
  get: (_, key) => Reflect.get(loadFastCheck(), key),
})

/** A value built on first use and kept: for module-level arbitraries. */
export function lazy<T>(build: () => T): () => T {
  let value: T | undefined
  let built = false
  return () => {
    if (!built) {
      value = build()
      built = true
    }
    return value as T
  }
}
