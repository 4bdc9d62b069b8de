// Catalog modules that hang, look like a dispatcher without being one, or export the CommonJS way,
// and an authorization no header can carry: each ends in a documented exit code and message.
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { jsonOf, runCli } from './support.js'

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url))
const inFixtures = (argv: readonly string[]) => runCli(argv, { cwd: fixtures })

describe('cli-catalog-unsettled-handler-exit-13', () => {
  it('applies --timeout-ms to an in-process call whose handler never settles (exit 1, timeout)', async () => {
    const json = await inFixtures(['tool', 'invoke', 'hang', '--catalog', './hang-handler.ts', '--input', '{}', '--timeout-ms', '200', '-o', 'json'])
    expect(json).toEqual({ code: 1, stdout: '{"error":{"code":"cli_target_unavailable","reason":"timeout","message":"the catalog did not answer within 200 ms"}}\n', stderr: '' })
    const text = await inFixtures(['tool', 'invoke', 'hang', '--catalog', './hang-handler.ts', '--input', '{}', '--timeout-ms', '200', '-o', 'text'])
    expect(text).toEqual({ code: 1, stdout: '', stderr: 'error: the catalog did not answer within 200 ms (cli_target_unavailable/timeout)\n' })
  })

  it('applies --timeout-ms to loading a module whose top-level await never settles (exit 2)', async () => {
    const run = await inFixtures(['tool', 'list', '--catalog', './hang-on-load.ts', '--timeout-ms', '200', '-o', 'json'])
    expect(run).toEqual({ code: 2, stdout: '', stderr: 'error: cannot load --catalog ./hang-on-load.ts: it did not finish loading within 200 ms\n' })
  })
})

describe('cli-catalog-lookalike-dispatcher-unexpected', () => {
  it('refuses a default export with invoke, describe, list and approvals that is no dispatcher (exit 2), passing the problem on', async () => {
    const run = await inFixtures(['tool', 'list', '--catalog', './lookalike-dispatcher.ts', '-o', 'json'])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/^error: --catalog \.\/lookalike-dispatcher\.ts: its dispatcher cannot serve the routes: \/dispatcher: .+\n$/)
    expect(run.stderr).not.toContain('unexpectedly')
  })
})

describe('cli-cjs-catalog-tools-object', () => {
  it('reads `tools` and `dispatcher` from the default export, as CommonJS exports them', async () => {
    const tools = await inFixtures(['tool', 'list', '--catalog', './tools-object.ts', '-o', 'json'])
    expect(jsonOf(tools).tools.map((tool: { tool_id: string }) => tool.tool_id)).toEqual(['compozy__skill_view'])
    const dispatcher = await inFixtures(['tool', 'list', '--catalog', './dispatcher-object.ts', '-o', 'json'])
    expect(jsonOf(dispatcher).tools.map((tool: { tool_id: string }) => tool.tool_id)).toEqual(['compozy__session_status'])
  })

  it('reaches the tools of a .cjs `module.exports = { tools }` (here refused as not from defineTool)', async () => {
    const run = await inFixtures(['tool', 'list', '--catalog', './tools-object.cjs', '-o', 'json'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('error: --catalog ./tools-object.cjs: its tools cannot make a catalog:')
    expect(run.stderr).toContain('/tools/0: not a tool returned by defineTool')
  })
})

describe('cli-authorization-env-control-char', () => {
  it('refuses a RESULT_VIEWS_AUTHORIZATION no header can carry as a usage error naming the variable, never its value', async () => {
    for (const value of ['Bearer abc123\r', 'Bearer abc123\r\nX-Evil: 1', 'Bearer \u0000abc123', 'Bearer 🔑abc123']) {
      const run = await runCli(['tool', 'list', '--url', 'http://127.0.0.1:9', '-o', 'json'], { env: { RESULT_VIEWS_AUTHORIZATION: value } })
      expect(run).toEqual({
        code: 2,
        stdout: '',
        stderr: 'error: RESULT_VIEWS_AUTHORIZATION holds a character an HTTP header cannot carry (a control character such as a line break, or one past U+00FF); its value is not shown\n',
      })
    }
  })
})
