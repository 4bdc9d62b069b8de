import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import Type from 'typebox'
import { createDispatcher, defineTool, describeTool, type InvokeRequest, type Tool } from 'result-views'
import { formatReference, isLoopError, parseLoopYaml, runLoop, startRun, type LoopAction, type LoopDefinition, type LoopDispatcher, type LoopNode, type TemplateReference } from 'result-views/loop'
import { CompactSession, FullSession, fullSessionRecord, sessionStatusTool, skillViewTool, specLoopYaml, specLoopYamlCompact } from './support/session-status.js'

type NodeInit = Partial<LoopNode> & Pick<LoopNode, 'id'>
const loop = (nodes: NodeInit[], edges: Array<[string, string]> = []): LoopDefinition => ({
  graph: { nodes: nodes.map((n) => ({ class: 'action', kind: 'run-agent', ...n })), edges: edges.map(([from, to]) => ({ from, to })) },
})

/** A dispatcher over the fixture tools that records every request. */
function setup(tools: readonly Tool[] = [sessionStatusTool(), skillViewTool()]) {
  const dispatcher = createDispatcher({ tools })
  const requests: InvokeRequest[] = []
  const recording: LoopDispatcher = {
    invoke: (request) => {
      requests.push(request)
      return dispatcher.invoke(request)
    },
    describe: (id) => dispatcher.describe(id),
    list: () => dispatcher.list(),
  }
  const prompts: unknown[] = []
  const actions: Record<string, LoopAction> = {
    'run-agent': (params) => {
      prompts.push(params)
      return { reply: `ran ${String(params.agent)}` }
    },
  }
  return { dispatcher, recording, requests, prompts, actions }
}

async function rejection(promise: Promise<unknown>): Promise<{ code: string; problems: unknown; diagnostics: unknown }> {
  try {
    await promise
  } catch (error) {
    if (isLoopError(error)) return { code: error.code, problems: error.problems, diagnostics: error.diagnostics }
    throw error
  }
  throw new TypeError('expected a LoopError')
}

describe('runLoop: the spec example', () => {
  it('runs inspect with the full view pinned, then report with the rendered prompt', async () => {
    const { recording, requests, prompts, actions } = setup()
    const run = await runLoop(parseLoopYaml(specLoopYaml), { dispatcher: recording, inputs: { session_id: 'sess-example' }, actions, scope: { session_id: 'sess-parent' } })
    expect(requests).toEqual([
      { tool_id: 'compozy__session_status', input: { session_id: 'sess-example', result_view: 'full' }, scope: { session_id: 'sess-parent' }, pinned_result_view: 'full' },
    ])
    expect(prompts).toEqual([{ agent: 'general', prompt: 'Tools allowed: ["Read","Bash"]' }])
    expect(run.status).toBe('ok')
    expect(run.order).toEqual(['inspect', 'report'])
    expect(run.nodes).toEqual({
      inspect: { status: 'ok', output: fullSessionRecord('sess-example'), result_view: 'full' },
      report: { status: 'ok', output: { reply: 'ran general' } },
    })
    expect(run.snapshot).toEqual(startRun(parseLoopYaml(specLoopYaml), [sessionStatusTool(), skillViewTool()]))
    expect(run.diagnostics).toEqual([])
  })

  it('refuses to start without result_view: full, listing the diagnostics, and calls nothing', async () => {
    const { recording, requests, prompts, actions } = setup()
    const error = await rejection(runLoop(parseLoopYaml(specLoopYamlCompact), { dispatcher: recording, inputs: { session_id: 'sess-example' }, actions }))
    expect(error.code).toBe('loop_lint_failed')
    expect((error.diagnostics as Array<{ code: string }>).map((d) => d.code)).toEqual(['result_view_field_requires_full'])
    expect(requests).toEqual([])
    expect(prompts).toEqual([])
  })

  it('refuses to start when a kind is neither a tool nor an action', async () => {
    const { recording } = setup()
    const error = await rejection(runLoop(parseLoopYaml(specLoopYaml), { dispatcher: recording, inputs: { session_id: 's' } }))
    expect(error.code).toBe('loop_lint_failed')
    expect(error.diagnostics).toEqual([
      { node_id: 'report', code: 'unknown_kind', severity: 'error', message: 'node "report" kind "run-agent" is neither a tool in the catalog nor a host action', path: '/graph/nodes/1/kind', line: 11, column: 13 },
    ])
  })
})

