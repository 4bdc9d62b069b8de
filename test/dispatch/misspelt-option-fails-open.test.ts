// Regression: a misspelt option failed open. `createDispatcher({ tools, policies })` (a typo for
// `policy`) was accepted and every tool ran; the same for misspelt `approval` and `hook` keys.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, createPatternPolicy, defineTool, isDispatcherOptionsError, type DispatcherOptions } from 'result-views'

const tool = defineTool({ id: 't__s', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })

describe('misspelt-option-fails-open', () => {
  const cases: Array<[string, string]> = [
    ['policies', 'policy'],
    ['approval', 'approvals'],
    ['hook', 'hooks'],
  ]
  for (const [key, meant] of cases) {
    it(`refuses createDispatcher({ tools, ${key} }) with DispatcherOptionsError naming ${meant}`, () => {
      let error: unknown
      try {
        createDispatcher({ tools: [tool], [key]: createPatternPolicy({ owner: 'agent:x', tools: [] }) } as unknown as DispatcherOptions)
      } catch (thrown) {
        error = thrown
      }
      expect(isDispatcherOptionsError(error)).toBe(true)
      expect((error as { code: string }).code).toBe('dispatcher_options_invalid')
      expect((error as { problems: unknown[] }).problems).toEqual([{ path: `/${key}`, code: 'unknown_option', message: `unknown option "${key}"; did you mean "${meant}"?` }])
    })
  }

  it('refuses a bad clock, logger or handlerTimeoutMs with DispatcherOptionsError, not ToolDefinitionError', () => {
    for (const [key, value] of [['clock', 1], ['logger', {}], ['handlerTimeoutMs', -1]] as const) {
      let error: unknown
      try {
        createDispatcher({ tools: [tool], [key]: value } as unknown as DispatcherOptions)
      } catch (thrown) {
        error = thrown
      }
      expect(isDispatcherOptionsError(error), key).toBe(true)
      expect((error as { problems: Array<{ path: string; code: string }> }).problems.map((p) => [p.path, p.code])).toEqual([[`/${key}`, 'invalid_option']])
    }
  })
})
