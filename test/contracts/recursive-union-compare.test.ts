// The compatibility prover on the expression tree (a recursive union referenced through a property
// of its own branch): identical trees are compatible, an unrelated optional field beside the tree
// is not breaking drift, and real drift inside the tree is still found.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { defineTool, type JsonSchema } from 'result-views'
import { compareContracts, compareSchemas, contractLock, formatContractLock, parseContractLock } from 'result-views/contracts'
import { expressionTree, withLiteral } from '../support/expression-tree.js'

const tool = (output: JsonSchema) =>
  defineTool({ id: 'calc__parse', description: 'Parses an expression.', input: Type.Object({}), output: output as never, handler: () => ({}) as never })

describe('compareSchemas on the expression tree', () => {
  it('calls the tree compared with a copy of itself compatible, in both roles (regression: breaking, type_widened)', () => {
    for (const role of ['output', 'input'] as const) {
      expect(compareSchemas(expressionTree(), structuredClone(expressionTree()), role)).toEqual({ verdict: 'compatible', reasons: [] })
    }
  })

  it('still finds drift inside the tree: a widened leaf of an output, a narrowed one of an input', () => {
    const wider = withLiteral(expressionTree(), (lit) => (lit.properties.value = { type: ['number', 'string'] }))
    const output = compareSchemas(expressionTree(), wider, 'output')
    expect(output.verdict).toBe('breaking')
    expect(output.reasons.map((r) => r.code)).toContain('type_widened')
    const input = compareSchemas(wider, expressionTree(), 'input')
    expect(input.verdict).toBe('breaking')
    expect(input.reasons.map((r) => r.code)).toContain('type_narrowed')
    expect(compareSchemas(expressionTree(), wider, 'input').verdict).toBe('compatible')
  })
})

describe('compareContracts on a tool whose output is the expression tree', () => {
  it('calls an unrelated optional field added beside the tree compatible, from a catalog or its lock file (regression: breaking, type_widened)', () => {
    const grown = structuredClone(expressionTree()) as any
    grown.properties.note = { type: 'string' }
    const lock = contractLock([tool(expressionTree())])
    for (const before of [[tool(expressionTree())], lock, parseContractLock(formatContractLock(lock))]) {
      const comparison = compareContracts(before, [tool(grown)])
      expect(comparison.breaking).toBe(false)
      expect(comparison.tools[0]!.schemas.map((s) => [s.schema, s.verdict])).toEqual([['output', 'compatible']])
    }
  })
})

describe('compareSchemas on identical schemas', () => {
  it('calls a schema compared with a copy of itself compatible without a proof, even one the proof cannot read', () => {
    const unreadable = { type: 'object', patternProperties: { '^(a*)*$': { type: 'string' } }, allOf: [{ minProperties: 1 }] }
    for (const role of ['output', 'input'] as const) {
      expect(compareSchemas(unreadable, structuredClone(unreadable), role)).toEqual({ verdict: 'compatible', reasons: [] })
    }
  })
})