describe('runLoop: pinned views', () => {
  it('passes the compact view as pinned_result_view without adding result_view to the input', async () => {
    const { recording, requests, actions } = setup()
    const definition = loop([{ id: 'peek', kind: 'compozy__session_status', params: { session_id: '{{ .inputs.id }}' } }])
    const run = await runLoop(definition, { dispatcher: recording, inputs: { id: 's1' }, actions })
    expect(requests).toEqual([{ tool_id: 'compozy__session_status', input: { session_id: 's1' }, pinned_result_view: 'compact' }])
    expect(run.nodes.peek).toEqual({ status: 'ok', output: { session: { id: 's1', agent_name: 'general', state: 'active', lineage: { root_session_id: 's1' } } }, result_view: 'compact' })
  })

  it('passes no pinned view to a single-result tool', async () => {
    const { recording, requests } = setup()
    const run = await runLoop(loop([{ id: 'skill', kind: 'compozy__skill_view', params: { skill_id: 'testing' } }]), { dispatcher: recording })
    expect(requests).toEqual([{ tool_id: 'compozy__skill_view', input: { skill_id: 'testing' } }])
    expect(run.nodes.skill).toEqual({ status: 'ok', output: { skill: { id: 'testing', body: 'Run the tests.', tags: ['testing'] } } })
  })

  it('fails the node with tool_denied / result_view_pinned when a pre-call hook changes the view', async () => {
    const { dispatcher, actions } = setup()
    dispatcher.hook('tool.pre_call', (payload) => (payload.pinned_result_view === undefined ? undefined : { tool_input: { ...(payload.tool_input as object), result_view: 'compact' } }))
    const run = await runLoop(parseLoopYaml(specLoopYaml), { dispatcher, inputs: { session_id: 's' }, actions })
    expect(run.status).toBe('error')
    const inspect = run.nodes.inspect!
    expect(inspect.status === 'error' && inspect.error.forSurface('dispatch')).toEqual({
      code: 'tool_denied',
      reason: 'result_view_pinned',
      message: 'tool "compozy__session_status" result view is pinned to "full" by the caller',
    })
    expect(run.nodes.report).toEqual({ status: 'skipped', blocked_by: 'inspect' })
  })
})

