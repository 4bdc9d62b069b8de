// Tools whose calls end in the errors the surfaces must make actionable: input problems on a viewed
// tool, an approval requirement, and the three errors a tool reports (with a sensitive input field
// whose value the tool puts in its message).
import Type from 'typebox'
import { defineTool, reportToolError, ToolError, type ReportedErrorCode } from 'result-views'

export const SECRET = 'vault://provider/token-XYZ123'

const ticket = Type.Object({ id: Type.String(), state: Type.String() }, { additionalProperties: false })

export function surfaceTools() {
  return [
    defineTool({
      id: 'tickets__get',
      description: 'Reads a ticket; reports what it cannot do.',
      input: Type.Object(
        {
          ticket_id: Type.String({ maxLength: 8 }),
          outcome: Type.Optional(Type.Union([Type.Literal('resource_not_found'), Type.Literal('resource_conflict'), Type.Literal('argument_invalid'), Type.Literal('unmarked')])),
          reason: Type.Optional(Type.String()),
          secret_ref: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
      output: { compact: Type.Object({ id: Type.String() }), full: ticket },
      sensitiveInputFields: ['secret_ref'],
      handler: (input) => {
        const secret = input.secret_ref ?? ''
        if (input.outcome === 'unmarked') throw new ToolError({ code: 'tool_execution_failed', reason: 'ticket_not_found', message: `no ticket in shard 7 (${secret})` })
        if (input.outcome !== undefined) {
          const code: ReportedErrorCode = input.outcome
          throw reportToolError(code, `ticket ${JSON.stringify(input.ticket_id)} cannot be read with ${secret}`, input.reason === undefined ? {} : { reason: input.reason })
        }
        return { id: input.ticket_id, state: 'open' }
      },
    }),
    defineTool({
      id: 'tickets__close',
      description: 'Closes a ticket; needs approval.',
      input: Type.Object({ ticket_id: Type.String() }, { additionalProperties: false }),
      output: Type.Object({ closed: Type.Boolean() }),
      approval: 'required',
      handler: () => ({ closed: true }),
    }),
  ]
}
