import { describe, expect, it, vi } from 'vitest'
import { isLoopError, parseLoopDefinition, parseLoopYaml, type LoopError } from 'result-views/loop'
import { specLoopYaml } from './support/session-status.js'

function thrown(run: () => unknown): LoopError {
  try {
    run()
  } catch (error) {
    if (isLoopError(error)) return error
    throw error
  }
  throw new TypeError('expected a LoopError')
}

const specLoopObject = {
  graph: {
    nodes: [
      { id: 'inspect', class: 'action', kind: 'compozy__session_status', params: { session_id: '{{ .inputs.session_id }}', result_view: 'full' } },
      { id: 'report', class: 'action', kind: 'run-agent', params: { agent: 'general', prompt: 'Tools allowed: {{ .nodes.inspect.output.session.lineage.permission_policy.tools }}' } },
    ],
    edges: [{ from: 'inspect', to: 'report' }],
  },
}

describe('parseLoopYaml', () => {
  it('loads the spec example Loop', () => {
    expect(parseLoopYaml(specLoopYaml)).toEqual(specLoopObject)
  })

  it('returns a frozen copy that keeps key order and keys it does not read', () => {
    const loop = parseLoopYaml('name: nightly\ngraph:\n  nodes:\n    - id: a\n      class: action\n      kind: k\n      timeout: 30\n      params: { z: 1, a: 2 }\n')
    expect(loop).toEqual({ name: 'nightly', graph: { nodes: [{ id: 'a', class: 'action', kind: 'k', timeout: 30, params: { z: 1, a: 2 } }] } })
    expect(Object.keys(loop.graph.nodes[0]!.params!)).toEqual(['z', 'a'])
    expect(Object.isFrozen(loop.graph.nodes[0]!.params)).toBe(true)
  })

  it('reports YAML syntax errors with line and column', () => {
    const error = thrown(() => parseLoopYaml('graph:\n  nodes:\n    - id: a\n     kind: b\n'))
    expect(error.code).toBe('loop_definition_invalid')
    expect(error.problems).toEqual([{ path: '', code: 'yaml_syntax', message: 'Sequence item without - indicator', line: 4, column: 1 }])
    expect(error.message).toBe('loop definition is invalid (1 problem):\n  - line 4, column 1 (/): Sequence item without - indicator')
    const unclosed = thrown(() => parseLoopYaml('graph:\n  nodes: [a, b\n  edges: []\n'))
    expect(unclosed.problems[0]).toMatchObject({ line: 3, column: 3 })
  })

  it('reports an unquoted template as such, at its "{{", and prints nothing to stderr', async () => {
    const stderr = vi.spyOn(process.stderr, 'write')
    const warned = vi.fn()
    process.on('warning', warned)
    const yaml = 'graph:\n  nodes:\n    - id: a\n      class: action\n      kind: k\n      params:\n        p: {{ .inputs.x }}\n'
    const error = thrown(() => parseLoopYaml(yaml))
    expect(error.code).toBe('loop_definition_invalid')
    expect(error.problems).toEqual([
      { path: '', code: 'yaml_unquoted_template', message: 'unquoted template: YAML reads "{{ .inputs.x }}" as a mapping, not a string; quote it, e.g. "{{ .inputs.x }}"', line: 7, column: 12 },
    ])
    const inFlow = thrown(() => parseLoopYaml('graph:\n  nodes: [{id: a, class: action, kind: k, params: {p: x}}]\n  x: {{a}}\n'))
    expect(inFlow.problems).toEqual([expect.objectContaining({ code: 'yaml_unquoted_template', message: expect.stringContaining('unquoted template: YAML reads "{{a}}"'), line: 3, column: 6 })])
    await new Promise<void>((done) => setImmediate(done))
    process.off('warning', warned)
    const writes = stderr.mock.calls.length
    stderr.mockRestore()
    expect(warned).not.toHaveBeenCalled()
    expect(writes).toBe(0)
  })

  it('refuses any other mapping key that is a collection', () => {
    const error = thrown(() => parseLoopYaml('graph:\n  nodes: []\n  ? [a, b]\n  : 1\n'))
    expect(error.problems).toEqual([{ path: '', code: 'yaml_collection_key', message: 'a mapping key must be a string, not a mapping or a list', line: 3, column: 5 }])
  })

  it('reports an unclosed quote where the quote opens, not at the end of the text', () => {
    const error = thrown(() => parseLoopYaml('graph:\n  nodes:\n    - id: "a\n      class: action\n      kind: k\n'))
    expect(error.problems).toEqual([{ path: '', code: 'yaml_syntax', message: 'Missing closing "quote: the quoted string that starts here is never closed', line: 3, column: 11 }])
    const single = thrown(() => parseLoopYaml("graph:\n  nodes: []\n  note: 'abc\n  edges: []\n"))
    expect(single.problems).toEqual([expect.objectContaining({ line: 3, column: 9 })])
  })

  it('reports duplicate keys with line and column', () => {
    const error = thrown(() => parseLoopYaml('graph:\n  nodes: []\n  nodes: []\n'))
    expect(error.problems).toEqual([{ path: '', code: 'yaml_syntax', message: 'Map keys must be unique', line: 3, column: 3 }])
  })

  it('refuses several documents', () => {
    const error = thrown(() => parseLoopYaml('graph: { nodes: [] }\n---\ngraph: { nodes: [] }\n'))
    expect(error.code).toBe('loop_definition_invalid')
    expect(error.problems[0]).toMatchObject({ code: 'yaml_syntax', line: 2, column: 1 })
  })

  it('refuses alias bombs', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefgh'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill('*' + 'abcdefgh'[i]).join(', ')}]`), 'graph: { nodes: [] }'].join('\n')
    const error = thrown(() => parseLoopYaml(bomb))
    expect(error.code).toBe('loop_definition_invalid')
    expect(error.problems[0]!.message).toMatch(/alias/i)
    expect(error.problems[0]!.code).toBe('yaml_not_json')
  })

  it('locates shape problems in the YAML text', () => {
    const text = 'graph:\n  nodes:\n    - id: ok\n      class: action\n      kind: k\n    - id: 9bad\n      class: action\n      produces: [session..id]\n'
    const error = thrown(() => parseLoopYaml(text))
    expect(error.problems).toEqual([
      { path: '/graph/nodes/1/id', code: 'invalid_node', message: 'node id must be a string of letters, digits, "_" and "-", starting with a letter or "_"', line: 6, column: 11 },
      { path: '/graph/nodes/1/kind', code: 'invalid_node', message: 'node kind must be a non-empty string', line: 6, column: 7 },
      { path: '/graph/nodes/1/produces/0', code: 'invalid_node', message: 'a produces entry must be a dotted output path such as "session.id"', line: 8, column: 18 },
    ])
    expect(error.message).toBe(
      'loop definition is invalid (3 problems):\n' +
        '  - line 6, column 11 (/graph/nodes/1/id): node id must be a string of letters, digits, "_" and "-", starting with a letter or "_"\n' +
        '  - line 6, column 7 (/graph/nodes/1/kind): node kind must be a non-empty string\n' +
        '  - line 8, column 18 (/graph/nodes/1/produces/0): a produces entry must be a dotted output path such as "session.id"',
    )
  })

  it('refuses a non-JSON YAML value (.inf) at its path', () => {
    const error = thrown(() => parseLoopYaml('graph:\n  nodes:\n    - id: a\n      class: action\n      kind: k\n      params: { n: .inf }\n'))
    expect(error.problems).toEqual([{ path: '/graph/nodes/0/params/n', code: 'non_json_value', message: 'value at "/graph/nodes/0/params/n" is not plain JSON: Infinity is not a finite number', line: 6, column: 20 }])
  })

  it('locates a shape problem under a numeric key at its value, not at the enclosing mapping', () => {
    const error = thrown(() => parseLoopYaml('graph:\n  nodes:\n    - id: a\n      class: action\n      kind: k\n      params: { 1: ok, 2: .nan }\n'))
    expect(error.problems).toEqual([{ path: '/graph/nodes/0/params/2', code: 'non_json_value', message: expect.stringContaining('is not plain JSON'), line: 6, column: 27 }])
  })

  it('refuses a node class other than "action", at its line and column', () => {
    const error = thrown(() => parseLoopYaml('graph:\n  nodes:\n    - id: a\n      class: gate\n      kind: k\n    - { id: b, class: 3, kind: k }\n'))
    const message = 'node class must be "action" (every node is an action node; its kind names the tool or host action it runs)'
    expect(error.problems).toEqual([
      { path: '/graph/nodes/0/class', code: 'invalid_node', message, line: 4, column: 14 },
      { path: '/graph/nodes/1/class', code: 'invalid_node', message, line: 6, column: 23 },
    ])
  })

  it('refuses a source that is not a string', () => {
    expect(thrown(() => parseLoopYaml(42 as unknown as string)).problems).toEqual([{ path: '', code: 'invalid_source', message: 'YAML source must be a string' }])
  })
})

