// Usage errors exit 2 with one message on stderr and nothing on stdout: unknown options (with a
// suggestion), a bad -o, an unreadable --input-file, invalid JSON (line and column, never the
// text), no target or two. Help and --version exit 0. None of it needs a server: the command
// stops before it sends anything.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from './support.js'

const dir = mkdtempSync(join(tmpdir(), 'rv-cli-usage-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const NOWHERE = ['--url', 'http://127.0.0.1:9']
const invoke = (...args: string[]) => runCli(['tool', 'invoke', 'compozy__session_status', ...NOWHERE, ...args], { cwd: dir })

function expectUsage(run: { code: number; stdout: string; stderr: string }, message: string | RegExp): void {
  expect(run.code).toBe(2)
  expect(run.stdout).toBe('')
  if (typeof message === 'string') expect(run.stderr).toContain(message)
  else expect(run.stderr).toMatch(message)
}

describe('usage errors', () => {
  it('names an unknown option and suggests the right one', async () => {
    expectUsage(await invoke('--inptu', '{}'), "error: unknown option '--inptu'\n(Did you mean --input?)")
    expectUsage(await runCli(['tool', 'invok', 'x']), "error: unknown command 'invok'\n(Did you mean invoke?)")
    expectUsage(await runCli(['tools', 'list']), "(Did you mean tool?)")
  })

  it('never echoes the value of an unknown --name=value option', async () => {
    const run = await invoke('--input', '{}', '--aproval-token=tok-secret-value-123')
    expectUsage(run, "error: unknown option '--aproval-token=…'")
    expect(run.stderr).not.toContain('tok-secret-value-123')
  })

  it('refuses an -o that is neither json nor text, and a --timeout-ms that is not a positive integer', async () => {
    expectUsage(await invoke('--input', '{}', '-o', 'yaml'), "argument 'yaml' is invalid. Allowed choices are json, text.")
    expectUsage(await invoke('--input', '{}', '--timeout-ms', '0'), 'expected a positive integer of milliseconds')
  })

  it('gives the line and column of invalid JSON, never the input itself', async () => {
    const run = await invoke('--input', '{\n  "session_id": "sess-secret-1",\n  "result_view": compact\n}')
    expectUsage(run, 'error: --input is not valid JSON: unexpected character (expected a value) at line 3, column 18\n')
    expect(run.stderr).not.toContain('sess-secret-1')
    writeFileSync(join(dir, 'broken.json'), '{"session_id": "sess-secret-2",}')
    const fromFile = await invoke('--input-file', 'broken.json')
    expectUsage(fromFile, 'error: --input-file broken.json is not valid JSON: expected a property name in double quotes at line 1, column 32\n')
    expect(fromFile.stderr).not.toContain('sess-secret-2')
    expectUsage(await runCli(['tool', 'invoke', 'x', ...NOWHERE], { stdin: '{"a":1' }), 'error: the input on stdin is not valid JSON: unexpected end of input at line 1, column 7\n')
    expectUsage(await runCli(['tool', 'invoke', 'x', ...NOWHERE], { stdin: '' }), "error: the input on stdin is empty: give the tool input as JSON, e.g. '{}'\n")
  })

  it('refuses an unreadable --input-file, and --input with --input-file', async () => {
    expectUsage(await invoke('--input-file', 'missing.json'), 'error: cannot read --input-file missing.json: ENOENT\n')
    expectUsage(await invoke('--input-file', '.'), 'error: cannot read --input-file .: EISDIR\n')
    expectUsage(await invoke('--input', '{}', '--input-file', 'x.json'), 'error: give --input or --input-file, not both\n')
  })

  it('needs exactly one target, from the options or the environment', async () => {
    expectUsage(await runCli(['tool', 'list']), 'error: no target: pass --url, --socket or --catalog (or set RESULT_VIEWS_URL or RESULT_VIEWS_SOCKET)\n')
    expectUsage(await runCli(['tool', 'list', '--url', 'http://127.0.0.1:9', '--socket', '/tmp/x.sock']), 'error: give one target, not --url and --socket\n')
    expectUsage(await runCli(['tool', 'list', '--url', 'not a url']), 'error: the target URL is not a URL (expected e.g. http://127.0.0.1:8787)\n')
    expectUsage(await runCli(['tool', 'list', '--url', 'ftp://127.0.0.1/']), 'error: the target URL must be http: or https:, not ftp:\n')
  })

  it('prints help on stdout with exit 0, and the version', async () => {
    const help = await runCli(['tool', 'invoke', '--help'])
    expect(help.code).toBe(0)
    for (const option of ['--input <json>', '--input-file <path>', '--approval-token <token>', '--sensitive-input-field <path>', '--workspace <id>', '--url <url>', '--socket <path>', '--catalog <module>', '-o, --output <format>']) {
      expect(help.stdout).toContain(option)
    }
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' })
    const bare = await runCli([])
    expect(bare.code).toBe(2)
    expect(bare.stderr).toContain('Usage: result-views')
  })
})
