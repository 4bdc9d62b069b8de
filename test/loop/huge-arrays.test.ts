// Huge sparse arrays in every array position of a Loop: the definition (nodes, edges, params,
// produces), the run's inputs and scope, a host action's output, a snapshot and a dispatcher's
// catalog. Each is refused at once with the typed error of its position, never walked index by
// index.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { lintLoop, migrateRunSnapshot, parseLoopDefinition, runLoop, type LoopDefinition } from 'result-views/loop'
import { HUGE_ARRAYS, HUGE_ARRAY_TIMEOUT_MS } from '../support/huge-arrays.js'
import { rejection, thrown } from '../support/outcomes.js'

const tool = defineTool({
  id: 'notes__read',
  description: 'Reads notes.',
  input: Type.Object({ x: Type.Optional(Type.Unknown()) }),
  output: Type.Object({ list: Type.Array(Type.String()) }),
  handler: () => ({ list: ['a'] }),
})
const dispatcher = createDispatcher({ tools: [tool] })
const one = (node: Record<string, unknown>): LoopDefinition => ({ graph: { nodes: [{ id: 'n', class: 'action', ...node }] } }) as unknown as LoopDefinition

describe.each(HUGE_ARRAYS)('$name', ({ make }) => {
  it('in a definition: loop_definition_invalid / non_json_value at its first hole', { timeout: HUGE_ARRAY_TIMEOUT_MS }, () => {
    const cases: Array<[unknown, string]> = [
      [{ graph: { nodes: make() } }, '/graph/nodes/0'],
      [{ graph: { nodes: [], edges: make() } }, '/graph/edges/0'],
      [one({ kind: 'notes__read', params: { x: make() } }), '/graph/nodes/0/params/x/0'],
      [one({ kind: 'notes__read', produces: make() }), '/graph/nodes/0/produces/0'],
    ]
    for (const [definition, path] of cases) {
      for (const run of [() => parseLoopDefinition(definition), () => lintLoop(definition as LoopDefinition, [tool])]) {
        expect(thrown(run)).toMatchObject({
          code: 'loop_definition_invalid',
          problems: [{ path, code: 'non_json_value', message: `value at "${path}" is not plain JSON: a hole in an array` }],
        })
      }
    }
  })

  it('in the run\'s inputs, scope, snapshot or catalog: a typed misuse error', { timeout: HUGE_ARRAY_TIMEOUT_MS }, async () => {
    expect(await rejection(runLoop(one({ kind: 'notes__read' }), { dispatcher, inputs: { x: make() } }))).toMatchObject({
      code: 'loop_options_invalid',
      problems: [{ path: '/inputs/x/0', code: 'non_json_value' }],
    })
    expect(await rejection(runLoop(one({ kind: 'notes__read' }), { dispatcher, snapshot: { version: 2, pins: make() } }))).toMatchObject({
      code: 'loop_snapshot_invalid',
      problems: [{ path: '/pins', code: 'invalid_pins' }],
    })
    expect(thrown(() => migrateRunSnapshot(make()))).toMatchObject({ code: 'loop_snapshot_invalid' })
    expect(thrown(() => lintLoop(one({ kind: 'notes__read' }), make() as never))).toMatchObject({ code: 'loop_options_invalid', problems: [{ path: '/0', code: 'not_a_tool' }] })
    const scoped = await runLoop(one({ kind: 'notes__read' }), { dispatcher, scope: { workspace_id: make() } as never })
    expect(scoped.nodes.n).toMatchObject({ status: 'error', error: { code: 'tool_invalid_input', reason: 'request_invalid', message: 'invalid invoke request: scope field workspace_id must be a string' } })
  })

  it('in a host action\'s output: the node fails with action_output_invalid at its first hole', { timeout: HUGE_ARRAY_TIMEOUT_MS }, async () => {
    for (const [output, pointer] of [[{ x: make() }, '/x/0'], [make(), '/0']] as const) {
      const run = await runLoop(one({ kind: 'act' }), { dispatcher, actions: { act: () => output } })
      expect(run.nodes.n).toMatchObject({
        status: 'error',
        error: {
          code: 'loop_node_failed',
          reason: 'action_output_invalid',
          message: `node "n" action "act" returned a value that is not plain JSON at "${pointer}"`,
          details: { node_id: 'n', kind: 'act', pointer, problem: 'sparse_array' },
        },
      })
    }
  })
})
