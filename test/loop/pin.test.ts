import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { describeTool } from 'result-views'
import { RUN_SNAPSHOT_VERSION, isLoopError, migrateRunSnapshot, parseLoopYaml, startRun, type LoopDefinition } from 'result-views/loop'
import { sessionStatusTool, skillViewTool, specLoopYaml, specLoopYamlCompact, specRequiresFullMessage } from './support/session-status.js'

const status = sessionStatusTool()
const skill = skillViewTool()
const catalog = [status, skill]
const views = describeTool(status).output_views!
const skillDigest = describeTool(skill).output_schema_digest

function caught(run: () => unknown): { code: string; problems: unknown; diagnostics: unknown; message: string } {
  try {
    run()
  } catch (error) {
    if (isLoopError(error)) return { code: error.code, problems: error.problems, diagnostics: error.diagnostics, message: error.message }
    throw error
  }
  throw new TypeError('expected a LoopError')
}

describe('startRun', () => {
  it('pins each tool node: tool, selected view, and that view\'s schema digest', () => {
    const definition: LoopDefinition = {
      graph: {
        nodes: [
          { id: 'inspect', class: 'action', kind: 'compozy__session_status', params: { session_id: 's', result_view: 'full' } },
          { id: 'peek', class: 'action', kind: 'compozy__session_status', params: { session_id: 's' } },
          { id: 'skill', class: 'action', kind: 'compozy__skill_view', params: { skill_id: 'testing' } },
          { id: 'report', class: 'action', kind: 'run-agent', params: {} },
        ],
      },
    }
    const snapshot = startRun(definition, catalog)
    expect(snapshot).toEqual({
      version: RUN_SNAPSHOT_VERSION,
      pins: {
        inspect: { tool_id: 'compozy__session_status', result_view: 'full', schema_digest: views.full.digest },
        peek: { tool_id: 'compozy__session_status', result_view: 'compact', schema_digest: views.compact.digest },
        skill: { tool_id: 'compozy__skill_view', result_view: 'full', schema_digest: skillDigest },
      },
    })
    expect(RUN_SNAPSHOT_VERSION).toBe(2)
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot)
    expect(Object.isFrozen(snapshot.pins)).toBe(true)
    expect(views.full.digest).not.toBe(views.compact.digest)
  })

  it('gives the same pins for a catalog of descriptors', () => {
    expect(startRun(parseLoopYaml(specLoopYaml), catalog.map(describeTool))).toEqual(startRun(parseLoopYaml(specLoopYaml), catalog))
  })

  it('refuses to start while lint reports errors, listing the diagnostics', () => {
    const error = caught(() => startRun(parseLoopYaml(specLoopYamlCompact), catalog))
    expect(error.code).toBe('loop_lint_failed')
    expect(error.diagnostics).toEqual([
      { node_id: 'report', code: 'result_view_field_requires_full', severity: 'error', message: specRequiresFullMessage, path: '/graph/nodes/1/params/prompt', line: 13, column: 33 },
    ])
    expect(error.message).toBe(`loop cannot start: lint reported 1 error:\n  - result_view_field_requires_full at line 13, column 33: ${specRequiresFullMessage}`)
    const fromObject = caught(() => startRun(JSON.parse(JSON.stringify(parseLoopYaml(specLoopYamlCompact))) as LoopDefinition, catalog))
    expect(fromObject.message).toBe(`loop cannot start: lint reported 1 error:\n  - result_view_field_requires_full: ${specRequiresFullMessage}`)
  })

  it('refuses unknown kinds when the actions are given', () => {
    const error = caught(() => startRun(parseLoopYaml(specLoopYaml), catalog, { actions: [] }))
    expect(error.code).toBe('loop_lint_failed')
    expect((error.diagnostics as Array<{ code: string }>).map((d) => d.code)).toEqual(['unknown_kind'])
  })
})

