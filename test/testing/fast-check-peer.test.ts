// result-views/testing without its optional peer fast-check: the entry loads it on first use, so
// the helpers that need it fail with a misuse error naming it, and the others still run.
import Module from 'node:module'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { defineTool, isUsageError } from 'result-views'
import { assertViewBudget, assertViewsConsistent, hostileInputArbitrary, jsonSchemaArbitrary } from 'result-views/testing'
import { thrown } from '../support/outcomes.js'

/** Runs `run` as if fast-check were not installed (the entry loads it with `createRequire`, through `Module._load`). */
function withoutFastCheck<T>(run: () => T): T {
  const modules = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown }
  const load = modules._load
  modules._load = function (this: unknown, request: string, ...rest: unknown[]) {
    if (request === 'fast-check') throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' })
    return load.call(this, request, ...rest)
  }
  try {
    return run()
  } finally {
    modules._load = load
  }
}

const item = Type.Object({ id: Type.String(), notes: Type.String() })
const tool = defineTool({
  id: 'notes__read', description: 'd', input: Type.Object({}),
  output: { compact: Type.Object({ id: Type.String() }), full: item }, handler: () => ({ id: 'a', notes: 'n' }),
})

describe('result-views/testing without fast-check', () => {
  it('testing entry needs fast-check only in the helpers that generate values (regression: importing the entry failed without it)', () => {
    for (const run of [() => jsonSchemaArbitrary({ type: 'string' }), () => hostileInputArbitrary(), () => assertViewsConsistent(tool, { runs: 1 })]) {
      const error = thrown(() => withoutFastCheck(run))
      expect(isUsageError(error)).toBe(true)
      expect(error).toMatchObject({ code: 'fast_check_unavailable', problems: [{ path: '', code: 'fast_check_missing' }] })
      expect((error as Error).message).toContain('npm install --save-dev fast-check@4')
      expect((error as Error).cause).toBeInstanceOf(Error)
    }
  })

  it('assertViewBudget runs without fast-check', () => {
    const report = withoutFastCheck(() => assertViewBudget(tool, { records: [{ id: 'a', notes: 'n' }], maxCompactBytes: 100, countTokens: (t) => t.length }))
    expect(report.records).toHaveLength(1)
  })

  it('the generators work again once fast-check loads (a failed load is not kept)', () => {
    withoutFastCheck(() => thrown(() => jsonSchemaArbitrary({ type: 'string' })))
    expect(typeof jsonSchemaArbitrary({ type: 'string' }).generate).toBe('function')
  })
})
