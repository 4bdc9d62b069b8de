/**
 * Input schemas of the example tools. All closed, like the spec's descriptor
 * (`additionalProperties: false`). None declares `result_view`: the library adds the selector to
 * tools with views and refuses a native tool that declares it.
 */
import Type, { type Static } from 'typebox'

const SessionId = Type.String({ minLength: 1, description: 'The session to act on, e.g. "sess-example".' })

/** `compozy__session_status` */
export const SessionStatusInput = Type.Object({ session_id: SessionId }, { additionalProperties: false })
export type SessionStatusInput = Static<typeof SessionStatusInput>

/** `compozy__session_create` */
export const SessionCreateInput = Type.Object(
  {
    agent_name: Type.String({ minLength: 1, description: 'The agent that runs the session, e.g. "general".' }),
    name: Type.Optional(Type.String({ description: 'A name for the session.' })),
    workspace_id: Type.Optional(Type.String({ minLength: 1, description: 'The workspace the session belongs to.' })),
  },
  { additionalProperties: false },
)
export type SessionCreateInput = Static<typeof SessionCreateInput>

/** `compozy__session_archive` */
export const SessionArchiveInput = Type.Object({ session_id: SessionId }, { additionalProperties: false })
export type SessionArchiveInput = Static<typeof SessionArchiveInput>

/** `compozy__session_spawn` */
export const SessionSpawnInput = Type.Object(
  {
    agent_name: Type.String({ minLength: 1, description: 'The agent that runs the child session.' }),
    ttl_seconds: Type.Integer({ minimum: 1, description: 'How long the child may live, in seconds.' }),
  },
  { additionalProperties: false },
)
export type SessionSpawnInput = Static<typeof SessionSpawnInput>

/** `compozy__skill_view` */
export const SkillViewInput = Type.Object(
  { skill_id: Type.String({ minLength: 1, description: 'The skill to read.' }) },
  { additionalProperties: false },
)
export type SkillViewInput = Static<typeof SkillViewInput>

/** `compozy__skill_list` */
export const SkillListInput = Type.Object(
  { enabled_only: Type.Optional(Type.Boolean({ description: 'List only the enabled skills.' })) },
  { additionalProperties: false },
)
export type SkillListInput = Static<typeof SkillListInput>

/** `compozy__skill_search` */
export const SkillSearchInput = Type.Object(
  { query: Type.String({ minLength: 1, maxLength: 256, description: 'Words to find in a skill ID, name or description (case-insensitive).' }) },
  { additionalProperties: false },
)
export type SkillSearchInput = Static<typeof SkillSearchInput>
