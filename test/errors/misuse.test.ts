// Every misuse code, thrown by the library as it runs: one base (UsageError), one problem shape,
// every code registered, and each specific class caught by its own guard.
import Module from 'node:module'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import {
  UsageErrorCodes,
  canonicalJson,
  compileProjector,
  createDispatcher,
  createPatternPolicy,
  defineTool,
  inputDigest,
  invokeTool,
  isApprovalConfigError,
  isDispatcherOptionsError,
  isHookRegistrationError,
  isJsonValueError,
  isPolicyDefinitionError,
  isToolDefinitionError,
  isToolError,
  isUsageError,
  proveViewSubset,
  type UsageErrorCode,
} from 'result-views'
import { isAiSdkOptionsError, toAiSdkTools } from 'result-views/ai'
import { contractLock, isContractsError, isTokenizerUnavailableError, measureViews } from 'result-views/contracts'
import { createHttpHandler, isHttpOptionsError, createMemoryContinuationStore, isContinuationStoreOptionsError } from 'result-views/http'
import { isLoopError, lintLoop, migrateRunSnapshot, parseLoopDefinition, runLoop, startRun } from 'result-views/loop'
import { createMcpServer, isMcpOptionsError, measureCatalog } from 'result-views/mcp'
import { isAgentsOptionsError, toAgentsTools } from 'result-views/openai-agents'
import { createPostgresApprovalStores, isPostgresOptionsError } from 'result-views/postgres'
import { createSqliteApprovalStores } from 'result-views/sqlite'
import { assertViewBudget, assertViewsConsistent, isSchemaArbitraryError, jsonSchemaArbitrary } from 'result-views/testing'
import { thrown, thrownOrRejected } from '../support/outcomes.js'

/**
 * Runs `run` as if the optional peer `gpt-tokenizer` were not installed: every `require` of it
 * fails as a missing module would (the library loads it with `createRequire`, through `Module._load`).
 */
function withoutTokenizer<T>(run: () => T): T {
  return withoutModule('gpt-tokenizer', run)
}

/** Runs `run` as if the optional peer `name` were not installed (see `withoutTokenizer`). */
function withoutModule<T>(name: string, run: () => T): T {
  const modules = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown }
  const load = modules._load
  modules._load = function (this: unknown, request: string, ...rest: unknown[]) {
    if (request === name || request.startsWith(name + '/')) throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' })
    return load.call(this, request, ...rest)
  }
  try {
    return run()
  } finally {
    modules._load = load
  }
}

const loop = { graph: { nodes: [{ id: 'a', class: 'action' as const, kind: 'k', params: { x: '{{ .nodes.ghost.output.y }}' } }] } }

/** One way to get each misuse code thrown (or rejected with, by an async function), and the guard of the class that throws it. */
const misuses: Record<UsageErrorCode, { run: () => unknown; guard: (value: unknown) => boolean }> = {
  tool_definition_invalid: { run: () => defineTool({ id: '' } as never), guard: isToolDefinitionError },
  dispatcher_options_invalid: { run: () => createDispatcher({ tools: [], policies: {} } as never), guard: isDispatcherOptionsError },
  policy_definition_invalid: { run: () => createPatternPolicy({ owner: 'nobody' }), guard: isPolicyDefinitionError },
  approval_config_invalid: { run: () => createDispatcher({ tools: [], approvals: { timeoutMs: -1 } }), guard: isApprovalConfigError },
  hook_registration_invalid: { run: () => createDispatcher({ tools: [] }).hook('tool.nope' as never, (() => {}) as never), guard: isHookRegistrationError },
  mcp_options_invalid: { run: () => createMcpServer(createDispatcher({ tools: [] }), { name: '', version: '1' }), guard: isMcpOptionsError },
  ai_sdk_options_invalid: { run: () => toAiSdkTools({} as never), guard: isAiSdkOptionsError },
  openai_agents_options_invalid: { run: () => toAgentsTools({} as never), guard: isAgentsOptionsError },
  postgres_options_invalid: { run: () => createPostgresApprovalStores({} as never), guard: isPostgresOptionsError },
  http_options_invalid: { run: () => createHttpHandler({} as never), guard: isHttpOptionsError },
  continuation_store_options_invalid: { run: () => createMemoryContinuationStore({ maxEntries: 0 }), guard: isContinuationStoreOptionsError },
  contracts_invalid: { run: () => contractLock(3 as never), guard: isContractsError },
  tokenizer_unavailable: { run: () => withoutTokenizer(() => measureCatalog([], { tokens: true })), guard: isTokenizerUnavailableError },
  non_json_value: { run: () => canonicalJson({ n: NaN }), guard: isJsonValueError },
  digest_options_invalid: { run: () => inputDigest({}, { origin: 'other' as never }), guard: isUsageError },
  schema_argument_invalid: { run: () => compileProjector(new Date(0) as never), guard: isUsageError },
  invoke_tool_argument_invalid: { run: () => invokeTool({} as never, {} as never, { input: {} }), guard: isUsageError },
  schema_arbitrary_unsupported: { run: () => jsonSchemaArbitrary({ allOf: [{ type: 'string' }] }), guard: isSchemaArbitraryError },
  testing_argument_invalid: { run: () => assertViewsConsistent({} as never), guard: isUsageError },
  fast_check_unavailable: { run: () => withoutModule('fast-check', () => jsonSchemaArbitrary({ type: 'string' })), guard: isUsageError },
  loop_definition_invalid: { run: () => parseLoopDefinition({ graph: 3 }), guard: isLoopError },
  loop_lint_failed: { run: () => startRun(loop, []), guard: isLoopError },
  loop_snapshot_invalid: { run: () => migrateRunSnapshot({ pins: 1 }), guard: isLoopError },
  loop_options_invalid: { run: () => lintLoop(loop, 'tools' as never), guard: isLoopError },
}

