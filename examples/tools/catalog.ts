/**
 * The spec's own tools (spec 000), defined with `defineTool` over an in-memory store:
 *
 * | Tool                      | Views         | Risk  |
 * |---------------------------|---------------|-------|
 * | `compozy__session_status` | compact, full | read  |
 * | `compozy__session_create` | compact, full | write |
 * | `compozy__session_archive`| compact, full | write |
 * | `compozy__session_spawn`  | compact, full | write |
 * | `compozy__skill_view`     | single result | read  |
 * | `compozy__skill_list`     | compact, full | read  |
 * | `compozy__skill_search`   | compact, full | read  |
 *
 * The two skill listings carry the spec's value-dependent rule (`omitWhen`): a skill's
 * `diagnostics` are omitted from the compact record only when every one is clean.
 *
 * `exampleTools()` builds all seven over one fresh store; the `define…` functions build one tool
 * over a store you pass, and the `session…Tool` constants are the tools over a default store.
 */
import { defineTool, type SingleResultTool, type ViewedTool } from 'result-views'
import { SessionArchiveInput, SessionCreateInput, SessionSpawnInput, SessionStatusInput, SkillListInput, SkillSearchInput, SkillViewInput } from './inputs.js'
import { sessionResultViews, type FullSessionResult } from './session-record.js'
import { spawnResultViews } from './session-spawn.js'
import { ExampleStore, type ExampleStoreOptions } from './session-store.js'
import { SkillListCompact, SkillListFull, SkillSearchCompact, SkillSearchFull, skillListOmitWhen } from './skill-listing.js'
import { SkillViewResult } from './skill-record.js'

/** The preview of a session result: the session id (spec 000 "Hooks": `"preview": "sess-example"`). */
const sessionPreview = (record: FullSessionResult): string => record.session.id

/** `compozy__session_status`: read one session. */
export function defineSessionStatus(store: ExampleStore): ViewedTool {
  return defineTool({
    id: 'compozy__session_status',
    description: 'Read one session. Returns the compact result; pass result_view "full" for the complete record.',
    input: SessionStatusInput,
    output: sessionResultViews,
    risk: 'read',
    toolsets: ['sessions'],
    handler: (input) => store.session(input.session_id),
    preview: sessionPreview,
  })
}

/** `compozy__session_create`: create a session (never bound yet: no `runtime.generation`). */
export function defineSessionCreate(store: ExampleStore): ViewedTool {
  return defineTool({
    id: 'compozy__session_create',
    description:
      'Create a session. Returns the compact session record; pass result_view "full" for the complete record. ' +
      'A new session has no runtime.generation and no transcript_epoch: pass 0 as those fences.',
    input: SessionCreateInput,
    output: sessionResultViews,
    risk: 'write',
    toolsets: ['sessions'],
    handler: (input) => store.create(input),
    preview: sessionPreview,
  })
}

/** `compozy__session_archive`: archive a session (sets `archived_at`). */
export function defineSessionArchive(store: ExampleStore): ViewedTool {
  return defineTool({
    id: 'compozy__session_archive',
    description: 'Archive one session. Returns the compact session record; pass result_view "full" for the complete record.',
    input: SessionArchiveInput,
    output: sessionResultViews,
    risk: 'write',
    toolsets: ['sessions'],
    handler: (input) => store.archive(input.session_id),
    preview: sessionPreview,
  })
}

/** `compozy__session_spawn`: spawn a child session of the caller's session. */
export function defineSessionSpawn(store: ExampleStore): ViewedTool {
  return defineTool({
    id: 'compozy__session_spawn',
    description:
      'Spawn a child session. Returns the spawn facts; pass result_view "full" to include the permissions the child received.',
    input: SessionSpawnInput,
    output: spawnResultViews,
    risk: 'write',
    toolsets: ['sessions'],
    handler: (input, context) => store.spawn(input, context.scope.session_id),
    preview: (record) => record.session_id,
  })
}

/** `compozy__skill_view`: read one skill (a single-result tool: no views, no `result_view`). */
export function defineSkillView(store: ExampleStore): SingleResultTool {
  return defineTool({
    id: 'compozy__skill_view',
    description: 'Read one skill, with its body.',
    input: SkillViewInput,
    output: SkillViewResult,
    risk: 'read',
    toolsets: ['skills'],
    handler: (input) => store.skill(input.skill_id),
    preview: (record) => record.skill.id,
  })
}

/** `compozy__skill_list`: list the skills, with their diagnostics unless all are clean. */
export function defineSkillList(store: ExampleStore): ViewedTool {
  return defineTool({
    id: 'compozy__skill_list',
    description:
      'List the skills. Returns the compact list, where a skill carries its diagnostics unless every one is valid, verified and without a warning, ' +
      'failure or activation reason; pass result_view "full" for where each skill lives and every diagnostic in detail.',
    input: SkillListInput,
    output: { compact: SkillListCompact, full: SkillListFull },
    omitWhen: skillListOmitWhen,
    risk: 'read',
    toolsets: ['skills'],
    handler: (input) => store.listSkills(input.enabled_only === true),
    preview: (record) => `${record.skills.length} skills`,
  })
}

/** `compozy__skill_search`: find skills by words, with the same diagnostics rule as the list. */
export function defineSkillSearch(store: ExampleStore): ViewedTool {
  return defineTool({
    id: 'compozy__skill_search',
    description:
      'Search the skills by ID, name or description. Returns the compact hits, best first, with the same diagnostics rule as compozy__skill_list; ' +
      'pass result_view "full" for the complete records.',
    input: SkillSearchInput,
    output: { compact: SkillSearchCompact, full: SkillSearchFull },
    omitWhen: skillListOmitWhen,
    risk: 'read',
    toolsets: ['skills'],
    handler: (input) => store.searchSkills(input.query),
    preview: (record) => `${record.skills.length} skills match ${JSON.stringify(record.query)}`,
  })
}

/** The seven example tools over one fresh store (fixed clock unless `options.now` is given). */
export function exampleTools(
  options: ExampleStoreOptions = {},
): [ViewedTool, ViewedTool, ViewedTool, ViewedTool, SingleResultTool, ViewedTool, ViewedTool] {
  const store = new ExampleStore(options)
  return [
    defineSessionStatus(store),
    defineSessionCreate(store),
    defineSessionArchive(store),
    defineSessionSpawn(store),
    defineSkillView(store),
    defineSkillList(store),
    defineSkillSearch(store),
  ]
}

const defaultStore = new ExampleStore()

/** `compozy__session_status` over a default store shared by the constants below. */
export const sessionStatusTool = defineSessionStatus(defaultStore)
/** `compozy__session_create` over the shared default store. */
export const sessionCreateTool = defineSessionCreate(defaultStore)
/** `compozy__session_archive` over the shared default store. */
export const sessionArchiveTool = defineSessionArchive(defaultStore)
/** `compozy__session_spawn` over the shared default store. */
export const sessionSpawnTool = defineSessionSpawn(defaultStore)
/** `compozy__skill_view` over the shared default store. */
export const skillViewTool = defineSkillView(defaultStore)
/** `compozy__skill_list` over the shared default store. */
export const skillListTool = defineSkillList(defaultStore)
/** `compozy__skill_search` over the shared default store. */
export const skillSearchTool = defineSkillSearch(defaultStore)
