// Fixtures for the Loop tests: a minimal compozy__session_status (spec 000), a single-result
// tool, a host action, and the spec's example Loop as YAML.
import Type from 'typebox'
import { defineTool } from 'result-views'
import { specLoop } from '../../../examples/loop.js'

/** The compact session result: closed at every level; lineage without the permission policy. */
export const CompactSession = Type.Object(
  {
    session: Type.Object(
      {
        id: Type.String(),
        agent_name: Type.String(),
        state: Type.String(),
        lineage: Type.Optional(Type.Object({ root_session_id: Type.String() }, { additionalProperties: false })),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
)

/**
 * The full session result: the compact fields plus `lineage.permission_policy.tools` (closed) and
 * `supervision` (open: `{ type: 'object' }` with no properties). The session object itself is open.
 */
export const FullSession = Type.Object(
  {
    session: Type.Object({
      id: Type.String(),
      agent_name: Type.String(),
      state: Type.String(),
      lineage: Type.Optional(
        Type.Object(
          {
            root_session_id: Type.String(),
            permission_policy: Type.Optional(Type.Object({ tools: Type.Array(Type.String()) }, { additionalProperties: false })),
          },
          { additionalProperties: false },
        ),
      ),
      supervision: Type.Optional(Type.Object({})),
    }),
  },
  { additionalProperties: false },
)

/** The record the fixture tool returns for any session ID. */
export function fullSessionRecord(sessionId: string) {
  return {
    session: {
      id: sessionId,
      agent_name: 'general',
      state: 'active',
      lineage: { root_session_id: sessionId, permission_policy: { tools: ['Read', 'Bash'] } },
      supervision: { owner: 'ops' },
    },
  }
}

/** `compozy__session_status` over {@link fullSessionRecord}; records every input it gets. */
export function sessionStatusTool(calls: unknown[] = []) {
  return defineTool({
    id: 'compozy__session_status',
    description: 'Read one session. Returns the compact result; pass result_view "full" for the complete record.',
    input: Type.Object({ session_id: Type.String() }, { additionalProperties: false }),
    output: { compact: CompactSession, full: FullSession },
    handler: (input) => {
      calls.push(input)
      return fullSessionRecord(input.session_id)
    },
  })
}

/** `compozy__skill_view`: a single-result tool. */
export function skillViewTool(calls: unknown[] = []) {
  return defineTool({
    id: 'compozy__skill_view',
    description: 'Read one skill.',
    input: Type.Object({ skill_id: Type.String() }, { additionalProperties: false }),
    output: Type.Object(
      { skill: Type.Object({ id: Type.String(), body: Type.String(), tags: Type.Array(Type.String()) }, { additionalProperties: false }) },
      { additionalProperties: false },
    ),
    handler: (input) => {
      calls.push(input)
      return { skill: { id: input.skill_id, body: 'Run the tests.', tags: ['testing'] } }
    },
  })
}

/** The spec's example Loop (spec 000 "Loops"), with `result_view: full` on `inspect`: the example's text. */
export const specLoopYaml = specLoop

/** The spec's example Loop without `result_view: full`. */
export const specLoopYamlCompact = specLoopYaml.replace('        result_view: full\n', '')

/** The spec's error for {@link specLoopYamlCompact} (spec 000 "Loops"), character for character. */
export const specRequiresFullMessage =
  'node "report" reads nodes.inspect.output.session.lineage.permission_policy.tools, which the compact result of compozy__session_status does not include; fix: add `result_view: full` to the params of node "inspect"'
