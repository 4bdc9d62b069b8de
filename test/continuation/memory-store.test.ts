// The memory continuation store (the default of result-views/http and result-views/mcp): the
// conformance suite every continuation store passes, and its options refused by name.
import { describe, expect, it } from 'vitest'
import { createMemoryContinuationStore, isContinuationStoreOptionsError } from 'result-views/http'
import { createMemoryContinuationStore as fromMcp } from 'result-views/mcp'
import { describeContinuationStoreConformance } from 'result-views/testing'

describeContinuationStoreConformance('memory store', (bounds) => createMemoryContinuationStore(bounds), { describe, it, expect })

function problemsOf(run: () => unknown): Array<[string, string]> {
  try {
    run()
  } catch (error) {
    expect(isContinuationStoreOptionsError(error), String(error)).toBe(true)
    expect((error as { code: string }).code).toBe('continuation_store_options_invalid')
    return (error as { problems: Array<{ path: string; code: string }> }).problems.map((p) => [p.path, p.code])
  }
  throw new Error('expected a throw')
}

describe('createMemoryContinuationStore options', () => {
  it('refuses every bad bound at once, and a misspelt one with did-you-mean', () => {
    expect(problemsOf(() => createMemoryContinuationStore({ maxEntries: 0, maxBytes: 1.5, ttlMs: -1 }))).toEqual([
      ['/maxEntries', 'invalid_limit'],
      ['/maxBytes', 'invalid_limit'],
      ['/ttlMs', 'invalid_limit'],
    ])
    let message = ''
    try {
      createMemoryContinuationStore({ maxEntry: 3 } as never)
    } catch (error) {
      message = String(error)
    }
    expect(message).toContain('did you mean "maxEntries"')
    expect(problemsOf(() => createMemoryContinuationStore('x' as never))).toEqual([['', 'invalid_option']])
  })

  it('reads a getter that throws as a problem, not a crash', () => {
    const hostile = Object.defineProperty({}, 'ttlMs', { enumerable: true, get: () => { throw new Error('boom') } })
    expect(problemsOf(() => createMemoryContinuationStore(hostile))).toEqual([['/ttlMs', 'unreadable_option']])
  })

  it('is the same factory on result-views/mcp', async () => {
    const store = fromMcp({ maxEntries: 1 })
    expect(await store.deleteExpired(Date.now())).toBe(0)
  })
})
