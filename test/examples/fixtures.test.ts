/**
 * The example schemas and fixtures agree with each other and with spec 000, checked with ajv and
 * by hand (no `defineTool`, no library projector).
 */
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import {
  activeSessionCompact,
  activeSessionFull,
  sessionFixtures,
  spawnedCompact,
  spawnedFull,
  spawnedWithPromptAndWorktreeFull,
  spawnFixtures,
  waitingOnPermissionCompact,
  waitingOnPermissionFull,
  justCreatedFull,
  stoppedWithFailureFull,
} from '../../examples/fixtures/sessions.js'
import { testingSkillFull } from '../../examples/fixtures/skills.js'
import * as inputs from '../../examples/tools/inputs.js'
import { CompactSessionResult, FullSessionResult } from '../../examples/tools/session-record.js'
import { CompactSpawnRecord, FullSpawnRecord } from '../../examples/tools/session-spawn.js'
import { SkillViewResult } from '../../examples/tools/skill-record.js'

// ajv-formats is CommonJS: its default export may arrive wrapped under ESM interop.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Schema = { [key: string]: Json }

/** The plain JSON Schema of a TypeBox schema (its hidden keys dropped). */
const plain = (schema: unknown): Schema => JSON.parse(JSON.stringify(schema)) as Schema
const clone = <T>(value: T): T => structuredClone(value)

const ajv = addFormats(new Ajv({ strict: false, allErrors: true }))
const validators = new Map<unknown, ValidateFunction>()
function validator(schema: unknown): ValidateFunction {
  let validate = validators.get(schema)
  if (validate === undefined) {
    validate = ajv.compile(plain(schema))
    validators.set(schema, validate)
  }
  return validate
}
function expectValid(schema: unknown, value: unknown): void {
  const validate = validator(schema)
  const ok = validate(value)
  expect(ok ? [] : validate.errors).toEqual([])
}
function isValid(schema: unknown, value: unknown): boolean {
  return validator(schema)(value) === true
}

// ---------------------------------------------------------------------------------------------
// The spec's excerpts, copied verbatim from spec 000.

const specActiveExcerpt = {
  session: {
    id: 'sess-example',
    profile_id: 'prof_default',
    name: 'Fix flaky upload test',
    agent_name: 'general',
    type: 'user',
    state: 'active',
    badge: 'running',
    board_column: 'working',
    workspace_id: 'ws_example',
    branch: 'fix/upload-flake',
    runtime: {
      status: 'ready',
      generation: 3,
      selection_revision: 2,
      effective: { provider: 'claude', model: 'claude-opus-5-5', reasoning_effort: 'medium' },
    },
    transcript_epoch: 1,
    lineage: { root_session_id: 'sess-example' },
    pending_interactions: [],
    archived_at: null,
    created_at: '2026-11-10T14:02:11Z',
    updated_at: '2026-11-10T14:19:47Z',
  },
}

const specPermissionPromptExcerpt = {
  session: {
    id: 'sess-example',
    agent_name: 'general',
    state: 'active',
    badge: 'waiting-for-auth',
    board_column: 'needs_you',
    runtime: {
      status: 'ready',
      effective: { provider: 'claude', model: 'claude-opus-5-5' },
    },
    pending_interactions: [
      {
        session_id: 'sess-example',
        interaction_id: 'int-52c1',
        kind: 'permission',
        provider_request_id: 'req-9',
        title: 'Run make test',
        status: 'pending',
        created_at: '2026-11-10T14:19:40Z',
      },
    ],
    archived_at: null,
    created_at: '2026-11-10T14:02:11Z',
    updated_at: '2026-11-10T14:19:47Z',
  },
}

const specSpawnExcerpt = {
  session_id: 'sess-child',
  spawn_role: 'worker',
  spawn_depth: 1,
  ttl_expires_at: '2026-11-10T15:20:02Z',
}

// ---------------------------------------------------------------------------------------------
// The projections, by hand: delete exactly the fields the full view adds.

/** A full session result minus the full-only fields (spec 000: permission policy, supervision, runtime.acp_caps, available_commands, diagnostics, profile, option catalogs). */
function sessionCompactByHand(result: FullSessionResult): unknown {
  const { session } = clone(result)
  delete session.supervision
  delete session.available_commands
  delete session.diagnostics
  delete session.profile
  delete session.runtime.acp_caps
  if (session.lineage !== undefined) delete session.lineage.permission_policy
  for (const interaction of session.pending_interactions) delete interaction.options
  return { session }
}

/** A full spawn record minus the permission echo. */
function spawnCompactByHand(record: FullSpawnRecord): unknown {
  const { permissions: _permissions, ...rest } = clone(record)
  return rest
}

// ---------------------------------------------------------------------------------------------