const JSON_POINTER = /^(\/([^~/]|~[01])*)*$/

describe('misuse errors', () => {
  it('has a way to throw every registered misuse code, and no other', () => {
    expect(Object.keys(misuses).sort()).toEqual(Object.keys(UsageErrorCodes).sort())
  })

  for (const [code, { run, guard }] of Object.entries(misuses)) {
    it(`throws ${code} as a UsageError with { path, code, message } problems`, async () => {
      const error = (await thrownOrRejected(run)) as { code: string; name: string; message: string; problems: Array<Record<string, unknown>> }
      expect(isUsageError(error)).toBe(true)
      expect(guard(error)).toBe(true)
      expect(isToolError(error)).toBe(false)
      expect(error).toBeInstanceOf(TypeError)
      expect(error.code).toBe(code)
      expect(error.name).toBe(UsageErrorCodes[code as UsageErrorCode].thrownBy)
      expect(error.problems.length).toBeGreaterThan(0)
      expect(Object.isFrozen(error.problems)).toBe(true)
      for (const problem of error.problems) {
        expect(problem.path).toMatch(JSON_POINTER)
        expect(problem.code).toMatch(/^[a-z][a-z0-9_]*$/)
        expect(typeof problem.message).toBe('string')
        expect(error.message).toContain(problem.message)
      }
    })
  }

  it('tells the specific classes apart by their own brands', () => {
    const definition = thrown(misuses.tool_definition_invalid.run)
    const policy = thrown(misuses.policy_definition_invalid.run)
    expect(isToolDefinitionError(policy)).toBe(false)
    expect(isPolicyDefinitionError(definition)).toBe(false)
    expect(isHookRegistrationError(definition)).toBe(false)
    expect(isHookRegistrationError(thrown(misuses.hook_registration_invalid.run))).toBe(true)
    const http = thrown(misuses.http_options_invalid.run)
    const postgres = thrown(misuses.postgres_options_invalid.run)
    expect(isHttpOptionsError(postgres)).toBe(false)
    expect(isPostgresOptionsError(http)).toBe(false)
    expect(isContractsError(thrown(misuses.tokenizer_unavailable.run))).toBe(false)
  })

  it('throws the other ways to misuse proveViewSubset, createSqliteApprovalStores and runLoop with registered codes', async () => {
    expect(thrown(() => proveViewSubset([] as never, {}))).toMatchObject({ code: 'schema_argument_invalid', problems: [{ path: '', code: 'not_a_schema' }] })
    expect(thrown(() => createSqliteApprovalStores({ filename: '' }))).toMatchObject({ code: 'approval_config_invalid', problems: [{ path: '/filename', code: 'invalid_filename' }] })
    await expect(runLoop(loop, null as never)).rejects.toMatchObject({ code: 'loop_options_invalid', problems: [{ path: '', code: 'invalid_options' }] })
    expect(thrown(() => jsonSchemaArbitrary({ type: 'string' }, { maxDepth: -1 }))).toMatchObject({ code: 'testing_argument_invalid', problems: [{ path: '/maxDepth', code: 'invalid_option' }] })
  })

  it('throws the other ways to misuse the measuring functions with registered codes', () => {
    const viewed = defineTool({
      id: 'notes__read',
      description: 'd',
      input: Type.Object({}),
      output: { compact: Type.Object({ id: Type.String() }), full: Type.Object({ id: Type.String(), body: Type.String() }) },
      handler: () => ({ id: 'n', body: 'b' }),
    })
    expect(thrown(() => assertViewBudget(viewed, {} as never))).toMatchObject({ name: 'ContractsError', code: 'contracts_invalid', problems: [{ path: '', code: 'no_limit' }] })
    expect(thrown(() => measureCatalog([], { tokens: 'yes' as never }))).toMatchObject({ name: 'McpOptionsError', code: 'mcp_options_invalid', problems: [{ path: '/tokens', code: 'invalid_option' }] })
    const tokenizer = thrown(() => withoutTokenizer(() => measureViews(viewed, [{ id: 'n', body: 'b' }])))
    expect(tokenizer).toMatchObject({ name: 'TokenizerUnavailableError', code: 'tokenizer_unavailable', problems: [{ path: '/countTokens', code: 'tokenizer_missing' }] })
    expect((tokenizer as { cause?: { code?: string } }).cause?.code).toBe('MODULE_NOT_FOUND')
    // Regression: the message said only "measureViews arguments is invalid"; it names the missing package on its first line.
    expect((tokenizer as Error).message.split('\n')[0]).toMatch(/^cannot count tokens for measureViews arguments: .*gpt-tokenizer.*npm install gpt-tokenizer@4/)
  })

  it('keeps the problems of a lint failure in step with its error diagnostics', () => {
    const error = thrown(misuses.loop_lint_failed.run) as { problems: unknown[]; diagnostics: Array<{ severity: string; path: string; code: string; message: string }> }
    const errors = error.diagnostics.filter((d) => d.severity === 'error')
    expect(errors.length).toBeGreaterThan(0)
    expect(error.problems).toEqual(errors.map((d) => ({ path: d.path, code: d.code, message: d.message })))
  })

  it('names the tool of an invalid definition in toolId (camelCase, as every error-class field)', () => {
    const error = thrown(() => defineTool({ id: 'notes__read', description: 'd', input: Type.String(), output: Type.Object({}), handler: () => ({}) } as never))
    expect(error).toMatchObject({ name: 'ToolDefinitionError', toolId: 'notes__read', problems: [{ path: '/input/type', code: 'input_not_object' }] })
    expect(Object.keys(error as object)).not.toContain('tool_id')
  })
})
