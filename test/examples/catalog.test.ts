/**
 * The example catalog through the library: `defineTool` accepts every definition (the compact
 * views are provably subsets of the full ones), the library's projector gives the expected compact
 * fixtures, and the dispatcher serves the spec's calls.
 */
import { createDispatcher, describeTool } from 'result-views'
import { describe, expect, it } from 'vitest'
import {
  activeSessionCompact,
  activeSessionFull,
  sessionFixtures,
  spawnedCompact,
  spawnedFull,
  spawnedWithPromptAndWorktreeFull,
  waitingOnPermissionCompact,
  waitingOnPermissionFull,
} from '../../examples/fixtures/sessions.js'
import { exampleTools } from '../../examples/tools/catalog.js'
import type { FullSessionResult } from '../../examples/tools/session-record.js'

/** The hand projection of the fixtures test, repeated here to compare with the library's. */
function sessionCompactByHand(result: FullSessionResult): unknown {
  const { session } = structuredClone(result)
  delete session.supervision
  delete session.available_commands
  delete session.diagnostics
  delete session.profile
  delete session.runtime.acp_caps
  if (session.lineage !== undefined) delete session.lineage.permission_policy
  for (const interaction of session.pending_interactions) delete interaction.options
  return { session }
}

describe('exampleTools', () => {
  it('defines the seven tools with their kinds and risk classes', () => {
    const tools = exampleTools()
    expect(tools.map((t) => [t.id, t.kind, t.risk, t.readOnly])).toEqual([
      ['compozy__session_status', 'viewed', 'read', true],
      ['compozy__session_create', 'viewed', 'write', false],
      ['compozy__session_archive', 'viewed', 'write', false],
      ['compozy__session_spawn', 'viewed', 'write', false],
      ['compozy__skill_view', 'single', 'read', true],
      ['compozy__skill_list', 'viewed', 'read', true],
      ['compozy__skill_search', 'viewed', 'read', true],
    ])
  })

  it("projects the fixtures to the spec's compact excerpts", () => {
    const [status, , , spawn] = exampleTools()
    expect(status.project(activeSessionFull, 'compact')).toStrictEqual(activeSessionCompact)
    expect(status.project(waitingOnPermissionFull, 'compact')).toStrictEqual(waitingOnPermissionCompact)
    expect(status.project(activeSessionFull, 'full')).toStrictEqual(activeSessionFull)
    expect(spawn.project(spawnedFull, 'compact')).toStrictEqual(spawnedCompact)
    const { permissions: _permissions, ...withPrompt } = spawnedWithPromptAndWorktreeFull
    expect(spawn.project(spawnedWithPromptAndWorktreeFull, 'compact')).toStrictEqual(withPrompt)
  })

  it('the library projection equals the hand projection for every session fixture', () => {
    const [status] = exampleTools()
    for (const result of Object.values(sessionFixtures)) {
      expect(status.project(result, 'compact')).toStrictEqual(sessionCompactByHand(result))
    }
  })

  it('describes viewed tools with both views and a result_view input; skill_view with one output schema', () => {
    const [status, , , , skill] = exampleTools()
    const viewed = describeTool(status)
    expect(viewed.description).toBe('Read one session. Returns the compact result; pass result_view "full" for the complete record.')
    expect(viewed.input_schema).toMatchObject({
      type: 'object',
      properties: { session_id: { type: 'string' }, result_view: { type: 'string', enum: ['compact', 'full'] } },
      additionalProperties: false,
    })
    expect(Object.keys(viewed.output_views ?? {})).toEqual(['compact', 'full'])
    expect(viewed.output_schema).toMatchObject({ type: 'object', required: ['session'], additionalProperties: false })
    const single = describeTool(skill)
    expect(single).not.toHaveProperty('output_views')
    expect(single.input_schema).not.toHaveProperty('properties.result_view')
  })
})

