import { afterEach, describe, expect, it, vi } from 'vitest'
import { createDispatcher } from 'result-views'
import { lintLoop, parseLoopYaml, runLoop } from 'result-views/loop'
import { loopExample, specLoop, threeNodeLoop } from '../../examples/loop.js'
import { exampleTools } from '../../examples/tools/catalog.js'
import { specRequiresFullMessage } from './support/session-status.js'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the spec Loop over the example tools (examples/tools)', () => {
  const catalog = exampleTools()

  it('produces exactly the spec error without result_view: full and passes with it', () => {
    expect(lintLoop(parseLoopYaml(specLoop.replace('        result_view: full\n', '')), catalog)).toEqual([
      { node_id: 'report', code: 'result_view_field_requires_full', severity: 'error', message: specRequiresFullMessage, path: '/graph/nodes/1/params/prompt', line: 13, column: 33 },
    ])
    expect(lintLoop(parseLoopYaml(specLoop), catalog)).toEqual([])
  })

  it('names the deepest valid segment, its compact fields and the nearest one for a misspelt path (the docs/loops.md example)', () => {
    const misspelt = specLoop.replace('        result_view: full\n', '').replace('lineage.permission_policy.tools', 'runtime.effective.modle')
    expect(lintLoop(parseLoopYaml(misspelt), catalog)[0]!.message).toBe(
      'node "report" reads nodes.inspect.output.session.runtime.effective.modle, which neither view of compozy__session_status includes; deepest valid segment: output.session.runtime.effective, where the compact result has fields model, provider, reasoning_effort; did you mean output.session.runtime.effective.model?',
    )
  })

  it('asks for the full view for a field the open full lineage may hold, and names the listed field it is near', () => {
    const misspelt = specLoop.replace('        result_view: full\n', '').replace('permission_policy.tools', 'permision_policy')
    expect(lintLoop(parseLoopYaml(misspelt), catalog).map((d) => [d.code, d.message])).toEqual([
      [
        'result_view_field_requires_full',
        'node "report" reads nodes.inspect.output.session.lineage.permision_policy, which the compact result of compozy__session_status does not include; fix: add `result_view: full` to the params of node "inspect"; did you mean output.session.lineage.permission_policy?',
      ],
    ])
    expect(lintLoop(parseLoopYaml(specLoop.replace('permission_policy.tools', 'permision_policy')), catalog).map((d) => [d.code, d.message])).toEqual([
      [
        'path_unproven',
        'node "report" reads nodes.inspect.output.session.lineage.permision_policy, which goes through an open part of the full result of compozy__session_status at output.session.lineage (an object that allows fields it does not list); the path cannot be proven, and a missing field resolves to an empty value at run time; did you mean output.session.lineage.permission_policy?',
      ],
    ])
  })
})

describe('examples/loop.ts', () => {
  it('lints and runs the three-node Loop', async () => {
    const dispatcher = createDispatcher({ tools: exampleTools() })
    const run = await runLoop(parseLoopYaml(threeNodeLoop), {
      dispatcher,
      inputs: { session_id: 'sess-example' },
      actions: { 'run-agent': (params) => ({ summary: String(params.prompt) }) },
      scope: { session_id: 'sess-example' },
    })
    expect(run.status).toBe('ok')
    expect(run.order).toEqual(['inspect', 'spawn', 'report'])
    expect(run.diagnostics).toEqual([])
    expect(run.nodes.spawn).toEqual({ status: 'ok', output: { session_id: 'sess-child', spawn_role: 'worker', spawn_depth: 1, ttl_expires_at: '2026-11-10T15:20:02Z' }, result_view: 'compact' })
    expect(run.nodes.report).toEqual({
      status: 'ok',
      output: { summary: 'Child sess-child runs until 2026-11-10T15:20:02Z; the parent may use ["read_file","edit_file","bash","compozy__session_status"].' },
    })
  })

  it('runs to the end, printing the spec error, a stale contract and a migrated run', async () => {
    const printed: string[] = []
    vi.spyOn(console, 'log').mockImplementation((text: unknown) => void printed.push(String(text)))
    await loopExample()
    const out = printed.join('\n')
    expect(out).toContain(`error: result_view_field_requires_full\n${specRequiresFullMessage}`)
    expect(out).toContain('inspect: error loop_contract_stale/schema_digest_changed')
    expect(out).toContain('migrated pin: {"tool_id":"compozy__session_status","result_view":"full"')
    expect(out.match(/run status: ok/g)).toHaveLength(2)
  })
})