describe('parseLoopDefinition', () => {
  it('accepts the spec Loop as an object and returns a frozen equal copy', () => {
    const loop = parseLoopDefinition(specLoopObject)
    expect(loop).toEqual(specLoopObject)
    expect(loop).not.toBe(specLoopObject)
    expect(Object.isFrozen(loop.graph.nodes)).toBe(true)
  })

  it('lists every shape problem with its JSON Pointer', () => {
    const error = thrown(() =>
      parseLoopDefinition({
        graph: {
          nodes: [null, { id: 'a', class: '', kind: 'k', params: [], produces: 'x' }, { id: 'b', class: 'action', kind: 'k', produces: [1, 'a.b', 'a b'] }],
          edges: [{ from: 'a' }, 'x'],
        },
      }),
    )
    expect(error.code).toBe('loop_definition_invalid')
    expect(error.problems).toEqual([
      { path: '/graph/nodes/0', code: 'invalid_node', message: 'a node must be an object with id, class and kind' },
      { path: '/graph/nodes/1/class', code: 'invalid_node', message: 'node class must be "action" (every node is an action node; its kind names the tool or host action it runs)' },
      { path: '/graph/nodes/1/params', code: 'invalid_node', message: 'node params must be an object' },
      { path: '/graph/nodes/1/produces', code: 'invalid_node', message: 'node produces must be a list of output paths' },
      { path: '/graph/nodes/2/produces/0', code: 'invalid_node', message: 'a produces entry must be a dotted output path such as "session.id"' },
      { path: '/graph/nodes/2/produces/2', code: 'invalid_node', message: 'a produces entry must be a dotted output path such as "session.id"' },
      { path: '/graph/edges/0/to', code: 'invalid_edge', message: 'edge to must be a node id' },
      { path: '/graph/edges/1', code: 'invalid_edge', message: 'an edge must be an object with from and to' },
    ])
  })

  it.each([
    [null, '', 'invalid_definition', 'a loop definition must be an object with a "graph"'],
    [[], '', 'invalid_definition', 'a loop definition must be an object with a "graph"'],
    [{}, '/graph', 'invalid_graph', 'graph must be an object with "nodes" (and optionally "edges")'],
    [{ graph: { nodes: {} } }, '/graph/nodes', 'invalid_graph', 'graph.nodes must be a list of nodes'],
    [{ graph: { edges: [] } }, '/graph/nodes', 'invalid_graph', 'graph.nodes must be a list of nodes'],
    [{ graph: { nodes: [], edges: 1 } }, '/graph/edges', 'invalid_graph', 'graph.edges must be a list of edges'],
  ])('refuses %j', (value, path, code, message) => {
    expect(thrown(() => parseLoopDefinition(value)).problems).toEqual([{ path, code, message }])
  })

  it('requires the node class "action" (the spec format has it on every node)', () => {
    const message = 'node class must be "action" (every node is an action node; its kind names the tool or host action it runs)'
    for (const node of [{ id: 'a', kind: 'k' }, { id: 'a', class: 'gate', kind: 'k' }, { id: 'a', class: 'Action', kind: 'k' }, { id: 'a', class: ['action'], kind: 'k' }]) {
      expect(thrown(() => parseLoopDefinition({ graph: { nodes: [node] } })).problems).toEqual([{ path: '/graph/nodes/0/class', code: 'invalid_node', message }])
    }
    expect(parseLoopDefinition({ graph: { nodes: [{ id: 'a', class: 'action', kind: 'k' }] } }).graph.nodes[0]!.class).toBe('action')
  })

  it('accepts a graph without edges (edges are optional)', () => {
    expect(parseLoopDefinition({ graph: { nodes: [{ id: 'a', class: 'action', kind: 'k' }] } }).graph.edges).toBeUndefined()
  })

  it('refuses values that are not plain JSON', () => {
    const error = thrown(() => parseLoopDefinition({ graph: { nodes: [{ id: 'a', class: 'action', kind: 'k', params: { when: new Date(0) } }] } }))
    expect(error.problems).toEqual([{ path: '/graph/nodes/0/params/when', code: 'non_json_value', message: expect.stringContaining('is not plain JSON') }])
  })

  it('keeps a __proto__ key as data', () => {
    const value = JSON.parse('{"graph":{"nodes":[{"id":"a","class":"action","kind":"k","params":{"__proto__":{"x":1}}}]}}')
    const loop = parseLoopDefinition(value)
    const params = loop.graph.nodes[0]!.params!
    expect(Object.keys(params)).toEqual(['__proto__'])
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype)
  })
})