describe('migrateRunSnapshot (spec 000 "Migration")', () => {
  it('translates a pre-view snapshot (no view recorded) to full, keeping the pinned contract', () => {
    const preView = { pins: { inspect: { tool_id: 'compozy__session_status', schema_digest: views.full.digest } } }
    expect(migrateRunSnapshot(preView)).toEqual({
      version: 2,
      pins: { inspect: { tool_id: 'compozy__session_status', result_view: 'full', schema_digest: views.full.digest } },
    })
    expect(migrateRunSnapshot({ version: 1, ...preView })).toEqual(migrateRunSnapshot(preView))
  })

  it('keeps pins that record their view', () => {
    const snapshot = startRun(parseLoopYaml(specLoopYaml), catalog)
    expect(migrateRunSnapshot(JSON.parse(JSON.stringify(snapshot)))).toEqual(snapshot)
    const mixed = {
      version: 1,
      pins: {
        a: { tool_id: 't', result_view: 'compact', schema_digest: 'c'.repeat(64) },
        b: { tool_id: 't', schema_digest: 'd'.repeat(64) },
      },
    }
    expect(migrateRunSnapshot(mixed).pins).toEqual({
      a: { tool_id: 't', result_view: 'compact', schema_digest: 'c'.repeat(64) },
      b: { tool_id: 't', result_view: 'full', schema_digest: 'd'.repeat(64) },
    })
  })

  it('maps translated digests through the superseded schema digest table', () => {
    const snapshot = {
      pins: {
        old: { tool_id: 't', schema_digest: 'a'.repeat(64) },
        recorded: { tool_id: 't', result_view: 'compact', schema_digest: 'a'.repeat(64) },
        unlisted: { tool_id: 't', schema_digest: 'e'.repeat(64) },
      },
    }
    const migrated = migrateRunSnapshot(snapshot, { supersededDigests: { ['a'.repeat(64)]: views.full.digest } })
    expect(migrated.pins).toEqual({
      old: { tool_id: 't', result_view: 'full', schema_digest: views.full.digest },
      recorded: { tool_id: 't', result_view: 'compact', schema_digest: 'a'.repeat(64) },
      unlisted: { tool_id: 't', result_view: 'full', schema_digest: 'e'.repeat(64) },
    })
  })

  it('keeps a node id such as __proto__ as data', () => {
    const snapshot = JSON.parse(`{"pins":{"__proto__":{"tool_id":"t","schema_digest":"${'f'.repeat(64)}"}}}`)
    const migrated = migrateRunSnapshot(snapshot)
    expect(Object.keys(migrated.pins)).toEqual(['__proto__'])
    expect(Object.getPrototypeOf(migrated.pins)).toBe(Object.prototype)
  })

  it('refuses malformed snapshots, listing every problem', () => {
    expect(caught(() => migrateRunSnapshot(null))).toMatchObject({ code: 'loop_snapshot_invalid', problems: [{ path: '', code: 'invalid_snapshot', message: 'a run snapshot must be an object with "pins"' }] })
    expect(caught(() => migrateRunSnapshot({ version: 3 }))).toMatchObject({
      code: 'loop_snapshot_invalid',
      problems: [
        { path: '/version', code: 'unknown_version', message: 'unknown snapshot version 3 (expected 1 or 2)' },
        { path: '/pins', code: 'invalid_pins', message: 'pins must be an object keyed by node id' },
      ],
    })
    expect(
      caught(() =>
        migrateRunSnapshot({
          pins: { a: 1, 'b/c': { tool_id: '', schema_digest: 5 }, d: { tool_id: 't', schema_digest: 'x', result_view: 'medium' } },
        }),
      ).problems,
    ).toEqual([
      { path: '/pins/a', code: 'invalid_pin', message: 'a pin must be an object with tool_id and schema_digest' },
      { path: '/pins/b~1c/tool_id', code: 'invalid_pin', message: 'tool_id must be a non-empty string' },
      { path: '/pins/b~1c/schema_digest', code: 'invalid_pin', message: 'schema_digest must be 64 lowercase hex characters' },
      { path: '/pins/d/schema_digest', code: 'invalid_pin', message: 'schema_digest must be 64 lowercase hex characters' },
      { path: '/pins/d/result_view', code: 'invalid_pin', message: 'result_view must be "compact" or "full"' },
    ])
  })

  it.each(['', 'x', 'sha256:' + 'a'.repeat(64), 'A'.repeat(64), 'a'.repeat(63), 'a'.repeat(65), 'g'.repeat(64), ' ' + 'a'.repeat(63)])(
    'refuses the schema digest %j (not 64 lowercase hex)',
    (digest) => {
      expect(caught(() => migrateRunSnapshot({ pins: { a: { tool_id: 't', result_view: 'full', schema_digest: digest } } })).problems).toEqual([
        { path: '/pins/a/schema_digest', code: 'invalid_pin', message: 'schema_digest must be 64 lowercase hex characters' },
      ])
    },
  )

  it('accepts any 64 lowercase hex digest', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{64}$/), (digest) => {
        expect(migrateRunSnapshot({ pins: { a: { tool_id: 't', schema_digest: digest } } }).pins.a!.schema_digest).toBe(digest)
      }),
    )
  })

  it('refuses superseded digest mappings that are not 64 lowercase hex on both sides', () => {
    const good = 'a'.repeat(64)
    expect(caught(() => migrateRunSnapshot({ pins: {} }, { supersededDigests: { 'sha256:legacy': good, [good]: 'B'.repeat(64), ['c'.repeat(64)]: 'd'.repeat(64) } })).problems).toEqual([
      { path: '/supersededDigests/sha256:legacy', code: 'invalid_superseded_digests', message: 'a superseded digest mapping must map 64 lowercase hex characters to 64 lowercase hex characters' },
      { path: `/supersededDigests/${good}`, code: 'invalid_superseded_digests', message: 'a superseded digest mapping must map 64 lowercase hex characters to 64 lowercase hex characters' },
    ])
    expect(caught(() => migrateRunSnapshot({ pins: {} }, { supersededDigests: 'x' as never })).problems).toEqual([
      { path: '/supersededDigests', code: 'invalid_superseded_digests', message: 'supersededDigests must be an object of digest → digest' },
    ])
  })

  it('refuses a version 2 pin without result_view (only pre-view snapshots translate to full)', () => {
    const pin = { tool_id: 't', schema_digest: 'd'.repeat(64) }
    expect(caught(() => migrateRunSnapshot({ version: 2, pins: { b: pin } }))).toMatchObject({
      code: 'loop_snapshot_invalid',
      problems: [{ path: '/pins/b/result_view', code: 'invalid_pin', message: 'a version 2 pin must record result_view ("compact" or "full")' }],
    })
    expect(migrateRunSnapshot({ version: 1, pins: { b: pin } }).pins.b!.result_view).toBe('full')
    expect(migrateRunSnapshot({ pins: { b: pin } }).pins.b!.result_view).toBe('full')
  })
})
