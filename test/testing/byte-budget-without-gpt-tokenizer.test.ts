// assertViewBudget with byte limits only demanded gpt-tokenizer (it counted tokens no limit needed):
// it must neither load nor need it then.
import Module from 'node:module'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { defineTool } from 'result-views'
import { measureViews } from 'result-views/contracts'
import { assertViewBudget, isViewBudgetError } from 'result-views/testing'
import { thrown } from '../support/outcomes.js'

/** Runs `run` as if gpt-tokenizer were not installed, and returns every request for it as well. */
function withoutTokenizer<T>(run: () => T): { value?: T; error?: unknown; requests: string[] } {
  const modules = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown }
  const load = modules._load
  const requests: string[] = []
  modules._load = function (this: unknown, request: string, ...rest: unknown[]) {
    if (request === 'gpt-tokenizer' || request.startsWith('gpt-tokenizer/')) {
      requests.push(request)
      throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' })
    }
    return load.call(this, request, ...rest)
  }
  try {
    return { value: run(), requests }
  } catch (error) {
    return { error, requests }
  } finally {
    modules._load = load
  }
}

const tool = defineTool({
  id: 'notes__read', description: 'd', input: Type.Object({}),
  output: { compact: Type.Object({ id: Type.String() }), full: Type.Object({ id: Type.String(), notes: Type.String() }) },
  handler: () => ({ id: 'a', notes: 'n' }),
})
const records = [{ id: 'a', notes: 'x'.repeat(100) }, { id: 'bb', notes: '' }]

describe('a byte budget without gpt-tokenizer', () => {
  it('passes, measuring bytes only, and never asks for the tokenizer', () => {
    const run = withoutTokenizer(() => assertViewBudget(tool, { records, maxCompactBytes: 100 }))
    expect(run.error).toBeUndefined()
    expect(run.requests).toEqual([])
    expect(run.value).toEqual({
      tool_id: 'notes__read',
      tokenizer: null,
      records: [{ index: 0, compact_bytes: 10, full_bytes: 121 }, { index: 1, compact_bytes: 11, full_bytes: 22 }],
      total: { compact_bytes: 21, full_bytes: 143 },
    })
  })

  it('fails a record past the byte limit with view_budget_exceeded, still without the tokenizer', () => {
    const run = withoutTokenizer(() => assertViewBudget(tool, { records, maxCompactBytes: 10 }))
    expect(run.requests).toEqual([])
    expect(isViewBudgetError(run.error)).toBe(true)
    expect(run.error).toMatchObject({ recordIndex: 1, figure: 'compact_bytes', actual: 11, limit: 10 })
  })

  it('measureViews with tokens: false is the same bytes-only measurement, and refuses a counter with it', () => {
    const run = withoutTokenizer(() => measureViews(tool, records, { tokens: false }))
    expect(run.requests).toEqual([])
    expect(run.value?.total).toEqual({ compact_bytes: 21, full_bytes: 143 })
    expect(thrown(() => measureViews(tool, records, { tokens: false, countTokens: (t: string) => t.length } as never))).toMatchObject({ code: 'contracts_invalid', problems: [{ path: '/tokens', code: 'invalid_options' }] })
  })

  it('still needs the tokenizer for a token limit (so the hook above does hide it)', () => {
    const run = withoutTokenizer(() => assertViewBudget(tool, { records, maxCompactTokens: 100, maxCompactBytes: 100 }))
    expect(run.requests.length).toBeGreaterThan(0)
    expect(run.error).toMatchObject({ code: 'tokenizer_unavailable' })
  })
})
