import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { describeTool } from 'result-views'
import { isLoopError, lintLoop, parseLoopYaml, type LoopDefinition, type LoopNode } from 'result-views/loop'
import { extensionTool } from '../support/tools.js'
import { sessionStatusTool, skillViewTool, specLoopYaml, specLoopYamlCompact, specRequiresFullMessage } from './support/session-status.js'

const catalog = [sessionStatusTool(), skillViewTool(), extensionTool()]

type NodeInit = Partial<LoopNode> & Pick<LoopNode, 'id'>
const node = (init: NodeInit): LoopNode => ({ class: 'action', kind: 'run-agent', ...init })
const loop = (nodes: NodeInit[], edges: Array<[string, string]> = []): LoopDefinition => ({
  graph: { nodes: nodes.map(node), edges: edges.map(([from, to]) => ({ from, to })) },
})
const inspect = (params: Record<string, unknown> = {}, extra: Partial<LoopNode> = {}): NodeInit => ({
  id: 'inspect',
  kind: 'compozy__session_status',
  params: { session_id: '{{ .inputs.session_id }}', ...params } as LoopNode['params'],
  ...extra,
})
/** `inspect` (with `params`) → `report`, whose prompt is `prompt`. */
const reads = (prompt: string, params: Record<string, unknown> = {}): LoopDefinition =>
  loop([inspect(params), { id: 'report', params: { agent: 'general', prompt } }], [['inspect', 'report']])

describe('lintLoop: the spec example (spec 000 "Loops")', () => {
  it('stops the Loop without result_view: full, with exactly the spec error', () => {
    expect(lintLoop(parseLoopYaml(specLoopYamlCompact), catalog)).toEqual([
      { node_id: 'report', code: 'result_view_field_requires_full', severity: 'error', message: specRequiresFullMessage, path: '/graph/nodes/1/params/prompt', line: 13, column: 33 },
    ])
  })

  it('passes with result_view: full', () => {
    expect(lintLoop(parseLoopYaml(specLoopYaml), catalog)).toEqual([])
  })

  it('gives the same answer for a catalog of descriptors (dispatcher.list())', () => {
    const descriptors = catalog.map(describeTool)
    expect(lintLoop(parseLoopYaml(specLoopYamlCompact), descriptors)).toEqual(lintLoop(parseLoopYaml(specLoopYamlCompact), catalog))
    expect(lintLoop(parseLoopYaml(specLoopYaml), descriptors)).toEqual([])
  })
})

describe('lintLoop: result_view in params', () => {
  it.each([['{{ .inputs.view }}'], ['Full'], ['full '], [42], [null], [['full']]])('reports result_view %j as not a literal, with the spec message', (value) => {
    const definition = reads('{{ .nodes.inspect.output.session.lineage.permission_policy.tools }}', { result_view: value })
    expect(lintLoop(definition, catalog)).toEqual([
      {
        node_id: 'inspect',
        code: 'result_view_not_literal',
        severity: 'error',
        message: 'node "inspect" params.result_view must be a literal "compact" or "full"',
        path: '/graph/nodes/0/params/result_view',
      },
    ])
  })

  it('accepts the literals compact and full', () => {
    expect(lintLoop(reads('{{ .nodes.inspect.output.session.id }}', { result_view: 'compact' }), catalog)).toEqual([])
    expect(lintLoop(reads('{{ .nodes.inspect.output.session.id }}', { result_view: 'full' }), catalog)).toEqual([])
  })

  it('refuses result_view on a single-result tool node (spec 000 "Errors", row 3)', () => {
    const definition = loop([{ id: 'skill', kind: 'compozy__skill_view', params: { skill_id: 'testing', result_view: 'full' } }])
    expect(lintLoop(definition, catalog)).toEqual([
      {
        node_id: 'skill',
        code: 'result_view_not_accepted',
        severity: 'error',
        message: 'node "skill" params.result_view is not accepted: tool "compozy__skill_view" returns a single result and does not accept "result_view"',
        path: '/graph/nodes/0/params/result_view',
      },
    ])
  })

  it('leaves an extension tool\'s own result_view input alone (tool or descriptor), and host actions too', () => {
    const definition = loop([
      { id: 'ext', kind: 'ext__render', params: { result_view: 3 } },
      { id: 'agent', kind: 'run-agent', params: { result_view: '{{ .inputs.x }}' } },
    ])
    expect(lintLoop(definition, catalog)).toEqual([])
    expect(lintLoop(definition, catalog.map(describeTool))).toEqual([])
  })
})

