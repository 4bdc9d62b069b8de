/**
 * The in-memory state behind the example tools: full session results by id, skills by id, a
 * clock and id allocation. Deterministic by default (a fixed clock) so that tests and demos get the
 * same records every run.
 */
import { activeSessionFull, childSessionFull, justCreatedFull, spawnedFull, stoppedWithFailureFull, waitingOnChildrenFull } from '../fixtures/sessions.js'
import { skillSummaries, testingSkillFull } from '../fixtures/skills.js'
import type { FullSessionResult, FullSessionRecord } from './session-record.js'
import type { FullSpawnRecord } from './session-spawn.js'
import type { SkillListFull, SkillSearchFull, SkillSummary } from './skill-listing.js'
import type { SkillViewResult } from './skill-record.js'

export interface ExampleStoreOptions {
  /**
   * Full session results to start with. Default: `activeSessionFull` (`sess-example`),
   * `stoppedWithFailureFull` and `waitingOnChildrenFull`. Left out: `waitingOnPermissionFull`
   * (it shares the id `sess-example`; pass it here to serve it instead), and `justCreatedFull` and
   * `childSessionFull`, so that the first create and the first spawn allocate `sess-created` and
   * the spec's `sess-child`.
   */
  sessions?: Iterable<FullSessionResult>
  /** Skills to serve. Default: the `testing` skill. */
  skills?: Iterable<SkillViewResult>
  /** The skills `compozy__skill_list` and `compozy__skill_search` see, in list order. Default: `skillSummaries` (testing, deploy, release-notes). */
  skillSummaries?: Iterable<SkillSummary>
  /** The current time. Default: fixed at `2026-11-10T14:20:02Z`, the time of the spec's spawn. */
  now?: () => Date
}

/** The fixed default time: `ttl_seconds: 3600` then gives the spec's `ttl_expires_at`. */
export const EXAMPLE_NOW = '2026-11-10T14:20:02Z'

/** An RFC 3339 timestamp without milliseconds, like the spec's (`2026-11-10T14:02:11Z`). */
export function timestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** A deep copy, so callers never share (or change) the store's records. */
function copy<T>(value: T): T {
  return structuredClone(value)
}

export class ExampleStore {
  readonly #sessions = new Map<string, FullSessionResult>()
  readonly #skills = new Map<string, SkillViewResult>()
  readonly #summaries: SkillSummary[]
  readonly #now: () => Date

  constructor(options: ExampleStoreOptions = {}) {
    const defaults = [activeSessionFull, stoppedWithFailureFull, waitingOnChildrenFull]
    for (const result of options.sessions ?? defaults) this.#sessions.set(result.session.id, copy(result))
    for (const result of options.skills ?? [testingSkillFull]) this.#skills.set(result.skill.id, copy(result))
    this.#summaries = [...(options.skillSummaries ?? skillSummaries)].map((summary) => copy(summary))
    this.#now = options.now ?? (() => new Date(EXAMPLE_NOW))
  }

  /** The current time as a timestamp. */
  now(): string {
    return timestamp(this.#now())
  }

  /** A copy of the session's full result; throws for an unknown id. */
  session(sessionId: string): FullSessionResult {
    const result = this.#sessions.get(sessionId)
    if (result === undefined) throw new Error(`session "${sessionId}" not found`)
    return copy(result)
  }

  /** Stores a session result (a copy) under its id. */
  put(result: FullSessionResult): FullSessionResult {
    this.#sessions.set(result.session.id, copy(result))
    return copy(result)
  }

  /** A copy of the skill's result; throws for an unknown id. */
  skill(skillId: string): SkillViewResult {
    const result = this.#skills.get(skillId)
    if (result === undefined) throw new Error(`skill "${skillId}" not found`)
    return copy(result)
  }

  /** Every skill in list order (only the enabled ones with `enabledOnly`), as full summaries. */
  listSkills(enabledOnly = false): SkillListFull {
    return { skills: this.#summaries.filter((summary) => !enabledOnly || summary.enabled).map((summary) => copy(summary)) }
  }

  /**
   * The skills whose ID, name or description contains `query` (case-insensitive), best first:
   * score 1 for a match in the ID or name, 0.5 in the description only; ties in list order.
   */
  searchSkills(query: string): SkillSearchFull {
    const needle = query.toLowerCase()
    const scored = this.#summaries.flatMap((summary) => {
      const named = summary.id.toLowerCase().includes(needle) || summary.name.toLowerCase().includes(needle)
      const score = named ? 1 : summary.description.toLowerCase().includes(needle) ? 0.5 : 0
      return score === 0 ? [] : [{ ...copy(summary), score }]
    })
    return { query, skills: scored.sort((a, b) => b.score - a.score) }
  }

