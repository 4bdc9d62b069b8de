// A Proxy array claiming `length: 2 ** 32 - 1` with every index present, from an in-process
// caller, a tool or a host: every copy walked it until the process ran out of memory (a sparse
// array of that length is refused at its first hole). Arrays longer than 2^24 elements are now
// refused before any element is read, with the typed error of their position, at once.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { canonicalJson, createDispatcher, createMemoryApprovalStores, defineTool, inputDigest, isUsageError } from 'result-views'
import { errorOf, rejection } from '../support/outcomes.js'

/** A Proxy over an array that says it has 2^32 − 1 elements, each of them present (`'x'`). */
function denseHuge(): unknown[] {
  const isIndex = (key: string | symbol): boolean => typeof key === 'string' && /^(0|[1-9][0-9]*)$/.test(key)
  return new Proxy([] as unknown[], {
    get: (target, key) => (key === 'length' ? 2 ** 32 - 1 : isIndex(key) ? 'x' : Reflect.get(target, key)),
    has: (target, key) => isIndex(key) || Reflect.has(target, key),
  })
}

const FAST_MS = 5_000
const SCOPE = { workspace_id: 'ws-1', agent_name: 'agent', profile_id: 'prof-1' }

function tool(record: () => unknown = () => ({ id: 'r' })) {
  return defineTool({
    id: 'records',
    description: 'Returns what the test gives it.',
    input: Type.Object({ tags: Type.Optional(Type.Unknown()), deep: Type.Optional(Type.Unknown()), creds: Type.Optional(Type.Unknown()) }),
    output: { compact: Type.Object({ id: Type.String() }), full: Type.Object({ id: Type.String(), tags: Type.Optional(Type.Unknown()) }) },
    sensitiveInputFields: ['creds'],
    handler: () => record() as never,
  })
}

describe('a dense Proxy array of length 2^32 − 1 is refused at once', () => {
  it('by canonicalJson and inputDigest: JsonValueError array_too_long at its pointer', { timeout: FAST_MS }, () => {
    for (const run of [() => canonicalJson({ a: [1, denseHuge()] }), () => inputDigest({ a: [1, denseHuge()] })]) {
      let thrown: unknown
      try {
        run()
      } catch (error) {
        thrown = error
      }
      expect(isUsageError(thrown)).toBe(true)
      expect(thrown).toMatchObject({ code: 'non_json_value', problem: 'array_too_long', pointer: '/a/1' })
    }
  })

  it('in invoke input, nested, as the input itself and under a sensitive field: non_json_input', { timeout: FAST_MS }, async () => {
    const dispatcher = createDispatcher({ tools: [tool()] })
    for (const input of [{ tags: denseHuge() }, { deep: { a: [{ b: denseHuge() }] } }, denseHuge(), { creds: denseHuge() }]) {
      expect(errorOf(await dispatcher.invoke({ tool_id: 'records', input }))).toMatchObject({ code: 'tool_invalid_input', reason: 'non_json_input' })
    }
  })

  it('as sensitive_input_fields: request_invalid', { timeout: FAST_MS }, async () => {
    const dispatcher = createDispatcher({ tools: [tool()] })
    const error = errorOf(await dispatcher.invoke({ tool_id: 'records', input: {}, sensitive_input_fields: denseHuge() as string[] }))
    expect(error).toMatchObject({ code: 'tool_invalid_input', reason: 'request_invalid' })
  })

  it('in a handler record: tool_output_invalid on a full call; a compact call, which never reads it, settles', { timeout: FAST_MS }, async () => {
    const dispatcher = createDispatcher({ tools: [tool(() => ({ id: 'r', tags: denseHuge() }))] })
    expect(errorOf(await dispatcher.invoke({ tool_id: 'records', input: { result_view: 'full' } }))).toMatchObject({ code: 'tool_output_invalid' })
    expect(await dispatcher.invoke({ tool_id: 'records', input: { result_view: 'compact' } })).toMatchObject({ status: 'ok', result: { structured: { id: 'r' } } })
  })

  it("in a pre-call hook's patch: tool_hook_failed / hook_patch_invalid", { timeout: FAST_MS }, async () => {
    const dispatcher = createDispatcher({ tools: [tool()] })
    dispatcher.hook('tool.pre_call', () => ({ tool_input: { tags: denseHuge() } }))
    expect(errorOf(await dispatcher.invoke({ tool_id: 'records', input: {} }))).toMatchObject({ code: 'tool_hook_failed', reason: 'hook_patch_invalid' })
  })

  it("in mintApprovalToken's input, and in a grant store's list answer: typed rejections", { timeout: FAST_MS }, async () => {
    const stores = createMemoryApprovalStores()
    const dispatcher = createDispatcher({ tools: [tool()], approvals: { ...stores, grants: { ...stores.grants, list: () => denseHuge() as never } } })
    expect(await rejection(dispatcher.approvals.mintApprovalToken({ tool_id: 'records', scope: SCOPE, input: { tags: denseHuge() } }))).toMatchObject({ code: 'approval_request_invalid', reason: 'field_invalid' })
    expect(await rejection(dispatcher.approvals.listGrants({ workspace_id: 'ws-1' }))).toMatchObject({ code: 'approval_unavailable', reason: 'store_failed' })
  })
})
