// A recursive union referenced through a property (or an item) of its own branch: the proof used
// to read the inner `Expr | null` while `Expr` was still being read, and refused it as a union
// that refers back to itself through no property or item.
import { describe, expect, it } from 'vitest'
import { compileProjector, proveViewSubset, type JsonSchema } from 'result-views'
import { expressionListTree, expressionTree, withLiteral } from '../support/expression-tree.js'

const codes = (compact: JsonSchema, full: JsonSchema): string[] => {
  const proof = proveViewSubset(compact, full)
  return proof.ok ? [] : proof.violations.map((v) => v.code)
}

describe('proveViewSubset on a recursive union referenced through its own branch', () => {
  it('accepts the expression tree against a copy of itself (regression: unresolved_ref and two type_wider)', () => {
    expect(proveViewSubset(expressionTree(), structuredClone(expressionTree()))).toEqual({ ok: true })
  })

  it('accepts the tree whose recursion runs through array items', () => {
    expect(proveViewSubset(expressionListTree(), structuredClone(expressionListTree()))).toEqual({ ok: true })
  })

  it('accepts a compact tree that drops an optional field of a branch and widens a leaf', () => {
    const compact = withLiteral(expressionListTree(), (lit) => {
      delete lit.properties.note
      lit.properties.value = { type: ['number', 'string'] }
    })
    expect(proveViewSubset(compact, expressionListTree())).toEqual({ ok: true })
  })

  it('still refuses what a full record can break: a narrower leaf, a dropped null, a branch the compact union lacks', () => {
    expect(codes(withLiteral(expressionTree(), (lit) => (lit.properties.value = { type: 'integer' })), expressionTree())).toContain('type_wider')
    const noNull = structuredClone(expressionTree()) as any
    noNull.$defs.Expr.anyOf[0].properties.arg = { $ref: '#/$defs/Expr' }
    expect(codes(noNull, expressionTree())).toContain('nullable_wider')
    const oneBranch = structuredClone(expressionTree()) as any
    oneBranch.$defs.Expr.anyOf[0].properties.arg.anyOf[0] = { $ref: '#/$defs/Lit' }
    oneBranch.$defs.Lit = oneBranch.$defs.Expr.anyOf[1]
    expect(proveViewSubset(oneBranch, expressionTree()).ok).toBe(false)
  })

  it('still refuses a union that reaches itself through no property or item', () => {
    const loop: JsonSchema = { $defs: { A: { anyOf: [{ $ref: '#/$defs/B' }, { type: 'null' }] }, B: { anyOf: [{ $ref: '#/$defs/A' }, { type: 'string' }] } }, $ref: '#/$defs/A' }
    expect(codes(loop, { type: 'string' })).toContain('unresolved_ref')
  })

  it('takes the issues of the inner union once its branches are read (a oneOf nested in the anyOf stays refused)', () => {
    const schema = structuredClone(expressionTree()) as any
    schema.$defs.Expr = { oneOf: schema.$defs.Expr.anyOf }
    expect(codes(schema, structuredClone(schema))).toContain('unsupported_keyword')
  })

  it('projects the tree by its tag at every depth, dropping what the compact branch does not declare', () => {
    const compact = withLiteral(expressionListTree(), (lit) => delete lit.properties.note)
    const project = compileProjector(compact)
    const record = { expr: { op: 'sum', args: [{ op: 'lit', value: 1, note: 'x' }, null, { op: 'sum', args: [{ op: 'lit', value: 2, note: 'y' }] }] } }
    expect(project(record)).toEqual({ expr: { op: 'sum', args: [{ op: 'lit', value: 1 }, null, { op: 'sum', args: [{ op: 'lit', value: 2 }] }] } })
  })
})
