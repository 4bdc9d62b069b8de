/**
 * The example catalog as it was before result views (spec 000 "Migration"): the session record
 * tools were single-result tools returning the complete record. Their output schema was written
 * on its own (with its own description), so its digest differs from the full view that replaced
 * it, although both accept the same records: the superseded digest table maps one to the other.
 */
import { defineTool, type SingleResultTool, type Tool } from 'result-views'
import Type from 'typebox'
import { defineSkillView } from '../tools/catalog.js'
import { SessionArchiveInput, SessionCreateInput, SessionSpawnInput, SessionStatusInput } from '../tools/inputs.js'
import { FullSessionRecord } from '../tools/session-record.js'
import { FullSpawnRecord } from '../tools/session-spawn.js'
import { ExampleStore } from '../tools/session-store.js'

const store = new ExampleStore()

/** The pre-view session result: `{ session }`, the complete record. */
const SessionResult = Type.Object({ session: FullSessionRecord }, { additionalProperties: false, description: 'The session record.' })

function sessionTool(id: string, input: typeof SessionStatusInput | typeof SessionArchiveInput, run: (sessionId: string) => unknown): SingleResultTool {
  return defineTool({ id, description: 'Session record (complete).', input, output: SessionResult, risk: 'read', handler: (i: { session_id: string }) => run(i.session_id) as never })
}

/** The pre-view catalog. */
export const tools: Tool[] = [
  sessionTool('compozy__session_status', SessionStatusInput, (id) => store.session(id)),
  defineTool({ id: 'compozy__session_create', description: 'Create a session.', input: SessionCreateInput, output: SessionResult, risk: 'write', handler: (input) => store.create(input) }),
  sessionTool('compozy__session_archive', SessionArchiveInput, (id) => store.archive(id)),
  defineTool({
    id: 'compozy__session_spawn', description: 'Spawn a child session.', input: SessionSpawnInput, risk: 'write',
    output: Type.Object(FullSpawnRecord.properties, { additionalProperties: false, description: 'The spawn record.' }),
    handler: (input, context) => store.spawn(input, context.scope.session_id),
  }),
  defineSkillView(store),
]
