// The conformance suite's options are typed by what it calls, so any runner's functions fit.
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { ApprovalStoreConformanceOptions, ConformanceExpect } from 'result-views/testing'

// The shapes of Jest's globals (@jest/globals), written out: the suite must take them too.
interface JestLikeMatchers<R> {
  toBe(expected: unknown): R
  toEqual<E>(expected: E): R
  toMatchObject<E extends object | unknown[]>(expected: E): R
  toContain<E>(expected: E): R
  toHaveLength(expected: number): R
  toBeDefined(): R
  toBeUndefined(): R
  not: JestLikeMatchers<R>
}
type JestLike = {
  describe: (blockName: string | number | (() => void), blockFn: () => void) => void
  it: (testName: string, fn?: (done: () => void) => void | Promise<unknown>, timeout?: number) => void
  expect: <T = unknown>(actual: T) => JestLikeMatchers<void>
}

describe('conformance options types', () => {
  it("take vitest's describe, it and expect", () => {
    expectTypeOf({ describe, it, expect }).toExtend<ApprovalStoreConformanceOptions>()
  })

  it("take Jest-shaped describe, it and expect, with no runner's types imported", () => {
    expectTypeOf<JestLike>().toExtend<ApprovalStoreConformanceOptions>()
  })

  it('refuse an expect that lacks a matcher the suite uses', () => {
    type Partial = (actual: unknown) => { toBe(expected: unknown): void }
    expectTypeOf<Partial>().not.toExtend<ConformanceExpect>()
  })
})