describe('runLoop: stale contracts', () => {
  /** The same tool ID with a changed full schema (a field added). */
  const changedStatusTool = () =>
    defineTool({
      id: 'compozy__session_status',
      description: 'Read one session (newer contract).',
      input: Type.Object({ session_id: Type.String() }, { additionalProperties: false }),
      output: { compact: CompactSession, full: Type.Object({ session: FullSession.properties.session, etag: Type.Optional(Type.String()) }, { additionalProperties: false }) },
      handler: (input) => fullSessionRecord(input.session_id),
    })

  it('fails a node whose pinned digest no longer matches, naming both digests, and skips what follows', async () => {
    const old = describeTool(sessionStatusTool()).output_views!.full.digest
    const snapshot = startRun(parseLoopYaml(specLoopYaml), [sessionStatusTool()])
    const { recording, requests, prompts, actions } = setup([changedStatusTool()])
    const current = recording.describe('compozy__session_status')!.output_views!.full.digest
    expect(current).not.toBe(old)
    const run = await runLoop(parseLoopYaml(specLoopYaml), { dispatcher: recording, inputs: { session_id: 's' }, actions, snapshot })
    expect(requests).toEqual([])
    expect(prompts).toEqual([])
    expect(run.status).toBe('error')
    const inspect = run.nodes.inspect!
    expect(inspect.status).toBe('error')
    expect(inspect.status === 'error' && inspect.error.forSurface('dispatch')).toEqual({
      code: 'loop_contract_stale',
      reason: 'schema_digest_changed',
      message: `node "inspect" pinned the full contract of tool "compozy__session_status" at schema digest ${old}, but the tool now has ${current}`,
      details: { node_id: 'inspect', tool_id: 'compozy__session_status', result_view: 'full', expected_digest: old, current_digest: current },
    })
    expect(run.nodes.report).toEqual({ status: 'skipped', blocked_by: 'inspect' })
  })

  it('runs a node whose view is unchanged even when the other view changed', async () => {
    const definition = loop([{ id: 'peek', kind: 'compozy__session_status', params: { session_id: 's' } }])
    const snapshot = startRun(definition, [sessionStatusTool()])
    const { recording } = setup([changedStatusTool()])
    expect((await runLoop(definition, { dispatcher: recording, snapshot })).nodes.peek!.status).toBe('ok')
  })

  it('fails a node whose pinned tool the dispatcher no longer has', async () => {
    const snapshot = startRun(parseLoopYaml(specLoopYaml), [sessionStatusTool()])
    const { recording, actions } = setup([skillViewTool()])
    const run = await runLoop(parseLoopYaml(specLoopYaml), { dispatcher: recording, inputs: { session_id: 's' }, actions, snapshot })
    const inspect = run.nodes.inspect!
    expect(inspect.status === 'error' && inspect.error.forSurface('dispatch')).toEqual({
      code: 'loop_contract_stale',
      reason: 'tool_removed',
      message: `node "inspect" pinned tool "compozy__session_status" at schema digest ${snapshot.pins.inspect!.schema_digest}, but the dispatcher no longer has that tool`,
      details: { node_id: 'inspect', tool_id: 'compozy__session_status', result_view: 'full', expected_digest: snapshot.pins.inspect!.schema_digest, current_digest: null },
    })
    expect(run.diagnostics.map((d) => d.code)).toEqual(['output_unchecked'])
  })
})

