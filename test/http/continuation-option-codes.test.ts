// The continuation options (`maxResultBytes`, `continuations`) are refused with one pair of problem
// codes on both surfaces: `invalid_limit` for a bad value, `unknown_option` for an unknown key.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, isUsageError } from 'result-views'
import { createFetchHandler, createMemoryContinuationStore } from 'result-views/http'
import { createMcpServer } from 'result-views/mcp'

const tool = defineTool({ id: 't', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })
const dispatcher = createDispatcher({ tools: [tool] })

function problemsOf(run: () => unknown, prefix: string): Array<[string, string]> {
  try {
    run()
  } catch (error) {
    expect(isUsageError(error)).toBe(true)
    return (error as { problems: Array<{ path: string; code: string }> }).problems.map((p) => [p.path.slice(prefix.length), p.code])
  }
  throw new Error('expected a misuse error')
}

describe('continuation option codes on MCP and HTTP', () => {
  const cases: Array<[string, Record<string, unknown>, Array<[string, string]>]> = [
    ['a maxResultBytes under 256', { maxResultBytes: 10 }, [['/maxResultBytes', 'invalid_limit']]],
    ['continuations without maxResultBytes', { continuations: { ttlMs: 5 } }, [['/continuations', 'invalid_limit']]],
    ['a bad bound and an unknown key', { maxResultBytes: 4096, continuations: { ttlMs: 0, size: 3 } }, [['/continuations/size', 'unknown_option'], ['/continuations/ttlMs', 'invalid_limit']]],
    ['a continuationStore that is not one', { maxResultBytes: 4096, continuationStore: { put() {} } }, [['/continuationStore', 'invalid_continuation_store']]],
    ['a continuationStore without maxResultBytes', { continuationStore: createMemoryContinuationStore() }, [['/continuationStore', 'invalid_continuation_store']]],
    [
      'a continuationStore with continuations (the store takes the bounds)',
      { maxResultBytes: 4096, continuations: { ttlMs: 5 }, continuationStore: createMemoryContinuationStore() },
      [['/continuationStore', 'invalid_continuation_store']],
    ],
    ['a continuationStore whose getter throws', { maxResultBytes: 4096, continuationStore: Object.defineProperty({}, 'put', { get: () => { throw new Error('boom') } }) }, [['/continuationStore', 'invalid_continuation_store']]], // prettier-ignore
  ]
  for (const [name, options, expected] of cases) {
    it(`refuses ${name} with the same codes on both surfaces`, () => {
      expect(problemsOf(() => createMcpServer(dispatcher, { name: 'n', version: '1', ...options }), '')).toEqual(expected)
      expect(problemsOf(() => createFetchHandler(dispatcher, options), '/options')).toEqual(expected)
    })
  }
})
