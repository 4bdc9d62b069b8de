import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, describeTool } from 'result-views'
import { contractLock, isContractsError, supersededDigestTable } from 'result-views/contracts'
import { migrateRunSnapshot, parseLoopYaml, runLoop } from 'result-views/loop'
import { tools as preViewTools } from '../../examples/catalogs/pre-view.js'
import { specLoop } from '../../examples/loop.js'
import { exampleTools } from '../../examples/tools/catalog.js'

describe('supersededDigestTable', () => {
  it('maps each old single-output digest to the full view digest of the tool that gained views', () => {
    const before = contractLock(preViewTools)
    const tools = exampleTools()
    const table = supersededDigestTable(before, tools)
    const expected: Record<string, string> = {}
    for (const id of ['compozy__session_archive', 'compozy__session_create', 'compozy__session_spawn', 'compozy__session_status']) {
      const old = before.tools[id]!
      expected[old.kind === 'single' ? old.views.output.digest : ''] = describeTool(tools.find((t) => t.id === id)!).output_views!.full.digest
    }
    expect(table).toEqual(expected)
    // The three session record tools shared one output schema and share one full view: one entry.
    expect(Object.keys(table)).toHaveLength(2)
    expect(supersededDigestTable(exampleTools(), exampleTools())).toEqual({})
  })

  it('feeds migrateRunSnapshot and runLoop: a run pinned before the tools had views runs on the full record', async () => {
    const before = contractLock(preViewTools)
    const tools = exampleTools()
    const table = supersededDigestTable(before, tools)
    const old = before.tools.compozy__session_status!
    const snapshot = { pins: { inspect: { tool_id: 'compozy__session_status', schema_digest: old.kind === 'single' ? old.views.output.digest : '' } } }
    const migrated = migrateRunSnapshot(snapshot, { supersededDigests: table })
    expect(migrated.pins.inspect).toEqual({ tool_id: 'compozy__session_status', result_view: 'full', schema_digest: describeTool(tools[0]).output_views!.full.digest })
    const loop = parseLoopYaml(specLoop.replace('        result_view: full\n', ''))
    const dispatcher = createDispatcher({ tools })
    const actions = { 'run-agent': (params: { readonly [key: string]: unknown }) => ({ prompt: params.prompt }) }
    const stale = await runLoop(loop, { dispatcher, inputs: { session_id: 'sess-example' }, actions, snapshot })
    expect(stale.nodes.inspect).toMatchObject({ status: 'error', error: { code: 'loop_contract_stale' } })
    const run = await runLoop(loop, { dispatcher, inputs: { session_id: 'sess-example' }, actions, snapshot, supersededDigests: table })
    expect(run.status).toBe('ok')
    expect(run.nodes.report).toMatchObject({ status: 'ok', output: { prompt: expect.stringContaining('read_file') } })
  })

  it('refuses two tools whose one old digest now maps to two full digests (a digest table cannot say which)', () => {
    const output = Type.Object({ id: Type.String() })
    const single = (id: string) => defineTool({ id, description: 'd', input: Type.Object({}), output, handler: () => ({ id: '' }) })
    const viewed = (id: string, extra: string) => defineTool({
      id, description: 'd', input: Type.Object({}),
      output: { compact: Type.Object({ id: Type.String() }), full: Type.Object({ id: Type.String(), [extra]: Type.Optional(Type.String()) }) },
      handler: () => ({ id: '' }),
    })
    let thrown: unknown
    try {
      supersededDigestTable([single('a__x'), single('b__x')], [viewed('a__x', 'one'), viewed('b__x', 'two')])
    } catch (error) {
      thrown = error
    }
    expect(isContractsError(thrown)).toBe(true)
    expect((thrown as { problems: unknown[] }).problems).toEqual([expect.objectContaining({ path: '/tools/b__x', code: 'superseded_digest_conflict' })])
  })
})
