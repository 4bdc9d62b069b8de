// The types of invokeTool and hookTool: inputs from the input schema, records by view.
import Type from 'typebox'
import { describe, expectTypeOf, it } from 'vitest'
import {
  createDispatcher,
  defineTool,
  hookTool,
  invokeTool,
  type InvokeOutcome,
  type Redacted,
  type Tool,
  type ToolCallOutcome,
  type View,
} from 'result-views'

const Input = Type.Object({ id: Type.String(), limit: Type.Optional(Type.Number()) }, { additionalProperties: false })
const Compact = Type.Object({ id: Type.String(), title: Type.String() }, { additionalProperties: false })
const Full = Type.Object({ id: Type.String(), title: Type.String(), body: Type.String() }, { additionalProperties: false })
const notes = defineTool({ id: 'notes__read', description: 'd', input: Input, output: { compact: Compact, full: Full }, handler: (i) => ({ id: i.id, title: 't', body: 'b' }) })
const skills = defineTool({
  id: 'skills__view',
  description: 'd',
  input: Type.Object({ skill_id: Type.String() }, { additionalProperties: false }),
  output: Type.Object({ skill: Type.String() }, { additionalProperties: false }),
  handler: (i) => ({ skill: i.skill_id }),
})
const dispatcher = createDispatcher({ tools: [notes, skills] })

type CompactRecord = { id: string; title: string }
type FullRecord = { id: string; title: string; body: string }

describe('invokeTool types', () => {
  it('types result.structured as the compact record without a selector or with "compact"', async () => {
    const none = await invokeTool(dispatcher, notes, { input: { id: 'n1' } })
    if (none.status === 'ok') {
      expectTypeOf(none.result.structured).toEqualTypeOf<CompactRecord>()
      expectTypeOf(none.result_view).toEqualTypeOf<'compact'>()
    }
    const compact = await invokeTool(dispatcher, notes, { input: { id: 'n1', result_view: 'compact' } })
    if (compact.status === 'ok') expectTypeOf(compact.result.structured).toEqualTypeOf<CompactRecord>()
  })

  it('types result.structured as the full record with "full"', async () => {
    const full = await invokeTool(dispatcher, notes, { input: { id: 'n1', result_view: 'full' }, scope: { workspace_id: 'w' } })
    if (full.status === 'ok') {
      expectTypeOf(full.result.structured).toEqualTypeOf<FullRecord>()
      expectTypeOf(full.result_view).toEqualTypeOf<'full'>()
    }
    expectTypeOf(full).toEqualTypeOf<ToolCallOutcome<typeof notes, 'full'>>()
  })

  it('gives a union discriminated by result_view for a selector typed View', async () => {
    const view = 'full' as View
    const either = await invokeTool(dispatcher, notes, { input: { id: 'n1', result_view: view } })
    if (either.status === 'ok') {
      expectTypeOf(either.result.structured).toEqualTypeOf<CompactRecord | FullRecord>()
      if (either.result_view === 'full') expectTypeOf(either.result.structured).toEqualTypeOf<FullRecord>()
      else expectTypeOf(either.result.structured).toEqualTypeOf<CompactRecord>()
    }
  })

  it('types a single-result tool by its one output schema, with no result_view', async () => {
    const outcome = await invokeTool(dispatcher, skills, { input: { skill_id: 's' } })
    if (outcome.status === 'ok') expectTypeOf(outcome.result.structured).toEqualTypeOf<{ skill: string }>()
    if (outcome.status === 'error') expectTypeOf(outcome.error.code).toBeString()
    if (outcome.status === 'approval_pending') expectTypeOf(outcome.approval_id).toBeString()
    // @ts-expect-error: a single-result tool takes no result_view
    void invokeTool(dispatcher, skills, { input: { skill_id: 's', result_view: 'full' } })
  })

  it("types an extension tool's own result_view input field by its schema, not as a selector", () => {
    const ext = defineTool({
      id: 'ext__render',
      description: 'd',
      origin: 'extension',
      input: Type.Object({ result_view: Type.Number() }, { additionalProperties: false }),
      output: Type.Object({ echoed: Type.Number() }, { additionalProperties: false }),
      handler: (i) => ({ echoed: i.result_view }),
    })
    const withExt = createDispatcher({ tools: [ext] })
    expectTypeOf(invokeTool(withExt, ext, { input: { result_view: 7 } })).resolves.toEqualTypeOf<ToolCallOutcome<typeof ext>>()
    // @ts-expect-error: its result_view is a number, not a view
    void invokeTool(withExt, ext, { input: { result_view: 'full' } })
  })

  it('refuses inputs the input schema refuses, at compile time', () => {
    // @ts-expect-error: id must be a string
    void invokeTool(dispatcher, notes, { input: { id: 1 } })
    // @ts-expect-error: id is required
    void invokeTool(dispatcher, notes, { input: {} })
    // @ts-expect-error: "huge" is not a view
    void invokeTool(dispatcher, notes, { input: { id: 'n1', result_view: 'huge' } })
    // @ts-expect-error: the tool names itself; tool_id is not part of the request
    void invokeTool(dispatcher, notes, { tool_id: 'other', input: { id: 'n1' } })
  })

  it('takes any object input for a tool whose schemas are not known (Tool), and types its record unknown', async () => {
    const tool = notes as Tool
    const outcome = await invokeTool(dispatcher, tool, { input: { anything: true } })
    expectTypeOf(outcome).toExtend<InvokeOutcome>()
    if (outcome.status === 'ok') expectTypeOf(outcome.result.structured).toBeUnknown()
  })
})

describe('hookTool types', () => {
  it("types a pre-call and post-call payload's tool_input as the tool's input, redacted", () => {
    hookTool(dispatcher, notes, 'tool.pre_call', (payload) => {
      expectTypeOf(payload.tool_input.id).toEqualTypeOf<string>()
      expectTypeOf(payload.tool_input.limit).toEqualTypeOf<number | '[REDACTED]' | undefined>()
      expectTypeOf(payload.tool_input.result_view).toEqualTypeOf<View | '[REDACTED]' | undefined>()
      return { tool_input: { ...payload.tool_input, limit: 10 } }
    })
    hookTool(dispatcher, skills, 'tool.post_call', (payload) => {
      expectTypeOf(payload.tool_input).toEqualTypeOf<Redacted<{ skill_id: string }>>()
      expectTypeOf(payload.tool_input.skill_id).toEqualTypeOf<string>()
      expectTypeOf(payload.tool_result.structured).toBeUnknown()
    })
  })

  it('keeps tool.post_error tool_input unknown: an input error fires it with the input as sent', () => {
    hookTool(dispatcher, notes, 'tool.post_error', (payload) => {
      expectTypeOf(payload.tool_input).toBeUnknown()
    })
  })

  it('leaves dispatcher.hook payloads untyped', () => {
    dispatcher.hook('tool.pre_call', (payload) => {
      expectTypeOf(payload.tool_input).toBeUnknown()
    })
  })
})
