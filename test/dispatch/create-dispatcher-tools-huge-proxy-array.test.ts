// Regression (break-it review): `createDispatcher({ tools })` with a Proxy array claiming 2^32 − 1
// elements, each the same tool, pushed a duplicate_tool_id problem per index until the process ran
// out of memory. It is refused at once, as every other array option is.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'

const tool = defineTool({ id: 't__ok', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })

describe('createDispatcher with a huge Proxy tools array', () => {
  it('throws ToolDefinitionError invalid_catalog at /tools, fast', { timeout: 5_000 }, () => {
    const huge = new Proxy([] as unknown[], {
      get: (target, key) => (key === 'length' ? 2 ** 32 - 1 : typeof key === 'string' && /^\d+$/.test(key) ? tool : Reflect.get(target, key)),
      has: (target, key) => (typeof key === 'string' && /^\d+$/.test(key)) || Reflect.has(target, key),
    })
    expect(() => createDispatcher({ tools: huge as never })).toThrow(expect.objectContaining({ code: 'tool_definition_invalid', problems: [expect.objectContaining({ path: '/tools', code: 'invalid_catalog' })] }))
  })
})
