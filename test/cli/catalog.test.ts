// --catalog: the command runs a catalog module in process, through the same routes as a server.
// The module exports a Dispatcher (default or `dispatcher`), or tools (default or `tools`);
// anything else is a usage error (exit 2) naming what the module exports.
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { jsonOf, runCli, type CliRun } from './support.js'

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url))
const list = (module: string) => runCli(['tool', 'list', '--catalog', module, '-o', 'json'], { cwd: fixtures })
const ids = (run: CliRun) => jsonOf(run).tools.map((tool: { tool_id: string }) => tool.tool_id)

describe('--catalog', () => {
  it('takes a Dispatcher as the default export or as `dispatcher` (which wins over `tools`)', async () => {
    expect(ids(await list('./dispatcher-default.ts'))).toHaveLength(7)
    expect(ids(await list('./dispatcher-named.ts'))).toEqual(['compozy__session_status', 'compozy__session_create'])
  })

  it('builds a dispatcher from a tool array, as the default export or as `tools`', async () => {
    expect(ids(await list('./tools-default.ts'))).toHaveLength(7)
    expect(ids(await list('./tools-named.ts'))).toEqual(['compozy__skill_view'])
  })

  it('invokes through the same routes as a server, errors redacted the same way', async () => {
    const run = await runCli(['tool', 'invoke', 'compozy__session_status', '--input', '{"session_id":"sess-example","result_view":"full"}', '--catalog', 'dispatcher-default.ts', '-o', 'json'], { cwd: fixtures })
    expect(run.code).toBe(0)
    expect(jsonOf(run).result_view).toBe('full')
    const error = await runCli(['tool', 'invoke', 'compozy__skill_view', '--input', '{"skill_id":"testing","result_view":"full"}', '--catalog', 'dispatcher-default.ts', '-o', 'json'], { cwd: fixtures })
    expect(error.code).toBe(1)
    expect(jsonOf(error)).toEqual({ error: { code: 'tool_invalid_input', reason: 'schema_invalid', message: 'invalid tool request', details: { issues: [{ pointer: '/result_view', keyword: 'result_view', expected: 'no "result_view": the tool returns a single result' }] } } })
  })

  it('refuses a module that exports neither, naming what it exports (exit 2)', async () => {
    const run = await list('./not-a-catalog.ts')
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(
      'error: --catalog ./not-a-catalog.ts exports answer (number), default (object); expected a Dispatcher (the default export or "dispatcher"), a tool array (the default export) or a "tools" array (also as members of the default export, as CommonJS exports them)\n',
    )
  })

  it('refuses tools that cannot make a catalog, a module that throws while loading, and a missing file (exit 2)', async () => {
    const notTools = await list('./not-tools.ts')
    expect(notTools.code).toBe(2)
    expect(notTools.stderr).toContain('--catalog ./not-tools.ts: its tools cannot make a catalog:')
    expect(notTools.stderr).toContain('/tools/0: not a tool returned by defineTool')
    const throws = await list('./throws-on-load.ts')
    expect(throws).toEqual({ code: 2, stdout: '', stderr: 'error: cannot load --catalog ./throws-on-load.ts: TypeError: the catalog could not start\n' })
    const missing = await list('./no-such-module.js')
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/^error: cannot load --catalog \.\/no-such-module\.js: /)
  })

  it('refuses a module whose exports throw when read (exit 2)', async () => {
    const run = await runCli(['tool', 'invoke', 'x', '--input', '{}', '--catalog', './hostile-exports.ts', '-o', 'json'], { cwd: fixtures })
    expect(run).toEqual({ code: 2, stdout: '', stderr: 'error: --catalog ./hostile-exports.ts: its exports could not be read (a getter or a Proxy threw)\n' })
  })

  it('never writes terminal control characters from a tool or a descriptor in -o text', async () => {
    const invoked = await runCli(['tool', 'invoke', 'tricks__echo', '--input', '{}', '--catalog', './terminal-tricks.ts', '-o', 'text'], { cwd: fixtures })
    expect(invoked.code).toBe(0)
    expect(invoked.stdout.split('\n')[0]).toBe('tricks__echo: done\\u{d}\\u{1b}[31mFAKE\\u{9b}')
    const info = await runCli(['tool', 'info', 'tricks__echo', '--catalog', './terminal-tricks.ts', '-o', 'text'], { cwd: fixtures })
    for (const run of [invoked, info]) expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/)
    expect(info.stdout).toContain('\\u{202e}this')
  })
})
