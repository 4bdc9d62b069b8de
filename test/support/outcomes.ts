// Reading outcomes and throws in tests: named after what they return.
import { expect } from 'vitest'
import { isToolError, type InvokeOutcome, type ToolError } from 'result-views'

/** The typed error of an outcome that must be an error (fails the test otherwise). */
export function errorOf(outcome: InvokeOutcome): ToolError {
  if (outcome.status !== 'error') throw new Error(`expected an error, got ${JSON.stringify(outcome)}`)
  expect(isToolError(outcome.error)).toBe(true)
  return outcome.error
}

/** What `run` throws (fails the test when it returns). */
export function thrown(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

/** What `promise` rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

/** What `run` throws or, when it returns a promise, rejects with (fails the test when it fulfils). */
export async function thrownOrRejected(run: () => unknown): Promise<unknown> {
  try {
    await run()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw or a rejection')
}
