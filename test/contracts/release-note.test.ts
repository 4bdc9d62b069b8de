import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { defineTool } from 'result-views'
import { contractLock, viewReleaseNote } from 'result-views/contracts'
import { tools as carelessTools } from '../../examples/catalogs/careless-release.js'
import { tools as preViewTools } from '../../examples/catalogs/pre-view.js'
import { exampleTools } from '../../examples/tools/catalog.js'

describe('viewReleaseNote', () => {
  it('lists a compact view that lost a field the full view keeps, with the field as a path', () => {
    const note = viewReleaseNote(contractLock(exampleTools()), carelessTools)
    expect(note.tools).toEqual([{ tool_id: 'compozy__session_status', change: 'compact_narrowed', moved_to_full: ['session.runtime.generation'], removed: [] }])
    expect(note.markdown).toContain('### `compozy__session_status`')
    expect(note.markdown).toContain('- `session.runtime.generation`')
    expect(note.markdown).toContain('"result_view": "full"')
  })

  it('lists every tool that gained views with the top-most fields that moved to the full view (the spec\'s release note)', () => {
    const note = viewReleaseNote(preViewTools, exampleTools())
    expect(note.tools.map((t) => [t.tool_id, t.change])).toEqual([
      ['compozy__session_archive', 'gained_views'],
      ['compozy__session_create', 'gained_views'],
      ['compozy__session_spawn', 'gained_views'],
      ['compozy__session_status', 'gained_views'],
    ])
    const status = note.tools.find((t) => t.tool_id === 'compozy__session_status')!
    // spec 000: "lineage (with the permission policy), supervision, runtime.acp_caps, available_commands, diagnostics, profile presentation"
    expect(status.moved_to_full).toEqual([
      'session.available_commands', 'session.diagnostics', 'session.lineage.permission_policy', 'session.pending_interactions[].options',
      'session.profile', 'session.runtime.acp_caps', 'session.supervision',
    ])
    expect(status.removed).toEqual([])
    expect(note.tools.find((t) => t.tool_id === 'compozy__session_spawn')!.moved_to_full).toEqual(['permissions'])
    expect(note.markdown).toContain('The default result of 4 tools changed.')
  })

  it('says so when no default changed', () => {
    const note = viewReleaseNote(exampleTools(), exampleTools())
    expect(note).toEqual({ tools: [], markdown: "## Result views: default results that changed\n\nNo tool's default result changed.\n" })
  })

  it('lists fields removed from both views apart, and keeps hostile field names inside their code spans', () => {
    const single = defineTool({
      id: 'odd__read', description: 'd', input: Type.Object({}),
      output: Type.Object({ 'a`b': Type.String(), 'line\nbreak': Type.String(), kept: Type.String(), gone: Type.String() }), handler: () => ({}) as never,
    })
    const viewed = defineTool({
      id: 'odd__read', description: 'd', input: Type.Object({}),
      output: { compact: Type.Object({ kept: Type.String() }), full: Type.Object({ 'a`b': Type.String(), 'line\nbreak': Type.String(), kept: Type.String() }) },
      handler: () => ({ 'a`b': '', 'line\nbreak': '', kept: '' }),
    })
    const note = viewReleaseNote([single], [viewed])
    expect(note.tools[0]).toMatchObject({ moved_to_full: ['["a`b"]', '["line\\nbreak"]'], removed: ['gone'] })
    expect(note.markdown).toContain('- ``["a`b"]``')
    expect(note.markdown).toContain('Fields removed from both views:')
    expect(note.markdown.split('\n').filter((l) => l.startsWith('- ')).length).toBe(3)
  })
})
