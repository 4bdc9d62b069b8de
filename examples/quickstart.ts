import Type from 'typebox'
import { createDispatcher, defineTool } from 'result-views'

const Compact = Type.Object({ id: Type.String(), state: Type.String() }, { additionalProperties: false })
const Full = Type.Object({ id: Type.String(), state: Type.String(), transcript: Type.Array(Type.String()) })

const sessionStatus = defineTool({
  id: 'sessions__status',
  description: 'Read one session. Returns the compact result; pass result_view "full" for the complete record.',
  input: Type.Object({ session_id: Type.String() }, { additionalProperties: false }),
  output: { compact: Compact, full: Full }, // checked here: compact must be provably ⊆ full
  handler: ({ session_id }) => ({ id: session_id, state: 'active', transcript: ['…'] }), // returns the full record
})

const dispatcher = createDispatcher({ tools: [sessionStatus] })

const compact = await dispatcher.invoke({ tool_id: 'sessions__status', input: { session_id: 's1' } })
// { status: 'ok', result_view: 'compact', result: { structured: { id: 's1', state: 'active' }, preview: '…' } }

const full = await dispatcher.invoke({ tool_id: 'sessions__status', input: { session_id: 's1', result_view: 'full' } })
// result.structured is the whole record, transcript included

const bad = await dispatcher.invoke({ tool_id: 'sessions__status', input: { session_id: 's1', result_view: 'huge' } })
// { status: 'error', error: ToolError { code: 'tool_invalid_input', reason: 'schema_invalid',
//   message: 'tool "sessions__status" input "result_view" must be one of "compact", "full"' } }

dispatcher.describe('sessions__status') // descriptor: output_schema (compact), output_views with both digests
