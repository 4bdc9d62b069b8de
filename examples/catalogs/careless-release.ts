/**
 * The example catalog after a careless release of `compozy__session_status`, as a `--catalog`
 * module: its compact view no longer carries `runtime.generation` (moved to the full view, though
 * `compozy__session_runtime_set` takes it as a fence), and `state` gained the value `paused` in
 * both views. Every other tool is unchanged. `contracts check` against the lock of
 * `./current.ts` fails on both changes.
 */
import { defineTool, type JsonSchema, type Tool } from 'result-views'
import { sessionFixtures } from '../fixtures/sessions.js'
import { defineSessionArchive, defineSessionCreate, defineSessionSpawn, defineSessionStatus, defineSkillList, defineSkillSearch, defineSkillView } from '../tools/catalog.js'
import { SessionStatusInput } from '../tools/inputs.js'
import { ExampleStore } from '../tools/session-store.js'

type Schema = { [keyword: string]: unknown }

/** The schema at a path of `properties` names (`at(s, 'session', 'runtime')`). */
function at(schema: Schema, ...keys: string[]): Schema {
  return keys.reduce((s, key) => (s.properties as Record<string, Schema>)[key]!, schema)
}

const store = new ExampleStore()
const current = defineSessionStatus(store)
const compact = structuredClone(current.output.compact) as Schema
const full = structuredClone(current.output.full) as Schema
// Careless change 1: runtime.generation leaves the compact view (the full view keeps it).
delete (at(compact, 'session', 'runtime').properties as Record<string, unknown>).generation
// Careless change 2: a new state value, in both views.
for (const view of [compact, full]) at(view, 'session', 'state').enum = ['active', 'stopped', 'paused']

/** `compozy__session_status` as the careless release defines it. */
export const carelessSessionStatus = defineTool({
  id: current.id,
  description: current.description,
  input: SessionStatusInput,
  output: { compact: compact as JsonSchema, full: full as JsonSchema } as never,
  risk: 'read',
  toolsets: ['sessions'],
  handler: (input: { session_id: string }) => store.session(input.session_id),
})

/** The catalog of the careless release. */
export const tools: Tool[] = [
  carelessSessionStatus,
  defineSessionCreate(store),
  defineSessionArchive(store),
  defineSessionSpawn(store),
  defineSkillView(store),
  defineSkillList(store),
  defineSkillSearch(store),
]

/** The same fixtures as the current catalog: the budget check still measures them. */
export const fixtures = { compozy__session_status: Object.values(sessionFixtures) }
