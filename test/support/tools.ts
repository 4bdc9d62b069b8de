// Small tools shared by the tests: named after what they hold.
import Type from 'typebox'
import { defineTool } from 'result-views'

export const NoteCompact = Type.Object({ id: Type.String(), title: Type.String() }, { additionalProperties: false })
export const NoteFull = Type.Object(
  { id: Type.String(), title: Type.String(), body: Type.String(), tags: Type.Optional(Type.Array(Type.String())) },
  { additionalProperties: false },
)

/** A viewed tool whose handler records every input it got. */
export function noteTool(calls: unknown[] = [], options: { inputErrorCode?: 'tool_invalid_input' | 'invalid_request' } = {}) {
  return defineTool({
    id: 'notes__read',
    description: 'Read one note.',
    input: Type.Object({ id: Type.String() }, { additionalProperties: false }),
    output: { compact: NoteCompact, full: NoteFull },
    ...options,
    handler: (input) => {
      calls.push(input)
      return { id: input.id, title: 'Groceries', body: 'eggs, milk', tags: ['home'] }
    },
  })
}

/** A single-result tool. */
export function skillTool(calls: unknown[] = []) {
  return defineTool({
    id: 'skills__view',
    description: 'View one skill.',
    input: Type.Object({ skill_id: Type.String() }, { additionalProperties: false }),
    output: Type.Object({ skill: Type.Object({ id: Type.String() }, { additionalProperties: false }) }, { additionalProperties: false }),
    handler: (input) => {
      calls.push(input)
      return { skill: { id: input.skill_id } }
    },
  })
}

/** An extension tool that has its own input named result_view. */
export function extensionTool(calls: unknown[] = []) {
  return defineTool({
    id: 'ext__render',
    description: 'An extension tool with its own result_view input.',
    origin: 'extension',
    input: Type.Object({ result_view: Type.Number() }, { additionalProperties: false }),
    output: Type.Object({ echoed: Type.Number() }, { additionalProperties: false }),
    handler: (input) => {
      calls.push(input)
      return { echoed: input.result_view }
    },
  })
}
