/**
 * Loop contracts (spec 000 "Loops", "Migration") over the example tools: lint the spec's Loop with
 * and without `result_view: full`, then lint and run a three-node Loop (inspect → spawn → report),
 * show a stale contract failing its node, and run a pre-view snapshot translated to full.
 *
 * Run alone: `npx tsx examples/loop.ts` (or all examples: `npm run demo`).
 */
import { pathToFileURL } from 'node:url'
import { createDispatcher } from 'result-views'
import { lintLoop, parseLoopYaml, runLoop, type LoopAction, type LoopRun } from 'result-views/loop'
import { exampleTools } from './tools/catalog.js'
import { heading, json, line } from './print.js'

/** The spec's example Loop (spec 000 "Loops"). */
export const specLoop = `graph:
  nodes:
    - id: inspect
      class: action
      kind: compozy__session_status
      params:
        session_id: "{{ .inputs.session_id }}"
        result_view: full
    - id: report
      class: action
      kind: run-agent
      params:
        agent: general
        prompt: "Tools allowed: {{ .nodes.inspect.output.session.lineage.permission_policy.tools }}"
  edges:
    - from: inspect
      to: report
`

/** Three nodes: read the session (full), spawn a child for its agent, report to an agent. */
export const threeNodeLoop = `graph:
  nodes:
    - id: inspect
      class: action
      kind: compozy__session_status
      params:
        session_id: "{{ .inputs.session_id }}"
        result_view: full
    - id: spawn
      class: action
      kind: compozy__session_spawn
      params:
        agent_name: "{{ .nodes.inspect.output.session.agent_name }}"
        ttl_seconds: 3600
      produces: [session_id, ttl_expires_at]
    - id: report
      class: action
      kind: run-agent
      params:
        agent: general
        prompt: >-
          Child {{ .nodes.spawn.output.session_id }} runs until {{ .nodes.spawn.output.ttl_expires_at }};
          the parent may use {{ .nodes.inspect.output.session.lineage.permission_policy.tools }}.
      produces: [summary]
  edges:
    - from: inspect
      to: spawn
    - from: spawn
      to: report
`

/** The host's `run-agent` action: here it only echoes the prompt it would send. */
const runAgent: LoopAction = (params) => ({ summary: `agent ${String(params.agent)} got: ${String(params.prompt)}` })

export async function loopExample(): Promise<void> {
  const dispatcher = createDispatcher({ tools: exampleTools() })
  const catalog = dispatcher.list()

  heading('The spec Loop without result_view: full (spec 000 "Loops")')
  const withoutFull = parseLoopYaml(specLoop.replace('        result_view: full\n', ''))
  for (const d of lintLoop(withoutFull, catalog)) line(`${d.severity}: ${d.code}\n${d.message}\n  at ${d.path} (line ${d.line}, column ${d.column})`)

  heading('The spec Loop with result_view: full')
  line(`diagnostics: ${json(lintLoop(parseLoopYaml(specLoop), catalog))}`)

  heading('A three-node Loop: inspect → spawn → report')
  const three = parseLoopYaml(threeNodeLoop)
  line(`diagnostics: ${json(lintLoop(three, catalog, { actions: ['run-agent'] }))}`)
  const run = await runLoop(three, { dispatcher, inputs: { session_id: 'sess-example' }, actions: { 'run-agent': runAgent }, scope: { session_id: 'sess-example' } })
  line(`snapshot: ${json(run.snapshot, 2)}`)
  show(run)

  heading('A stale contract: the pinned digest no longer matches (loop_contract_stale)')
  const stale = { ...run.snapshot, pins: { ...run.snapshot.pins, inspect: { ...run.snapshot.pins.inspect!, schema_digest: '0'.repeat(64) } } }
  show(await runLoop(three, { dispatcher, inputs: { session_id: 'sess-example' }, actions: { 'run-agent': runAgent }, snapshot: stale, scope: { session_id: 'sess-example' } }))

  heading('A pre-view snapshot (no view recorded) runs as full (spec 000 "Migration")')
  const preView = { pins: { inspect: { tool_id: 'compozy__session_status', schema_digest: dispatcher.describe('compozy__session_status')!.output_views!.full.digest } } }
  line(`stored: ${json(preView)}`)
  const resumed = await runLoop(withoutFull, { dispatcher, inputs: { session_id: 'sess-example' }, actions: { 'run-agent': runAgent }, snapshot: preView })
  line(`migrated pin: ${json(resumed.snapshot.pins.inspect)}`)
  show(resumed)
}

function show(run: LoopRun): void {
  line(`run status: ${run.status}`)
  for (const id of run.order) {
    const node = run.nodes[id]!
    if (node.status === 'ok') {
      const view = node.result_view === undefined ? '' : ` (${node.result_view})`
      const text = json(node.output)
      line(`  ${id}: ok${view} ${text.length > 160 ? text.slice(0, 160) + '…' : text}`)
    } else if (node.status === 'error') {
      line(`  ${id}: error ${node.error.code}/${node.error.reason}: ${node.error.message}`)
    } else {
      line(`  ${id}: skipped (blocked by ${node.blocked_by})`)
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await loopExample()
