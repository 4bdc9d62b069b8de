// A viewed tool whose views are the expression tree (a recursive union referenced through a
// property of its own branch): defineTool accepts it, the dispatcher projects it for either view,
// and the consistency check of result-views/testing holds on generated records.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, type JsonSchema } from 'result-views'
import { assertViewsConsistent } from 'result-views/testing'
import { expressionListTree, expressionTree, withLiteral } from '../support/expression-tree.js'

const record = { expr: { op: 'neg', arg: { op: 'neg', arg: { op: 'lit', value: 2.5 } } } }

const treeTool = (compact: JsonSchema, full: JsonSchema, result: unknown) =>
  defineTool({ id: 'calc__parse', description: 'Parses an expression.', input: Type.Object({}), output: { compact: compact as never, full: full as never }, handler: () => result as never })

describe('the expression tree in both views', () => {
  it('is a valid viewed tool, invoked for compact and full through the dispatcher', async () => {
    const tool = treeTool(expressionTree(), expressionTree(), record)
    const dispatcher = createDispatcher({ tools: [tool] })
    for (const view of ['compact', 'full'] as const) {
      const outcome = await dispatcher.invoke({ tool_id: 'calc__parse', input: { result_view: view } })
      expect(outcome).toMatchObject({ status: 'ok', result_view: view, result: { structured: record } })
    }
  })

  it('projects each level by its tag when the compact tree declares less (recursion through items)', async () => {
    const compact = withLiteral(expressionListTree(), (lit) => delete lit.properties.note)
    const full = { expr: { op: 'sum', args: [null, { op: 'lit', value: 1, note: 'one' }, { op: 'sum', args: [{ op: 'lit', value: 2, note: 'two' }] }] } }
    const dispatcher = createDispatcher({ tools: [treeTool(compact, expressionListTree(), full)] })
    const compactOutcome = await dispatcher.invoke({ tool_id: 'calc__parse', input: {} })
    expect(compactOutcome).toMatchObject({ status: 'ok', result_view: 'compact', result: { structured: { expr: { op: 'sum', args: [null, { op: 'lit', value: 1 }, { op: 'sum', args: [{ op: 'lit', value: 2 }] }] } } } })
    const fullOutcome = await dispatcher.invoke({ tool_id: 'calc__parse', input: { result_view: 'full' } })
    expect(fullOutcome).toMatchObject({ status: 'ok', result: { structured: full } })
  })

  it('refuses a record the full tree does not allow (the record is still validated)', async () => {
    const dispatcher = createDispatcher({ tools: [treeTool(expressionTree(), expressionTree(), { expr: { op: 'neg', arg: { op: 'lit', value: 'x' } } })] })
    const outcome = await dispatcher.invoke({ tool_id: 'calc__parse', input: {} })
    expect(outcome).toMatchObject({ status: 'error', error: { code: 'tool_output_invalid' } })
  })

  it('passes assertViewsConsistent, with the same tree in both views and with a compact tree that declares less', () => {
    expect(() => assertViewsConsistent(treeTool(expressionTree(), expressionTree(), record), { runs: 200 })).not.toThrow()
    const compact = withLiteral(expressionListTree(), (lit) => delete lit.properties.note)
    expect(() => assertViewsConsistent(treeTool(compact, expressionListTree(), {}), { runs: 200 })).not.toThrow()
  })
})