describe('runLoop: pre-view snapshots (spec 000 "Migration")', () => {
  it('runs a pre-view snapshot as full: the nodes keep their contract and return the full record', async () => {
    const { recording, requests, prompts, actions } = setup()
    const fullDigest = recording.describe('compozy__session_status')!.output_views!.full.digest
    const preView = { pins: { inspect: { tool_id: 'compozy__session_status', schema_digest: fullDigest } } }
    // The definition selects no view (it predates views): the snapshot's pin decides.
    const run = await runLoop(parseLoopYaml(specLoopYamlCompact), { dispatcher: recording, inputs: { session_id: 'sess-old' }, actions, snapshot: preView })
    expect(requests).toEqual([{ tool_id: 'compozy__session_status', input: { session_id: 'sess-old' }, pinned_result_view: 'full' }])
    expect(run.nodes.inspect).toEqual({ status: 'ok', output: fullSessionRecord('sess-old'), result_view: 'full' })
    expect(prompts).toEqual([{ agent: 'general', prompt: 'Tools allowed: ["Read","Bash"]' }])
    expect(run.snapshot.pins).toEqual({ inspect: { tool_id: 'compozy__session_status', result_view: 'full', schema_digest: fullDigest } })
  })

  it('refuses at start a pre-view snapshot when the definition now selects another view literally', async () => {
    const { recording, actions } = setup()
    const fullDigest = recording.describe('compozy__session_status')!.output_views!.full.digest
    const preView = { pins: { inspect: { tool_id: 'compozy__session_status', schema_digest: fullDigest } } }
    const edited = parseLoopYaml(specLoopYaml.replace('result_view: full', 'result_view: compact'))
    const error = await rejection(runLoop(edited, { dispatcher: recording, inputs: { session_id: 's' }, actions, snapshot: preView }))
    expect(error).toMatchObject({
      code: 'loop_snapshot_invalid',
      problems: [{ path: '/pins/inspect/result_view', code: 'view_mismatch', message: 'the snapshot pins view "full" for node "inspect", whose params select result_view "compact"' }],
    })
  })

  it('maps a superseded digest before comparing', async () => {
    const { recording, actions } = setup()
    const fullDigest = recording.describe('compozy__session_status')!.output_views!.full.digest
    const preView = { pins: { inspect: { tool_id: 'compozy__session_status', schema_digest: '0'.repeat(64) } } }
    const options = { dispatcher: recording, inputs: { session_id: 's' }, actions, snapshot: preView }
    expect((await runLoop(parseLoopYaml(specLoopYamlCompact), options)).nodes.inspect!.status).toBe('error')
    const run = await runLoop(parseLoopYaml(specLoopYamlCompact), { ...options, supersededDigests: { ['0'.repeat(64)]: fullDigest } })
    expect(run.status).toBe('ok')
  })

  it('refuses a snapshot that does not match the definition', async () => {
    const { recording, actions } = setup()
    const digest = 'a'.repeat(64)
    const snapshot = { pins: { inspect: { tool_id: 'compozy__skill_view', schema_digest: digest }, ghost: { tool_id: 't', schema_digest: digest } } }
    const error = await rejection(runLoop(parseLoopYaml(specLoopYaml), { dispatcher: recording, actions, snapshot }))
    expect(error).toMatchObject({
      code: 'loop_snapshot_invalid',
      problems: [
        { path: '/pins/inspect/tool_id', code: 'tool_mismatch', message: 'the snapshot pins tool "compozy__skill_view" for node "inspect", whose kind is "compozy__session_status"' },
        { path: '/pins/ghost', code: 'unknown_node', message: 'the snapshot pins node "ghost", which the definition does not have' },
      ],
    })
    const missing = await rejection(runLoop(parseLoopYaml(specLoopYaml), { dispatcher: recording, actions, snapshot: { pins: {} } }))
    expect(missing.problems).toEqual([{ path: '/pins', code: 'missing_pin', message: 'node "inspect" calls tool "compozy__session_status", but the snapshot has no pin for it' }])
  })

  it('refuses at start a snapshot whose pinned view contradicts the literal result_view of the node', async () => {
    const { recording, actions } = setup()
    const full = startRun(parseLoopYaml(specLoopYaml), recording.list(), { actions: Object.keys(actions) })
    const compactPin = { version: 2, pins: { inspect: { ...full.pins.inspect!, result_view: 'compact', schema_digest: recording.describe('compozy__session_status')!.output_views!.compact.digest } } }
    let invoked = 0
    const counting: LoopDispatcher = { ...recording, invoke: async (request) => (invoked++, recording.invoke(request)) }
    const edited = parseLoopYaml(specLoopYamlCompact.replace('session_id: "{{ .inputs.session_id }}"', 'session_id: "{{ .inputs.session_id }}"\n        result_view: full'))
    const error = await rejection(runLoop(edited, { dispatcher: counting, actions, inputs: { session_id: 's' }, snapshot: compactPin }))
    expect(error).toMatchObject({
      code: 'loop_snapshot_invalid',
      problems: [{ path: '/pins/inspect/result_view', code: 'view_mismatch', message: 'the snapshot pins view "compact" for node "inspect", whose params select result_view "full"' }],
    })
    expect(invoked).toBe(0)
    // A node that selects no view runs under the view it pinned (a translated pre-view pin is full).
    const run = await runLoop(parseLoopYaml(specLoopYamlCompact), { dispatcher: recording, actions, inputs: { session_id: 's' }, snapshot: full })
    expect(run.nodes.inspect!.status).toBe('ok')
  })

})

