// The expression tree of a recursive union referenced through a property of its own branch (an
// AST, a nested filter, a threaded comment): `arg` is `Expr | null` inside a branch of `Expr`.
import type { JsonSchema } from 'result-views'

/** The schema, exactly as reported: `{ expr: Expr }` with `Expr = neg(arg: Expr | null) | lit(value: number)`, every object closed. */
export const expressionTree = (): JsonSchema => ({
  $defs: {
    Expr: {
      anyOf: [
        {
          type: 'object',
          properties: { op: { const: 'neg' }, arg: { anyOf: [{ $ref: '#/$defs/Expr' }, { type: 'null' }] } },
          required: ['op', 'arg'],
          additionalProperties: false,
        },
        { type: 'object', properties: { op: { const: 'lit' }, value: { type: 'number' } }, required: ['op', 'value'], additionalProperties: false },
      ],
    },
  },
  type: 'object',
  properties: { expr: { $ref: '#/$defs/Expr' } },
  required: ['expr'],
  additionalProperties: false,
})

/** The same tree with its recursion through items instead: `sum(args: (Expr | null)[])`. */
export const expressionListTree = (): JsonSchema => ({
  $defs: {
    Expr: {
      anyOf: [
        {
          type: 'object',
          properties: { op: { const: 'sum' }, args: { type: 'array', items: { anyOf: [{ $ref: '#/$defs/Expr' }, { type: 'null' }] } } },
          required: ['op', 'args'],
        },
        { type: 'object', properties: { op: { const: 'lit' }, value: { type: 'number' }, note: { type: 'string' } }, required: ['op', 'value'] },
      ],
    },
  },
  type: 'object',
  properties: { expr: { $ref: '#/$defs/Expr' } },
  required: ['expr'],
})

/** A deep copy with `edit` applied to the `lit` branch of `Expr` (the second one). */
export function withLiteral(schema: JsonSchema, edit: (lit: Record<string, any>) => void): JsonSchema {
  const copy = structuredClone(schema) as any
  edit(copy.$defs.Expr.anyOf[1])
  return copy
}