describe('the spec excerpts', () => {
  it('activeSessionCompact is the first excerpt field for field, plus the always-present pull_request', () => {
    const { pull_request, ...rest } = activeSessionCompact.session
    expect(pull_request).toBeNull()
    expect({ session: rest }).toStrictEqual(specActiveExcerpt)
  })

  it('waitingOnPermissionCompact is the permission-prompt excerpt, completed only with always-present fields', () => {
    const { pull_request, runtime, ...rest } = waitingOnPermissionCompact.session
    const { selection_revision, ...runtimeRest } = runtime
    expect(pull_request).toBeNull()
    expect(selection_revision).toBe(2)
    expect({ session: { ...rest, runtime: runtimeRest } }).toStrictEqual(specPermissionPromptExcerpt)
  })

  it('spawnedCompact is the spawn excerpt, unchanged', () => {
    expect(spawnedCompact).toStrictEqual(specSpawnExcerpt)
  })

  it('the excerpts completed minimally validate against the compact schema; as printed they lack only always-present fields', () => {
    expectValid(CompactSessionResult, activeSessionCompact)
    expectValid(CompactSessionResult, waitingOnPermissionCompact)
    expectValid(CompactSpawnRecord, specSpawnExcerpt)
    const missing = (value: unknown): string[] => {
      const validate = validator(CompactSessionResult)
      validate(value)
      return (validate.errors ?? []).map((e) => `${e.instancePath}/${String(e.params.missingProperty)}`).sort()
    }
    expect(missing(specActiveExcerpt)).toEqual(['/session/pull_request'])
    expect(missing(specPermissionPromptExcerpt)).toEqual(['/session/pull_request', '/session/runtime/selection_revision'])
  })
})

describe('full fixtures validate against the full schemas', () => {
  for (const [name, result] of Object.entries(sessionFixtures)) {
    it(name, () => expectValid(FullSessionResult, result))
  }
  for (const [name, record] of Object.entries(spawnFixtures)) {
    it(name, () => expectValid(FullSpawnRecord, record))
  }
  it('testingSkillFull', () => expectValid(SkillViewResult, testingSkillFull))
})

describe('compact fixtures validate against the compact schemas', () => {
  it('activeSessionCompact', () => expectValid(CompactSessionResult, activeSessionCompact))
  it('waitingOnPermissionCompact', () => expectValid(CompactSessionResult, waitingOnPermissionCompact))
  it('spawnedCompact', () => expectValid(CompactSpawnRecord, spawnedCompact))
})

describe('compact fixtures are the projections of their full fixtures', () => {
  it('activeSessionFull → activeSessionCompact', () => {
    expect(sessionCompactByHand(activeSessionFull)).toStrictEqual(activeSessionCompact)
  })
  it('waitingOnPermissionFull → waitingOnPermissionCompact', () => {
    expect(sessionCompactByHand(waitingOnPermissionFull)).toStrictEqual(waitingOnPermissionCompact)
  })
  it('spawnedFull → spawnedCompact', () => {
    expect(spawnCompactByHand(spawnedFull)).toStrictEqual(spawnedCompact)
  })
  it('spawnedWithPromptAndWorktreeFull keeps prompt and worktree in compact', () => {
    const compact = spawnCompactByHand(spawnedWithPromptAndWorktreeFull) as Record<string, unknown>
    expect(compact.prompt).toStrictEqual(spawnedWithPromptAndWorktreeFull.prompt)
    expect(compact.worktree).toStrictEqual(spawnedWithPromptAndWorktreeFull.worktree)
    expectValid(CompactSpawnRecord, compact)
  })
  // The compact schema is closed at every level: a hand projection that missed a full-only field fails here.
  for (const [name, result] of Object.entries(sessionFixtures)) {
    it(`${name} minus its full-only fields is a valid compact record`, () => {
      expectValid(CompactSessionResult, sessionCompactByHand(result))
    })
  }
})