describe('the spec calls through the dispatcher', () => {
  it('compozy__session_status: compact by default, full on request, an error for an unknown session', async () => {
    const dispatcher = createDispatcher({ tools: exampleTools() })
    const compact = await dispatcher.invoke({ tool_id: 'compozy__session_status', input: { session_id: 'sess-example' } })
    expect(compact).toMatchObject({ status: 'ok', result_view: 'compact', result: { structured: activeSessionCompact, preview: 'sess-example' } })
    const full = await dispatcher.invoke({ tool_id: 'compozy__session_status', input: { session_id: 'sess-example', result_view: 'full' } })
    expect(full).toMatchObject({ status: 'ok', result_view: 'full', result: { structured: activeSessionFull } })
    const missing = await dispatcher.invoke({ tool_id: 'compozy__session_status', input: { session_id: 'sess-missing' } })
    expect(missing).toMatchObject({ status: 'error', error: { code: 'tool_execution_failed' } })
  })

  it('compozy__session_spawn with ttl_seconds 3600 returns the spec excerpt', async () => {
    const dispatcher = createDispatcher({ tools: exampleTools() })
    const outcome = await dispatcher.invoke({
      tool_id: 'compozy__session_spawn',
      input: { agent_name: 'general', ttl_seconds: 3600 },
      scope: { session_id: 'sess-example' },
    })
    expect(outcome).toMatchObject({ status: 'ok', result: { structured: spawnedCompact } })
    const status = await dispatcher.invoke({ tool_id: 'compozy__session_status', input: { session_id: 'sess-child' } })
    expect(status).toMatchObject({ status: 'ok', result: { structured: { session: { id: 'sess-child', lineage: { parent_session_id: 'sess-example' } } } } })
  })

  it('compozy__session_create then compozy__session_archive', async () => {
    const dispatcher = createDispatcher({ tools: exampleTools() })
    const created = await dispatcher.invoke({ tool_id: 'compozy__session_create', input: { agent_name: 'general' } })
    expect(created).toMatchObject({ status: 'ok', result: { structured: { session: { id: 'sess-created', archived_at: null } } } })
    const archived = await dispatcher.invoke({ tool_id: 'compozy__session_archive', input: { session_id: 'sess-created' } })
    expect(archived).toMatchObject({ status: 'ok', result: { structured: { session: { archived_at: '2026-11-10T14:20:02Z' } } } })
  })

  it('compozy__skill_view is a single-result tool: result_view is refused', async () => {
    const dispatcher = createDispatcher({ tools: exampleTools() })
    const ok = await dispatcher.invoke({ tool_id: 'compozy__skill_view', input: { skill_id: 'testing' } })
    expect(ok).toMatchObject({ status: 'ok', result: { structured: { skill: { id: 'testing' } } } })
    expect(ok).not.toHaveProperty('result_view')
    const refused = await dispatcher.invoke({ tool_id: 'compozy__skill_view', input: { skill_id: 'testing', result_view: 'full' } })
    expect(refused).toMatchObject({
      status: 'error',
      error: { code: 'tool_invalid_input', message: 'tool "compozy__skill_view" returns a single result and does not accept "result_view"' },
    })
  })
})

describe('compozy__skill_list and compozy__skill_search (the spec diagnostics rule)', () => {
  it('omits diagnostics only for skills whose every diagnostic is clean, and keeps the entire list otherwise', async () => {
    const { skillListAllCleanCompact, skillListAllCleanFull, skillListMixedCompact, skillListMixedFull } = await import('../../examples/fixtures/skills.js')
    const list = exampleTools()[5]
    expect(list.id).toBe('compozy__skill_list')
    expect(list.project(skillListAllCleanFull, 'compact')).toStrictEqual(skillListAllCleanCompact)
    expect(list.project(skillListMixedFull, 'compact')).toStrictEqual(skillListMixedCompact)
    expect(list.project(skillListMixedFull, 'full')).toBe(skillListMixedFull)
  })

  it('applies the rule through the dispatcher for both tools, and says so in their descriptors (digests unchanged)', async () => {
    const dispatcher = createDispatcher({ tools: exampleTools() })
    const listed = await dispatcher.invoke({ tool_id: 'compozy__skill_list', input: {} })
    expect(listed.status).toBe('ok')
    const skills = (listed as { result: { structured: { skills: Array<{ id: string; diagnostics?: unknown[] }> } } }).result.structured.skills
    expect(skills.map((s) => [s.id, s.diagnostics?.length])).toEqual([['testing', undefined], ['deploy', 2], ['release-notes', 1]])
    const searched = await dispatcher.invoke({ tool_id: 'compozy__skill_search', input: { query: 'deploy' } })
    expect((searched as { result: { structured: unknown } }).result.structured).toMatchObject({ skills: [{ id: 'deploy', diagnostics: [{}, { warning: expect.any(String) }] }] })
    for (const id of ['compozy__skill_list', 'compozy__skill_search']) {
      expect(dispatcher.describe(id)?.output_views?.compact.omit_when).toEqual(['/skills/*/diagnostics'])
    }
    expect(describeTool(exampleTools()[0]).output_views?.compact).not.toHaveProperty('omit_when')
  })
})