describe('lintLoop: references resolved against the selected view', () => {
  it('accepts a field of the compact view when the node selects none', () => {
    expect(lintLoop(reads('{{ .nodes.inspect.output.session.lineage.root_session_id }}'), catalog)).toEqual([])
    expect(lintLoop(reads('{{ .nodes.inspect.output }}'), catalog)).toEqual([])
  })

  it('reports a full-only field behind an open full part as result_view_field_requires_full too', () => {
    // compact has no "supervision"; full has it, open ({ type: 'object' }).
    expect(lintLoop(reads('{{ .nodes.inspect.output.session.supervision.owner }}'), catalog)).toEqual([
      {
        node_id: 'report',
        code: 'result_view_field_requires_full',
        severity: 'error',
        message:
          'node "report" reads nodes.inspect.output.session.supervision.owner, which the compact result of compozy__session_status does not include; fix: add `result_view: full` to the params of node "inspect"',
        path: '/graph/nodes/1/params/prompt',
      },
    ])
  })

  it('reports a path neither view has as unresolvable_path, naming the deepest valid segment and the fields there', () => {
    expect(lintLoop(reads('{{ .nodes.inspect.output.session.lineage.permision_policy }}'), catalog)).toEqual([
      {
        node_id: 'report',
        code: 'unresolvable_path',
        severity: 'error',
        message:
          'node "report" reads nodes.inspect.output.session.lineage.permision_policy, which neither view of compozy__session_status includes; deepest valid segment: output.session.lineage, where the compact result has fields root_session_id; did you mean output.session.lineage.permission_policy (only the full result has it: add `result_view: full` to the params of node "inspect")?',
        path: '/graph/nodes/1/params/prompt',
      },
    ])
    expect(lintLoop(reads('{{ .nodes.inspect.output.sessions }}'), catalog)[0]!.message).toBe(
      'node "report" reads nodes.inspect.output.sessions, which neither view of compozy__session_status includes; deepest valid segment: output, where the compact result has fields session; did you mean output.session?',
    )
  })

  it('uses the full view when the node selects it', () => {
    expect(lintLoop(reads('{{ .nodes.inspect.output.session.lineage.nope }}', { result_view: 'full' }), catalog)[0]!.message).toBe(
      'node "report" reads nodes.inspect.output.session.lineage.nope, which neither view of compozy__session_status includes; deepest valid segment: output.session.lineage, where the full result has fields permission_policy, root_session_id',
    )
    expect(lintLoop(reads('{{ .nodes.inspect.output.session.lineage.permission_policy.tools.first }}', { result_view: 'full' }), catalog)[0]!.message).toBe(
      'node "report" reads nodes.inspect.output.session.lineage.permission_policy.tools.first, which neither view of compozy__session_status includes; deepest valid segment: output.session.lineage.permission_policy.tools, where the full result has an array (read it with a numeric index)',
    )
    expect(lintLoop(reads('{{ .nodes.inspect.output.session.lineage.permission_policy.tools.0 }}', { result_view: 'full' }), catalog)).toEqual([])
    expect(lintLoop(reads('{{ .nodes.inspect.output.session.id.length }}'), catalog)[0]!.message).toBe(
      'node "report" reads nodes.inspect.output.session.id.length, which neither view of compozy__session_status includes; deepest valid segment: output.session.id, where the compact result has no fields',
    )
  })

  it('warns that a path through an open part of the selected view cannot be proven', () => {
    expect(lintLoop(reads('{{ .nodes.inspect.output.session.supervision.owner }}', { result_view: 'full' }), catalog)).toEqual([
      {
        node_id: 'report',
        code: 'path_unproven',
        severity: 'warning',
        message:
          'node "report" reads nodes.inspect.output.session.supervision.owner, which goes through an open part of the full result of compozy__session_status at output.session.supervision (an object with no listed fields); the path cannot be proven, and a missing field resolves to an empty value at run time',
        path: '/graph/nodes/1/params/prompt',
      },
    ])
    expect(lintLoop(reads('{{ .nodes.inspect.output.session.extra_field }}', { result_view: 'full' }), catalog)[0]!.message).toBe(
      'node "report" reads nodes.inspect.output.session.extra_field, which goes through an open part of the full result of compozy__session_status at output.session (an object that allows fields it does not list); the path cannot be proven, and a missing field resolves to an empty value at run time',
    )
  })

  it('resolves references to a single-result tool against its one schema', () => {
    const definition = (path: string) =>
      loop([{ id: 'skill', kind: 'compozy__skill_view', params: { skill_id: 'testing' } }, { id: 'use', params: { text: `{{ .nodes.skill.output.${path} }}` } }], [['skill', 'use']])
    expect(lintLoop(definition('skill.tags.0'), catalog)).toEqual([])
    expect(lintLoop(definition('skill.title'), catalog)).toEqual([
      {
        node_id: 'use',
        code: 'unresolvable_path',
        severity: 'error',
        message: 'node "use" reads nodes.skill.output.skill.title, which the result of compozy__skill_view does not include; deepest valid segment: output.skill, where the result has fields body, id, tags',
        path: '/graph/nodes/1/params/text',
      },
    ])
  })

  it('checks every reference in a string and in nested params, each at its own path', () => {
    const definition = loop(
      [
        inspect(),
        {
          id: 'report',
          params: {
            prompt: '{{ .nodes.inspect.output.session.id }} / {{ .nodes.inspect.output.session.lineage.permission_policy.tools }} / {{ .nodes.inspect.output.nope }}',
            messages: [{ text: 'x' }, { text: 'tools: {{.nodes.inspect.output.session.lineage.permission_policy}}' }],
            meta: { deep: { list: ['{{ .nodes.inspect.output.session.state }}', '{{ .nodes.inspect.output.session.state.x }}'] } },
          },
        },
      ],
      [['inspect', 'report']],
    )
    expect(lintLoop(definition, catalog).map((d) => [d.code, d.path])).toEqual([
      ['result_view_field_requires_full', '/graph/nodes/1/params/prompt'],
      ['unresolvable_path', '/graph/nodes/1/params/prompt'],
      ['result_view_field_requires_full', '/graph/nodes/1/params/messages/1/text'],
      ['unresolvable_path', '/graph/nodes/1/params/meta/deep/list/1'],
    ])
  })

  it('uses views pinned by a run snapshot instead of the params (a pre-view run pinned full)', () => {
    expect(lintLoop(parseLoopYaml(specLoopYamlCompact), catalog, { pinnedViews: { inspect: 'full' } })).toEqual([])
    expect(lintLoop(parseLoopYaml(specLoopYaml), catalog, { pinnedViews: { inspect: 'compact' } })[0]!.code).toBe('result_view_field_requires_full')
  })
})