describe('runLoop: order, templates, actions', () => {
  it('runs nodes in dependency order (ties in definition order) whatever order they are written in', async () => {
    const seen: string[] = []
    const record: LoopAction = (_params, context) => {
      seen.push(context.node_id)
      return context.node_id
    }
    const { recording } = setup()
    const definition = loop([{ id: 'd' }, { id: 'c' }, { id: 'b' }, { id: 'a' }], [['a', 'b'], ['b', 'd'], ['a', 'c']])
    const run = await runLoop(definition, { dispatcher: recording, actions: { 'run-agent': record } })
    expect(seen).toEqual(['a', 'c', 'b', 'd'])
    expect(run.order).toEqual(['a', 'c', 'b', 'd'])
    expect(Object.keys(run.nodes)).toEqual(['a', 'c', 'b', 'd'])
  })

  it('keeps the JSON type of a whole-string template and stringifies embedded ones; missing values are empty', async () => {
    let received: unknown
    const { recording } = setup()
    const definition = loop(
      [
        { id: 'src', kind: 'emit' },
        {
          id: 'use',
          kind: 'capture',
          params: {
            count: '{{ .nodes.src.output.count }}',
            flag: '{{.nodes.src.output.flag}}',
            nothing: '{{ .nodes.src.output.none }}',
            list: '{{ .nodes.src.output.list }}',
            first: '{{ .nodes.src.output.list.0.name }}',
            text: 'n={{ .nodes.src.output.count }} list={{ .nodes.src.output.list }} s={{ .inputs.s }} null={{ .nodes.src.output.nil }} missing=[{{ .inputs.nope }}]',
            spaced: ' {{ .nodes.src.output.count }}',
            nested: [{ deep: '{{ .inputs.obj.k }}' }, '{{ .inputs.obj }}'],
            bad_index: '{{ .nodes.src.output.list.9.name }}',
          },
        },
      ],
      [['src', 'use']],
    )
    const actions: Record<string, LoopAction> = {
      emit: () => ({ count: 3, flag: false, nil: null, list: [{ name: 'x', b: 1, a: 2 }] }),
      capture: (params) => {
        received = params
        return null
      },
    }
    const run = await runLoop(definition, { dispatcher: recording, actions, inputs: { s: 'hi', obj: { k: [1, 2] } } })
    expect(received).toEqual({
      count: 3,
      flag: false,
      nothing: '',
      list: [{ name: 'x', b: 1, a: 2 }],
      first: 'x',
      text: 'n=3 list=[{"a":2,"b":1,"name":"x"}] s=hi null=null missing=[]',
      spaced: ' 3',
      nested: [{ deep: [1, 2] }, { k: [1, 2] }],
      bad_index: '',
    })
    expect(run.nodes.use).toEqual({ status: 'ok', output: null })
  })

  it('renders exactly the referenced values for templates built from random references (property)', async () => {
    const { recording } = setup()
    const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,5}$/)
    await fc.assert(
      fc.asyncProperty(fc.dictionary(name, fc.string({ maxLength: 6 }), { minKeys: 1, maxKeys: 5 }), fc.array(fc.tuple(fc.string({ maxLength: 5 }).filter((s) => !s.includes('{')), fc.nat()), { maxLength: 6 }), async (inputs, picks) => {
        const names = Object.keys(inputs)
        let template = ''
        let expected = ''
        for (const [text, pick] of picks) {
          const key = names[pick % names.length]!
          const reference: TemplateReference = { root: 'inputs', name: key, path: [] }
          template += `${text}{{ .${formatReference(reference)} }}`
          expected += text + inputs[key]
        }
        let got: unknown
        const definition = loop([{ id: 'n', kind: 'capture', params: { text: template + '.' } }])
        await runLoop(definition, { dispatcher: recording, inputs, actions: { capture: (params) => void (got = params.text) } })
        expect(got).toBe(expected + '.')
      }),
      { numRuns: 100 },
    )
  })

  it('runs the tool when a kind is both a catalog tool and a host action', async () => {
    const { recording, requests } = setup()
    let called = false
    const run = await runLoop(loop([{ id: 'skill', kind: 'compozy__skill_view', params: { skill_id: 'testing' } }]), {
      dispatcher: recording,
      actions: { compozy__skill_view: () => void (called = true) },
    })
    expect(called).toBe(false)
    expect(requests.map((r) => r.tool_id)).toEqual(['compozy__skill_view'])
    expect(run.status).toBe('ok')
  })

  it('gives actions their node id, kind and the scope', async () => {
    const contexts: unknown[] = []
    const { recording } = setup()
    await runLoop(loop([{ id: 'a', kind: 'k' }]), { dispatcher: recording, scope: { workspace_id: 'ws' }, actions: { k: (_p, context) => void contexts.push(context) } })
    expect(contexts).toEqual([{ node_id: 'a', kind: 'k', scope: { workspace_id: 'ws' } }])
  })

  it('fails a node whose action throws (loop_node_failed / action_failed) and skips everything downstream', async () => {
    const { recording } = setup()
    const cause = new Error('agent crashed')
    const definition = loop([{ id: 'a', kind: 'boom' }, { id: 'b', kind: 'ok' }, { id: 'c', kind: 'ok' }, { id: 'free', kind: 'ok' }], [['a', 'b'], ['b', 'c']])
    const run = await runLoop(definition, {
      dispatcher: recording,
      actions: {
        boom: async () => {
          throw cause
        },
        ok: () => 'fine',
      },
    })
    expect(run.status).toBe('error')
    const a = run.nodes.a!
    expect(a.status === 'error' && a.error.forSurface('dispatch')).toEqual({
      code: 'loop_node_failed',
      reason: 'action_failed',
      message: 'node "a" action "boom" failed: agent crashed',
      details: { node_id: 'a', kind: 'boom' },
    })
    expect(a.status === 'error' && (a.error as Error & { cause?: unknown }).cause).toBe(cause)
    expect(run.nodes.b).toEqual({ status: 'skipped', blocked_by: 'a' })
    expect(run.nodes.c).toEqual({ status: 'skipped', blocked_by: 'a' })
    expect(run.nodes.free).toEqual({ status: 'ok', output: 'fine' })
  })

  it('fails a node whose action returns something that is not plain JSON', async () => {
    const { recording } = setup()
    const run = await runLoop(loop([{ id: 'a', kind: 'k' }]), { dispatcher: recording, actions: { k: () => ({ when: new Date(0) }) } })
    const a = run.nodes.a!
    expect(a.status === 'error' && a.error.forSurface('dispatch')).toEqual({
      code: 'loop_node_failed',
      reason: 'action_output_invalid',
      message: 'node "a" action "k" returned a value that is not plain JSON at "/when"',
      details: { node_id: 'a', kind: 'k', pointer: '/when', problem: 'non_plain_object' },
    })
  })

  it('fails a node whose action returns undefined (null is the way to say "no output")', async () => {
    const { recording } = setup()
    const definition = loop([{ id: 'a', kind: 'k' }, { id: 'b', kind: 'n' }])
    const run = await runLoop(definition, { dispatcher: recording, actions: { k: () => undefined, n: async () => null } })
    const a = run.nodes.a!
    expect(a.status === 'error' && a.error.forSurface('dispatch')).toEqual({
      code: 'loop_node_failed',
      reason: 'action_output_invalid',
      message: 'node "a" action "k" returned undefined, which is not plain JSON; return null when the action has no output',
      details: { node_id: 'a', kind: 'k', pointer: '', problem: 'undefined' },
    })
    expect(run.nodes.b).toEqual({ status: 'ok', output: null })
  })

  it('fails a node whose params reference a tool result string with a lone surrogate (params_not_json), never throwing', async () => {
    // Results take strings as they are; the next input may not hold a lone surrogate.
    const tool = defineTool({
      id: 'compozy__skill_view',
      description: 'Read one skill.',
      input: Type.Object({ skill_id: Type.String() }, { additionalProperties: false }),
      output: Type.Object({ skill: Type.Object({ id: Type.String(), tags: Type.Array(Type.String()) }) }),
      handler: () => ({ skill: { id: 'x', tags: ['ok', 'bad\udc00'] } }),
    })
    const { recording } = setup([tool])
    const definition = loop(
      [
        { id: 'skill', kind: 'compozy__skill_view', params: { skill_id: 'testing' } },
        { id: 'whole', kind: 'ok', params: { tags: '{{ .nodes.skill.output.skill.tags }}' } },
        { id: 'text', kind: 'ok', params: { line: 'tags: {{ .nodes.skill.output.skill }}' } },
        { id: 'after', kind: 'ok' },
      ],
      [['skill', 'whole'], ['skill', 'text'], ['whole', 'after']],
    )
    const run = await runLoop(definition, { dispatcher: recording, actions: { ok: () => 'fine' } })
    expect(run.nodes.skill).toMatchObject({ status: 'ok', output: { skill: { tags: ['ok', 'bad\udc00'] } } })
    for (const [id, pointer] of [['whole', '/1'], ['text', '/tags/1']] as const) {
      const node = run.nodes[id]!
      expect(node.status === 'error' && node.error.forSurface('dispatch')).toEqual({
        code: 'loop_node_failed',
        reason: 'params_not_json',
        message: `node "${id}" params reference a value that is not plain JSON at "${pointer}" (lone_surrogate)`,
        details: { node_id: id, pointer, problem: 'lone_surrogate' },
      })
    }
    expect(run.nodes.after).toEqual({ status: 'skipped', blocked_by: 'whole' })
  })

  it('fails a node whose tool call waits on an approval', async () => {
    const { recording } = setup()
    const pending: LoopDispatcher = { ...recording, invoke: async () => ({ status: 'approval_pending', tool_call_id: 'call-1', approval_id: 'appr-7' }) }
    const run = await runLoop(loop([{ id: 'skill', kind: 'compozy__skill_view', params: { skill_id: 'testing' } }]), { dispatcher: pending })
    const skill = run.nodes.skill!
    expect(skill.status === 'error' && skill.error.forSurface('dispatch')).toEqual({
      code: 'loop_node_failed',
      reason: 'approval_pending',
      message: 'node "skill" call to tool "compozy__skill_view" waits on approval appr-7',
      details: { node_id: 'skill', tool_id: 'compozy__skill_view', approval_id: 'appr-7' },
    })
  })

  it('passes the dispatcher\'s tool errors through as the node error', async () => {
    const { recording } = setup()
    const run = await runLoop(loop([{ id: 'skill', kind: 'compozy__skill_view', params: { skill_id: '{{ .inputs.n }}' } }]), { dispatcher: recording, inputs: { n: 5 } })
    const skill = run.nodes.skill!
    expect(skill.status === 'error' && [skill.error.code, skill.error.reason]).toEqual(['tool_invalid_input', 'schema_invalid'])
  })

  it('reports lint warnings on the run', async () => {
    const { recording } = setup()
    const definition = loop([{ id: 'a', kind: 'k' }, { id: 'b', kind: 'k', params: { x: '{{ .nodes.a.output.y }}' } }], [['a', 'b']])
    const run = await runLoop(definition, { dispatcher: recording, actions: { k: () => ({ y: 1 }) } })
    expect(run.diagnostics.map((d) => [d.code, d.severity])).toEqual([['output_unchecked', 'warning']])
  })
})

