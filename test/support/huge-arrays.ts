// The two huge sparse arrays every array position is tested with, named after how they are made.
// Both are refused at their first hole: a walk over their indices would take minutes (2 ** 32 - 1
// of them) or allocate gigabytes, so a test that regresses hangs or runs out of memory instead of
// failing. Tests that use them set a short timeout (HUGE_ARRAY_TIMEOUT_MS) so a regression fails fast.

/** How each huge array is made: `a.length = 2 ** 32 - 1` (the longest array there is) and `new Array(2 ** 26)`. */
export const HUGE_ARRAYS: ReadonlyArray<{ readonly name: string; readonly make: () => unknown[] }> = [
  {
    name: 'a.length = 2 ** 32 - 1',
    make: () => {
      const array: unknown[] = []
      array.length = 2 ** 32 - 1
      return array
    },
  },
  { name: 'new Array(2 ** 26)', make: () => new Array(2 ** 26) },
]

/** A timeout for a test of huge arrays: generous for the work it should do, far below what a walk of the indices takes. */
export const HUGE_ARRAY_TIMEOUT_MS = 10_000