describe('lintLoop: produces', () => {
  const produces = (entries: string[], params: Record<string, unknown> = {}) => loop([inspect(params, { produces: entries })])

  it('accepts a declared field of the selected view', () => {
    expect(lintLoop(produces(['session.id', 'session.lineage.root_session_id']), catalog)).toEqual([])
    expect(lintLoop(produces(['session.lineage.permission_policy.tools'], { result_view: 'full' }), catalog)).toEqual([])
  })

  it('reports a field only the full view has as result_view_field_requires_full', () => {
    expect(lintLoop(produces(['session.id', 'session.lineage.permission_policy.tools']), catalog)).toEqual([
      {
        node_id: 'inspect',
        code: 'result_view_field_requires_full',
        severity: 'error',
        message:
          'node "inspect" produces session.lineage.permission_policy.tools, which the compact result of compozy__session_status does not include; fix: add `result_view: full` to the params of node "inspect"',
        path: '/graph/nodes/0/produces/1',
      },
    ])
  })

  it('reports a field that only the open part of the full view could hold as result_view_field_requires_full', () => {
    expect(lintLoop(produces(['session.owner']), catalog).map((d) => d.code)).toEqual(['result_view_field_requires_full'])
    expect(lintLoop(produces(['session.owner'], { result_view: 'full' }), catalog).map((d) => d.code)).toEqual(['path_unproven'])
  })

  it('reports a field neither view has as unresolvable_path', () => {
    expect(lintLoop(produces(['session.lineage.owner']), catalog)).toEqual([
      {
        node_id: 'inspect',
        code: 'unresolvable_path',
        severity: 'error',
        message:
          'node "inspect" produces session.lineage.owner, which neither view of compozy__session_status includes; deepest valid segment: output.session.lineage, where the compact result has fields root_session_id',
        path: '/graph/nodes/0/produces/0',
      },
    ])
  })

  it('checks references to a host-action node against its produces', () => {
    const definition = (path: string, declared?: string[]) =>
      loop([{ id: 'agent', ...(declared === undefined ? {} : { produces: declared }) }, { id: 'next', params: { text: `{{ .nodes.agent.output.${path} }}` } }], [['agent', 'next']])
    expect(lintLoop(definition('summary.text', ['summary']), catalog)).toEqual([])
    expect(lintLoop(definition('summary', ['summary.text', 'files']), catalog)).toEqual([])
    expect(lintLoop(definition('verdict', ['summary', 'files']), catalog)).toEqual([
      {
        node_id: 'next',
        code: 'unresolvable_path',
        severity: 'error',
        message: 'node "next" reads nodes.agent.output.verdict, which node "agent" does not declare in produces (declared: summary, files)',
        path: '/graph/nodes/1/params/text',
      },
    ])
    expect(lintLoop(definition('verdict'), catalog)).toEqual([
      {
        node_id: 'next',
        code: 'output_unchecked',
        severity: 'warning',
        message: 'node "next" reads nodes.agent.output.verdict, but node "agent" (kind "run-agent") is not a catalog tool and declares no produces; the path cannot be checked',
        path: '/graph/nodes/1/params/text',
      },
    ])
  })
})