describe('the views differ where they should', () => {
  it('full records are not compact records (compact is closed)', () => {
    for (const result of Object.values(sessionFixtures)) expect(isValid(CompactSessionResult, result)).toBe(false)
    for (const record of Object.values(spawnFixtures)) expect(isValid(CompactSpawnRecord, record)).toBe(false)
  })

  it('compact session records are also valid full records (every full-only field is optional)', () => {
    expectValid(FullSessionResult, activeSessionCompact)
    expectValid(FullSessionResult, waitingOnPermissionCompact)
  })

  it('a compact spawn record is not a full one (full requires permissions, as before)', () => {
    expect(isValid(FullSpawnRecord, spawnedCompact)).toBe(false)
  })

  it('the Loop example path exists only in the full record', () => {
    expect(activeSessionFull.session.lineage?.permission_policy?.tools).toContain('bash')
    expect(plain(FullSessionResult)).toMatchObject({
      properties: { session: { properties: { lineage: { properties: { permission_policy: { properties: { tools: { type: 'array' } } } } } } } },
    })
    expect(plain(CompactSessionResult)).not.toHaveProperty('properties.session.properties.lineage.properties.permission_policy')
  })

  it('fences: omitted while 0, selection_revision always present', () => {
    const created = justCreatedFull.session
    expect(created.runtime).not.toHaveProperty('generation')
    expect(created).not.toHaveProperty('transcript_epoch')
    expect(created.runtime.selection_revision).toBe(0)
    const withZero = clone(justCreatedFull)
    withZero.session.runtime.generation = 0
    expect(isValid(FullSessionResult, withZero)).toBe(false)
    const noRevision = clone(justCreatedFull) as { session: { runtime: Record<string, unknown> } }
    delete noRevision.session.runtime.selection_revision
    expect(isValid(FullSessionResult, noRevision)).toBe(false)
  })

  it('a stopped session carries its stop reason, detail, cause and failures', () => {
    expect(stoppedWithFailureFull.session).toMatchObject({
      stop_reason: expect.any(String),
      stop_detail: expect.any(String),
      stop_cause: expect.any(String),
      failure: { code: expect.any(String), message: expect.any(String) },
      runtime: { failure: { code: expect.any(String), message: expect.any(String) } },
    })
  })
})

describe('the schemas have the shapes the spec describes', () => {
  it('both session views are `{ session }`, required and closed (spec 000 descriptor)', () => {
    for (const schema of [CompactSessionResult, FullSessionResult]) {
      expect(plain(schema)).toMatchObject({ type: 'object', required: ['session'], additionalProperties: false })
    }
  })

  it('the compact session schema is a structural subset of the full one', () => {
    expect(subsetProblems(plain(CompactSessionResult), plain(FullSessionResult), '')).toEqual([])
    expect(subsetProblems(plain(CompactSpawnRecord), plain(FullSpawnRecord), '')).toEqual([])
  })

  it('input schemas are closed objects and do not declare result_view', () => {
    for (const [name, schema] of Object.entries(inputs)) {
      const json = plain(schema)
      expect(json, name).toMatchObject({ type: 'object', additionalProperties: false })
      expect(Object.keys(json.properties as object), name).not.toContain('result_view')
    }
  })

  it('every schema compiles under strict ajv (the library uses strict mode)', () => {
    const strict = addFormats(new Ajv({ strict: true, allowUnionTypes: true }))
    for (const schema of [CompactSessionResult, FullSessionResult, CompactSpawnRecord, FullSpawnRecord, SkillViewResult, ...Object.values(inputs)]) {
      expect(() => strict.compile(plain(schema))).not.toThrow()
    }
  })
})

/**
 * A deliberately narrow, hand-written subset check for the schema forms these examples use
 * (objects, arrays, anyOf, leaves): every compact property exists in full at the same path;
 * leaves and anyOf are identical; required in compact ⇒ required in full; compact objects are
 * closed. Not the library's prover.
 */
function subsetProblems(compact: Schema, full: Schema, path: string): string[] {
  const problems: string[] = []
  if (compact.type === 'object') {
    if (full.type !== 'object') return [`${path}: full is not an object`]
    if (compact.additionalProperties !== false) problems.push(`${path}: compact object is open`)
    const fullProps = (full.properties ?? {}) as Record<string, Schema>
    const fullRequired = (full.required ?? []) as string[]
    for (const [key, sub] of Object.entries((compact.properties ?? {}) as Record<string, Schema>)) {
      const there = fullProps[key]
      if (there === undefined) {
        problems.push(`${path}/${key}: missing in full`)
        continue
      }
      problems.push(...subsetProblems(sub, there, `${path}/${key}`))
    }
    for (const key of (compact.required ?? []) as string[]) {
      if (!fullRequired.includes(key)) problems.push(`${path}/${key}: required in compact, optional in full`)
    }
    return problems
  }
  if (compact.type === 'array') {
    if (full.type !== 'array') return [`${path}: full is not an array`]
    return subsetProblems(compact.items as Schema, full.items as Schema, `${path}/items`)
  }
  if (Array.isArray(compact.anyOf)) {
    const fullAnyOf = full.anyOf as Schema[] | undefined
    if (!Array.isArray(fullAnyOf) || fullAnyOf.length !== compact.anyOf.length) return [`${path}: anyOf differs`]
    compact.anyOf.forEach((member, i) => problems.push(...subsetProblems(member as Schema, fullAnyOf[i]!, `${path}/anyOf/${i}`)))
    return problems
  }
  try {
    expect(full).toStrictEqual(compact)
  } catch {
    problems.push(`${path}: leaf differs`)
  }
  return problems
}
