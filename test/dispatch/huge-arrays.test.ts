// Huge sparse arrays in every position `invoke` reads an array: the input (at any depth, and as
// the input itself), the request's own fields, the handler's record (compact and full calls, and
// under the schema keywords that make a validator walk an array whole), and a pre-call hook's
// patch. Each is refused at its first hole with the typed error of its position, at once and in
// flat memory (before, a compact call whose record held `a.length = 2 ** 32 - 1` ran the process
// out of memory: ajv reported an error for each of its elements).
import Type, { type TSchema } from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, type InvokeRequest } from 'result-views'
import { HUGE_ARRAYS, HUGE_ARRAY_TIMEOUT_MS } from '../support/huge-arrays.js'
import { errorOf } from '../support/outcomes.js'

const OUTPUT_INVALID = 'tool "records" returned a record that does not match its full output schema'

/** A viewed tool whose handler returns `record()`; the full view lists arrays under several keywords. */
function recordTool(record: () => unknown, extra: Record<string, TSchema> = {}) {
  return defineTool({
    id: 'records',
    description: 'Returns what the test gives it.',
    input: Type.Object({ tags: Type.Optional(Type.Array(Type.String())), deep: Type.Optional(Type.Unknown()), creds: Type.Optional(Type.Unknown()) }),
    output: {
      compact: Type.Object({ id: Type.String() }),
      full: Type.Object({ id: Type.String(), tags: Type.Optional(Type.Array(Type.String())), ...extra }),
    },
    sensitiveInputFields: ['creds'],
    handler: () => record() as never,
  })
}

describe.each(HUGE_ARRAYS)('$name', ({ make }) => {
  const dispatcher = createDispatcher({ tools: [recordTool(() => ({ id: 'r' }))] })
  const invoke = (request: Partial<InvokeRequest>) => dispatcher.invoke({ tool_id: 'records', input: {}, ...request } as InvokeRequest)

  it('as an input field, at any depth, or as the input itself: non_json_input at its first hole', { timeout: HUGE_ARRAY_TIMEOUT_MS }, async () => {
    const cases: Array<[unknown, string]> = [
      [{ tags: make() }, '/tags/0'],
      [{ deep: { a: [{ b: make() }] } }, '/deep/a/0/b/0'],
      [{ deep: [1, 2, Object.assign(make(), { 0: 'dense start' })] }, '/deep/2/1'],
      [make(), '/0'],
    ]
    for (const [input, pointer] of cases) {
      expect(errorOf(await invoke({ input }))).toMatchObject({
        code: 'tool_invalid_input',
        reason: 'non_json_input',
        message: `tool "records" input is not plain JSON at "${pointer}"`,
        details: { pointer, problem: 'sparse_array' },
      })
    }
  })

  it('as a request field: request_invalid, naming the field', { timeout: HUGE_ARRAY_TIMEOUT_MS }, async () => {
    const cases: Array<[Partial<InvokeRequest>, string]> = [
      [{ sensitive_input_fields: make() as string[] }, 'sensitive_input_fields must be an array of strings'],
      [{ scope: make() as never }, 'scope must be a plain object of string fields'],
      [{ scope: { workspace_id: make() } as never }, 'scope field workspace_id must be a string'],
      [{ tool_id: make() as never }, 'tool_id must be a string'],
      [{ tool_call_id: make() as never }, 'tool_call_id must be a string'],
      [{ approval_token: make() as never }, 'approval_token must be a string'],
      [{ pinned_result_view: make() as never }, 'pinned_result_view must be "compact" or "full"'],
    ]
    for (const [request, problem] of cases) {
      expect(errorOf(await invoke(request))).toMatchObject({ code: 'tool_invalid_input', reason: 'request_invalid', message: `invalid invoke request: ${problem}` })
    }
    expect(errorOf(await dispatcher.invoke(make() as never))).toMatchObject({ reason: 'request_invalid', message: 'invalid invoke request: the request must be an object' })
  })

  it('in a compact call\'s record: output_schema_invalid at its first hole (regression: ajv ran out of memory reporting every element)', { timeout: HUGE_ARRAY_TIMEOUT_MS }, async () => {
    const extra = {
      searched: Type.Optional(Type.Array(Type.String(), { contains: Type.Literal('x') })),
      unique: Type.Optional(Type.Array(Type.String(), { uniqueItems: true })),
      nested: Type.Optional(Type.Array(Type.Object({ list: Type.Array(Type.Number()) }))),
    }
    const records: Array<[() => unknown, string]> = [
      [() => ({ id: 'r', tags: make() }), '/tags/0'],
      [() => ({ id: 'r', searched: make() }), '/searched/0'],
      [() => ({ id: 'r', unique: make() }), '/unique/0'],
      [() => ({ id: 'r', nested: [{ list: [1] }, { list: make() }] }), '/nested/1/list/0'],
    ]
    for (const [record, pointer] of records) {
      const tools = [recordTool(record, extra)]
      const outcome = await createDispatcher({ tools }).invoke({ tool_id: 'records', input: {} })
      expect(errorOf(outcome)).toMatchObject({ code: 'tool_output_invalid', reason: 'output_schema_invalid', message: OUTPUT_INVALID, details: { pointer, problem: 'sparse_array' } })
      const full = await createDispatcher({ tools }).invoke({ tool_id: 'records', input: { result_view: 'full' } })
      expect(errorOf(full)).toMatchObject({ code: 'tool_output_invalid', details: { pointer, problem: 'sparse_array' } })
    }
  })

  it('as the record itself, compact or full: output_schema_invalid', { timeout: HUGE_ARRAY_TIMEOUT_MS }, async () => {
    const root = createDispatcher({ tools: [recordTool(() => make())] })
    for (const input of [{}, { result_view: 'full' }]) {
      const error = errorOf(await root.invoke({ tool_id: 'records', input }))
      expect(error).toMatchObject({ code: 'tool_output_invalid', reason: 'output_schema_invalid', message: OUTPUT_INVALID })
    }
  })

  it('in a pre-call patch: hook_patch_invalid at its first hole, or as a scope that is not the call\'s', { timeout: HUGE_ARRAY_TIMEOUT_MS }, async () => {
    const patched = (patch: unknown) => createDispatcher({ tools: [recordTool(() => ({ id: 'r' }))], hooks: { 'tool.pre_call': () => patch as never } })
    const cases: Array<[unknown, string]> = [
      [{ tool_input: { tags: make() } }, 'the patched tool_input is not plain JSON at "/tags/0"'],
      [{ tool_input: { deep: { list: make() } } }, 'the patched tool_input is not plain JSON at "/deep/list/0"'],
      [{ tool_input: make() }, 'the patched tool_input is not plain JSON at "/0"'],
      [{ tool_input: {}, scope: make() }, "a pre-call hook cannot change the call's scope"],
      [make(), 'a pre-call patch must carry the whole new tool_input'],
    ]
    for (const [patch, problem] of cases) {
      const outcome = await patched(patch).invoke({ tool_id: 'records', input: {} })
      expect(errorOf(outcome)).toMatchObject({ code: 'tool_hook_failed', reason: 'hook_patch_invalid', message: `tool "records" pre-call hook returned an invalid patch: ${problem}` })
    }
  })
})