describe('lintLoop: graph rules', () => {
  it('reports a reference to a node the graph does not have', () => {
    expect(lintLoop(loop([{ id: 'a', params: { x: '{{ .nodes.ghost.output.id }}' } }]), catalog)).toEqual([
      { node_id: 'a', code: 'unknown_node', severity: 'error', message: 'node "a" reads nodes.ghost.output.id, but the graph has no node "ghost"', path: '/graph/nodes/0/params/x' },
    ])
  })

  it('reports an edge to a node the graph does not have', () => {
    expect(lintLoop(loop([{ id: 'a' }], [['a', 'ghost'], ['phantom', 'a']]), catalog)).toEqual([
      { node_id: null, code: 'unknown_node', severity: 'error', message: 'edge from "a" to "ghost" names node "ghost", which the graph does not have', path: '/graph/edges/0/to' },
      { node_id: null, code: 'unknown_node', severity: 'error', message: 'edge from "phantom" to "a" names node "phantom", which the graph does not have', path: '/graph/edges/1/from' },
    ])
  })

  it('reports references to nodes that are not upstream: later, unconnected, downstream, itself', () => {
    const message = (reader: string, source: string) =>
      `node "${reader}" reads nodes.${source}.output.session.id, but node "${source}" is not upstream of node "${reader}" (no path of edges from "${source}" to "${reader}")`
    const read = (source: string) => ({ x: `{{ .nodes.${source}.output.session.id }}` })
    const definition = loop(
      [
        { id: 'early', params: read('late') },
        { id: 'loner', params: read('early') },
        { id: 'self', params: read('self') },
        { id: 'late', kind: 'compozy__session_status', params: { session_id: 's' } },
      ],
      [['early', 'late']],
    )
    expect(lintLoop(definition, catalog)).toEqual([
      { node_id: 'early', code: 'reference_not_upstream', severity: 'error', message: message('early', 'late'), path: '/graph/nodes/0/params/x' },
      { node_id: 'loner', code: 'reference_not_upstream', severity: 'error', message: message('loner', 'early'), path: '/graph/nodes/1/params/x' },
      { node_id: 'self', code: 'reference_not_upstream', severity: 'error', message: message('self', 'self'), path: '/graph/nodes/2/params/x' },
    ])
  })

  it('accepts references to any ancestor through edges, not just parents', () => {
    const definition = loop([inspect(), { id: 'mid' }, { id: 'end', params: { x: '{{ .nodes.inspect.output.session.id }}' } }], [['inspect', 'mid'], ['mid', 'end']])
    expect(lintLoop(definition, catalog)).toEqual([])
  })

  it('reports cycles, once per cycle, naming its nodes', () => {
    const definition = loop([{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }], [['a', 'b'], ['b', 'c'], ['c', 'a'], ['d', 'd']])
    expect(lintLoop(definition, catalog)).toEqual([
      { node_id: null, code: 'graph_cycle', severity: 'error', message: 'nodes "a" -> "b" -> "c" -> "a" form a cycle', path: '/graph/edges/2' },
      { node_id: null, code: 'graph_cycle', severity: 'error', message: 'nodes "d" -> "d" form a cycle', path: '/graph/edges/3' },
    ])
  })

  it('reports duplicate node ids', () => {
    expect(lintLoop(loop([{ id: 'a' }, { id: 'b' }, { id: 'a' }]), catalog)).toEqual([
      { node_id: 'a', code: 'duplicate_node_id', severity: 'error', message: 'node id "a" is used by more than one node (first at /graph/nodes/0)', path: '/graph/nodes/2/id' },
    ])
  })

  it('reports malformed templates with where they are', () => {
    const definition = loop([{ id: 'a', params: { list: ['ok', 'see {{ .nodes.b.output.x'] } }])
    expect(lintLoop(definition, catalog)).toEqual([
      {
        node_id: 'a',
        code: 'template_malformed',
        severity: 'error',
        message: 'node "a" params.list.1 has a malformed template at character 5: unclosed "{{" (no matching "}}")',
        path: '/graph/nodes/0/params/list/1',
      },
    ])
  })

  it('reports kinds that are neither tools nor host actions when the actions are given', () => {
    const definition = loop([{ id: 'a', kind: 'compozy__sesion_status' }, { id: 'b', kind: 'run-agent' }, inspect()])
    expect(lintLoop(definition, catalog)).toEqual([])
    expect(lintLoop(definition, catalog, { actions: ['run-agent'] })).toEqual([
      { node_id: 'a', code: 'unknown_kind', severity: 'error', message: 'node "a" kind "compozy__sesion_status" is neither a tool in the catalog nor a host action', path: '/graph/nodes/0/kind' },
    ])
    expect(lintLoop(definition, catalog, { actions: ['run-agent'], pinnedViews: { a: 'full' } })).toEqual([])
  })
})