describe('runLoop: misuse', () => {
  it('refuses malformed options, listing every problem', async () => {
    const { recording } = setup()
    const definition = loop([{ id: 'a', kind: 'k' }])
    expect(await rejection(runLoop(definition, { dispatcher: {} as LoopDispatcher }))).toMatchObject({
      code: 'loop_options_invalid',
      problems: [{ path: '/dispatcher', code: 'invalid_dispatcher', message: 'dispatcher must have invoke, describe and list (a createDispatcher result)' }],
    })
    const bad = { dispatcher: recording, inputs: { when: new Date(0) }, actions: { k: 'nope' }, scope: 'ws' } as never
    expect((await rejection(runLoop(definition, bad))).problems).toEqual([
      { path: '/inputs/when', code: 'non_json_value', message: 'value at "/when" is not plain JSON: an instance of Date, not a plain object' },
      { path: '/actions/k', code: 'invalid_action', message: 'action "k" must be a function' },
      { path: '/scope', code: 'invalid_scope', message: 'scope must be an object' },
    ])
    expect((await rejection(runLoop(definition, null as never))).code).toBe('loop_options_invalid')
  })

  it('refuses a definition without the Loop shape', async () => {
    const { recording } = setup()
    expect((await rejection(runLoop({} as LoopDefinition, { dispatcher: recording }))).code).toBe('loop_definition_invalid')
  })
})