  /** `prefix`, or `prefix-2`, `prefix-3`, … whichever no session has yet. */
  newSessionId(prefix: string): string {
    if (!this.#sessions.has(prefix)) return prefix
    let n = 2
    while (this.#sessions.has(`${prefix}-${n}`)) n += 1
    return `${prefix}-${n}`
  }

  /** Creates a root session, like `justCreatedFull`: never bound, no generation, no transcript epoch. */
  create(input: { agent_name: string; name?: string; workspace_id?: string }): FullSessionResult {
    const id = this.newSessionId('sess-created')
    const at = this.now()
    const template = copy(justCreatedFull.session)
    const session: FullSessionRecord = {
      ...template,
      id,
      agent_name: input.agent_name,
      lineage: { ...template.lineage!, root_session_id: id },
      created_at: at,
      updated_at: at,
    }
    if (input.name === undefined) delete session.name
    else session.name = input.name
    if (input.workspace_id !== undefined) session.workspace_id = input.workspace_id
    return this.put({ session })
  }

  /** Archives a session: sets `archived_at` (once) and `updated_at`; throws for an unknown id. */
  archive(sessionId: string): FullSessionResult {
    const { session } = this.session(sessionId)
    if (session.archived_at === null) {
      session.archived_at = this.now()
      session.updated_at = session.archived_at
    }
    return this.put({ session })
  }

  /**
   * Spawns a child session and registers it (so `compozy__session_status` can read it), like
   * `childSessionFull`. The parent is the caller's session (`scope.session_id`) when the store
   * knows it; the child gets the parent's lineage root, a depth one below the parent, and the
   * permissions of `spawnedFull`. With the default clock, `ttl_seconds: 3600` and an empty store
   * of children it returns the spec's spawn excerpt plus those permissions.
   */
  spawn(input: { agent_name: string; ttl_seconds: number }, parentSessionId: string | undefined): FullSpawnRecord {
    const parent = parentSessionId === undefined ? undefined : this.#sessions.get(parentSessionId)?.session
    const id = this.newSessionId('sess-child')
    const nowDate = new Date(this.now())
    const at = timestamp(nowDate)
    const ttlExpiresAt = timestamp(new Date(nowDate.getTime() + input.ttl_seconds * 1000))
    let spawnDepth = 1
    for (let p = parent; p?.lineage?.parent_session_id !== undefined; p = this.#sessions.get(p.lineage.parent_session_id)?.session) {
      spawnDepth += 1
    }
    const permissions = copy(spawnedFull.permissions)
    const template = copy(childSessionFull.session)
    const child: FullSessionRecord = {
      ...template,
      id,
      agent_name: input.agent_name,
      lineage: {
        ...template.lineage!,
        ...(parent === undefined ? {} : { parent_session_id: parent.id }),
        root_session_id: parent?.lineage?.root_session_id ?? parent?.id ?? id,
        ttl_expires_at: ttlExpiresAt,
        permission_policy: copy(permissions),
      },
      created_at: at,
      updated_at: at,
    }
    if (parent === undefined) delete child.lineage!.parent_session_id
    child.supervision = parent === undefined ? { mode: 'unattended' } : { mode: 'unattended', parent_session_id: parent.id }
    delete child.worktree_id
    child.pull_request = null
    this.put({ session: child })
    return { session_id: id, spawn_role: 'worker', spawn_depth: spawnDepth, ttl_expires_at: ttlExpiresAt, permissions }
  }
}