describe('lintLoop: misuse', () => {
  it('throws loop_definition_invalid for a definition without the Loop shape', () => {
    expect(() => lintLoop({ graph: {} } as unknown as LoopDefinition, catalog)).toThrowError(expect.objectContaining({ code: 'loop_definition_invalid' }))
  })

  it('throws loop_options_invalid for a malformed catalog', () => {
    const run = (value: unknown) => {
      try {
        lintLoop(loop([{ id: 'a' }]), value as never)
      } catch (error) {
        return isLoopError(error) ? { code: error.code, problems: error.problems } : error
      }
      return undefined
    }
    expect(run('tools')).toEqual({ code: 'loop_options_invalid', problems: [{ path: '', code: 'invalid_catalog', message: 'catalog must be an array of tools or tool descriptors' }] })
    expect(run([{}, sessionStatusTool(), sessionStatusTool()])).toEqual({
      code: 'loop_options_invalid',
      problems: [
        { path: '/0', code: 'not_a_tool', message: 'not a tool returned by defineTool nor a tool descriptor' },
        { path: '/2', code: 'duplicate_tool_id', message: 'tool ID "compozy__session_status" is already in the catalog' },
      ],
    })
  })
})

describe('lintLoop: hand-written descriptors', () => {
  it('reports what the full view rules out as unresolvable even where the compact schema is open', async () => {
    const { schemaDigest } = await import('result-views')
    const compact = { type: 'object', properties: { a: { type: 'object' } }, additionalProperties: false }
    const full = { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: false } }, additionalProperties: false }
    const descriptor = {
      tool_id: 'odd__tool',
      description: 'A descriptor whose compact view is open where the full view is closed.',
      input_schema: { type: 'object' },
      output_schema: compact,
      output_schema_digest: schemaDigest(compact),
      output_views: { compact: { schema: compact, digest: schemaDigest(compact) }, full: { schema: full, digest: schemaDigest(full) } },
    }
    const definition = loop([{ id: 'odd', kind: 'odd__tool' }, { id: 'use', params: { x: '{{ .nodes.odd.output.a.c }}' } }], [['odd', 'use']])
    expect(lintLoop(definition, [descriptor])[0]!.message).toBe(
      'node "use" reads nodes.odd.output.a.c, which neither view of odd__tool includes; deepest valid segment: output.a, where the full result has fields b',
    )
  })
})

describe('lintLoop: totality (property)', () => {
  it('answers diagnostics, never throws, for any params strings (templates well-formed or not)', () => {
    const piece = fc.oneof(
      fc.constantFrom('{{', '}}', ' ', '.nodes.', '.inputs.', 'inspect', '.output', '.session', '.lineage', '.permission_policy', '.tools', '.0', '.x', 'report', '|'),
      fc.string({ maxLength: 3 }),
    )
    const text = fc.array(piece, { maxLength: 10 }).map((parts) => parts.join(''))
    const params = fc.dictionary(fc.stringMatching(/^[a-z_]{1,6}$/), fc.oneof(text, fc.array(text, { maxLength: 3 }), fc.record({ deep: text })), { maxKeys: 4 })
    fc.assert(
      fc.property(params, params, (first, second) => {
        const definition = loop([inspect(first as Record<string, unknown>), { id: 'report', params: second as LoopNode['params'] }], [['inspect', 'report']])
        const diagnostics = lintLoop(definition, catalog)
        for (const d of diagnostics) {
          expect(['error', 'warning']).toContain(d.severity)
          expect(d.path.startsWith('/graph/')).toBe(true)
        }
      }),
      { numRuns: 300 },
    )
  })
})
