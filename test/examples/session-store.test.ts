/**
 * The in-memory store behind the example tools returns records that fit the full schemas and match
 * the fixtures (no `defineTool`).
 */
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { activeSessionFull, spawnedFull, waitingOnPermissionFull } from '../../examples/fixtures/sessions.js'
import { testingSkillFull } from '../../examples/fixtures/skills.js'
import { FullSessionResult } from '../../examples/tools/session-record.js'
import { FullSpawnRecord } from '../../examples/tools/session-spawn.js'
import { ExampleStore } from '../../examples/tools/session-store.js'

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }))
const validSession = ajv.compile(JSON.parse(JSON.stringify(FullSessionResult)))
const validSpawn = ajv.compile(JSON.parse(JSON.stringify(FullSpawnRecord)))

describe('ExampleStore', () => {
  it('reads a session by id, as a copy; throws for an unknown id', () => {
    const store = new ExampleStore()
    const read = store.session('sess-example')
    expect(read).toStrictEqual(activeSessionFull)
    read.session.name = 'changed'
    expect(store.session('sess-example')).toStrictEqual(activeSessionFull)
    expect(() => store.session('sess-missing')).toThrow('session "sess-missing" not found')
  })

  it('serves the permission-prompt fixture when given it', () => {
    const store = new ExampleStore({ sessions: [waitingOnPermissionFull] })
    expect(store.session('sess-example')).toStrictEqual(waitingOnPermissionFull)
  })

  it('creates a never-bound session: no generation, no transcript epoch, selection_revision 0', () => {
    const store = new ExampleStore()
    const { session } = store.create({ agent_name: 'general', name: 'New work' })
    expect(validSession({ session }), JSON.stringify(validSession.errors)).toBe(true)
    expect(session).toMatchObject({ id: 'sess-created', name: 'New work', agent_name: 'general', workspace_id: 'ws_example', archived_at: null })
    expect(session.runtime).not.toHaveProperty('generation')
    expect(session).not.toHaveProperty('transcript_epoch')
    expect(session.runtime.selection_revision).toBe(0)
    expect(session.lineage?.root_session_id).toBe('sess-created')
    expect(store.create({ agent_name: 'general' }).session).not.toHaveProperty('name')
    expect(store.session('sess-created-2').session.id).toBe('sess-created-2')
  })

  it('archives a session: archived_at set once', () => {
    const store = new ExampleStore()
    const { session } = store.archive('sess-example')
    expect(validSession({ session }), JSON.stringify(validSession.errors)).toBe(true)
    expect(session.archived_at).toBe('2026-11-10T14:20:02Z')
    expect(store.session('sess-example').session.archived_at).toBe('2026-11-10T14:20:02Z')
    expect(() => store.archive('sess-missing')).toThrow('not found')
  })

  it("spawns the spec's child: ttl_seconds 3600 at the default clock gives spawnedFull", () => {
    const store = new ExampleStore()
    const record = store.spawn({ agent_name: 'general', ttl_seconds: 3600 }, 'sess-example')
    expect(validSpawn(record), JSON.stringify(validSpawn.errors)).toBe(true)
    expect(record).toStrictEqual(spawnedFull)
    const child = store.session('sess-child')
    expect(validSession(child), JSON.stringify(validSession.errors)).toBe(true)
    expect(child.session.lineage).toMatchObject({
      kind: 'spawn',
      parent_session_id: 'sess-example',
      root_session_id: 'sess-example',
      ttl_expires_at: '2026-11-10T15:20:02Z',
    })
    const grandchild = store.spawn({ agent_name: 'general', ttl_seconds: 60 }, 'sess-child')
    expect(grandchild).toMatchObject({ session_id: 'sess-child-2', spawn_depth: 2, ttl_expires_at: '2026-11-10T14:21:02Z' })
    expect(store.session('sess-child-2').session.lineage?.root_session_id).toBe('sess-example')
  })

  it('spawns a root child when the caller has no known session', () => {
    const store = new ExampleStore()
    const record = store.spawn({ agent_name: 'general', ttl_seconds: 1 }, undefined)
    expect(record.spawn_depth).toBe(1)
    expect(store.session(record.session_id).session.lineage).not.toHaveProperty('parent_session_id')
  })

  it('uses the clock it is given', () => {
    const store = new ExampleStore({ now: () => new Date('2027-01-02T03:04:05.678Z') })
    expect(store.now()).toBe('2027-01-02T03:04:05Z')
  })

  it('reads a skill; throws for an unknown id', () => {
    const store = new ExampleStore()
    expect(store.skill('testing')).toStrictEqual(testingSkillFull)
    expect(() => store.skill('nope')).toThrow('skill "nope" not found')
  })
})
