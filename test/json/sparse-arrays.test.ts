// Arrays of 2^32 - 1 holes (`a.length = 2 ** 32 - 1`) handed to every entry point that takes an
// array: each is refused at its first hole with a typed error, without walking four billion
// indices or running out of memory (before, canonicalJson and invoke ran the process out of memory).
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { canonicalJson, createDispatcher, createPatternPolicy, createRetiredIdFilter, defineTool, inputDigest, intersectPolicies } from 'result-views'
import { lintLoop } from 'result-views/loop'
import { measureCatalog } from 'result-views/mcp'
import { errorOf, thrown } from '../support/outcomes.js'

function holes(): unknown[] {
  const array: unknown[] = []
  array.length = 2 ** 32 - 1
  return array
}

const tool = defineTool({
  id: 'tags',
  description: 'd',
  input: Type.Object({ tags: Type.Optional(Type.Array(Type.String())) }),
  output: Type.Object({ tags: Type.Array(Type.String()) }),
  handler: () => ({ tags: holes() as string[] }),
})

describe('an array of 2^32 - 1 holes', () => {
  it('is refused by canonicalJson and inputDigest as sparse_array at the first hole', () => {
    expect(thrown(() => canonicalJson({ a: holes() }))).toMatchObject({ code: 'non_json_value', problem: 'sparse_array', pointer: '/a/0' })
    expect(thrown(() => inputDigest({ a: [1, ...[2]], b: holes() }))).toMatchObject({ problem: 'sparse_array', pointer: '/b/0' })
  })

  it('is a typed error in an invoke input, request or record, never a crash', async () => {
    const dispatcher = createDispatcher({ tools: [tool] })
    expect(errorOf(await dispatcher.invoke({ tool_id: 'tags', input: { tags: holes() } }))).toMatchObject({
      code: 'tool_invalid_input',
      reason: 'non_json_input',
      details: { pointer: '/tags/0', problem: 'sparse_array' },
    })
    expect(errorOf(await dispatcher.invoke({ tool_id: 'tags', input: {}, sensitive_input_fields: holes() as string[] }))).toMatchObject({
      code: 'tool_invalid_input',
      reason: 'request_invalid',
    })
    expect(errorOf(await dispatcher.invoke({ tool_id: 'tags', input: {} }))).toMatchObject({
      code: 'tool_output_invalid',
      details: { pointer: '/tags/0', problem: 'sparse_array' },
    })
  })

  it('is one problem at its first hole in every misuse check that takes a list', () => {
    const problemsOf = (run: () => unknown) => (thrown(run) as { problems: unknown[] }).problems
    expect(problemsOf(() => createDispatcher({ tools: holes() as never }))).toEqual([expect.objectContaining({ path: '/tools/0', code: 'not_a_defined_tool' })])
    expect(problemsOf(() => intersectPolicies(holes() as never))).toEqual([expect.objectContaining({ path: '/policies/0', code: 'invalid_policy' })])
    expect(problemsOf(() => createPatternPolicy({ owner: 'agent:a', tools: holes() as string[] }))).toEqual([expect.objectContaining({ path: '/tools/0', code: 'invalid_pattern' })])
    expect(problemsOf(() => createRetiredIdFilter({ toolsets: holes() as string[] }))).toEqual([expect.objectContaining({ path: '/toolsets/0', code: 'invalid_retired_ids' })])
    expect(problemsOf(() => defineTool({ id: 't', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => ({}), toolsets: holes() as string[] }))).toEqual([
      expect.objectContaining({ path: '/toolsets', code: 'invalid_string_list' }),
    ])
    expect(problemsOf(() => lintLoop({ graph: { nodes: [] } }, holes() as never))).toEqual([expect.objectContaining({ path: '/0', code: 'not_a_tool' })])
    expect(problemsOf(() => measureCatalog(holes() as never))).toEqual([expect.objectContaining({ path: '/0', code: 'not_a_tool' })])
  })
})
