// Every misuse code, thrown by the library as it runs: one base (UsageError), one problem shape,
// every code registered, and each specific class caught by its own guard.
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
  isApprovalConfigError,
  isHookRegistrationError,
  isJsonValueError,
  isPolicyDefinitionError,
  isToolDefinitionError,
  isToolError,
  isUsageError,
  proveViewSubset,
  type UsageErrorCode,
} from 'result-views'
import { isLoopError, lintLoop, migrateRunSnapshot, parseLoopDefinition, runLoop, startRun } from 'result-views/loop'
import { createMcpServer, isMcpOptionsError } from 'result-views/mcp'
import { createSqliteApprovalStores } from 'result-views/sqlite'
import { assertViewsConsistent, isSchemaArbitraryError, jsonSchemaArbitrary } from 'result-views/testing'
import { thrown } from '../support/outcomes.js'

const loop = { graph: { nodes: [{ id: 'a', class: 'action' as const, kind: 'k', params: { x: '{{ .nodes.ghost.output.y }}' } }] } }

/** One way to get each misuse code thrown, and the guard of the class that throws it. */
const misuses: Record<UsageErrorCode, { run: () => unknown; guard: (value: unknown) => boolean }> = {
  tool_definition_invalid: { run: () => defineTool({ id: '' } as never), guard: isToolDefinitionError },
  policy_definition_invalid: { run: () => createPatternPolicy({ owner: 'nobody' }), guard: isPolicyDefinitionError },
  approval_config_invalid: { run: () => createDispatcher({ tools: [], approvals: { timeoutMs: -1 } }), guard: isApprovalConfigError },
  hook_registration_invalid: { run: () => createDispatcher({ tools: [] }).hook('tool.nope' as never, (() => {}) as never), guard: isHookRegistrationError },
  mcp_options_invalid: { run: () => createMcpServer(createDispatcher({ tools: [] }), { name: '', version: '1' }), guard: isMcpOptionsError },
  non_json_value: { run: () => canonicalJson({ n: NaN }), guard: isJsonValueError },
  digest_options_invalid: { run: () => inputDigest({}, { origin: 'other' as never }), guard: isUsageError },
  schema_argument_invalid: { run: () => compileProjector(new Date(0) as never), guard: isUsageError },
  schema_arbitrary_unsupported: { run: () => jsonSchemaArbitrary({ allOf: [{ type: 'string' }] }), guard: isSchemaArbitraryError },
  testing_argument_invalid: { run: () => assertViewsConsistent({} as never), guard: isUsageError },
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
    it(`throws ${code} as a UsageError with { path, code, message } problems`, () => {
      const error = thrown(run) as { code: string; name: string; message: string; problems: Array<Record<string, unknown>> }
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
  })

  it('throws the other ways to misuse proveViewSubset, createSqliteApprovalStores and runLoop with registered codes', async () => {
    expect(thrown(() => proveViewSubset([] as never, {}))).toMatchObject({ code: 'schema_argument_invalid', problems: [{ path: '', code: 'not_a_schema' }] })
    expect(thrown(() => createSqliteApprovalStores({ filename: '' }))).toMatchObject({ code: 'approval_config_invalid', problems: [{ path: '/filename', code: 'invalid_filename' }] })
    await expect(runLoop(loop, null as never)).rejects.toMatchObject({ code: 'loop_options_invalid', problems: [{ path: '', code: 'invalid_options' }] })
    expect(thrown(() => jsonSchemaArbitrary({ type: 'string' }, { maxDepth: -1 }))).toMatchObject({ code: 'testing_argument_invalid', problems: [{ path: '/maxDepth', code: 'invalid_option' }] })
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
