// The real command as a child process (src/cli/bin.ts run by tsx, as `npx tsx src/cli/bin.ts`):
// exit codes, stdout and stdin cross a real process boundary. Every child is stopped by its PID in
// the teardown, also when a test fails.
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startExampleServers, type ExampleServers } from '../../examples/http-server.js'

const repoRoot = fileURLToPath(new URL('../../', import.meta.url))
const children = new Set<ChildProcess>()
let servers: ExampleServers

beforeAll(async () => {
  servers = await startExampleServers()
})
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL')
  await servers.close()
})

/** Runs the command in a child process; resolves with its exit code and output. */
function command(argv: readonly string[], stdin?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME }
    if (process.env.TSX_TSCONFIG_PATH !== undefined) env.TSX_TSCONFIG_PATH = process.env.TSX_TSCONFIG_PATH
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...argv], { cwd: repoRoot, env, stdio: 'pipe' })
    children.add(child)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
    child.on('error', fail)
    child.on('close', (code) => {
      children.delete(child)
      done({ code, stdout, stderr })
    })
    child.stdin.end(stdin)
  })
}

describe('the result-views command in a child process', () => {
  it('runs the spec\'s lines against a server: exit 0 with JSON, 1 with the structured error, 2 for usage, 3 when pending', async () => {
    const [ok, failed, usage, pending] = await Promise.all([
      command(['tool', 'invoke', 'compozy__session_status', '--input', '{"session_id":"sess-example"}', '-o', 'json', '--url', servers.url]),
      command(['tool', 'invoke', 'compozy__session_status', '-o', 'json', '--socket', servers.socket], '{"session_id":"sess-example","result_view":"huge"}'),
      command(['tool', 'invoke', 'compozy__session_status', '--inptu', '{}', '--url', servers.url]),
      command(['tool', 'invoke', 'compozy__session_create', '--input', '{"agent_name":"general"}', '--workspace', 'ws_example', '--profile', 'prof_default', '-o', 'json', '--url', servers.url]),
    ])
    expect(ok.code).toBe(0)
    expect(JSON.parse(ok.stdout).result.structured.session.id).toBe('sess-example')
    expect(failed).toEqual({ code: 1, stdout: '{"error":{"code":"tool_invalid_input","reason":"schema_invalid","message":"invalid tool request","details":{"issues":[{"pointer":"/result_view","keyword":"enum","expected":"one of \\"compact\\", \\"full\\""}]}}}\n', stderr: '' })
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('(Did you mean --input?)')
    expect(pending.code).toBe(3)
    expect(JSON.parse(pending.stdout).approval_id).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('runs a catalog module in process with --catalog', async () => {
    const run = await command(['tool', 'info', 'compozy__session_status', '--catalog', 'test/cli/fixtures/tools-default.ts', '-o', 'json'])
    expect(run.code).toBe(0)
    expect(Object.keys(JSON.parse(run.stdout).tool.descriptor.output_views)).toEqual(['compact', 'full'])
  })
  it('cli-catalog-unsettled-handler-exit-13: a never-settling handler or module load ends after --timeout-ms with exit 1 or 2, not 13', async () => {
    const [call, load] = await Promise.all([
      command(['tool', 'invoke', 'hang', '--catalog', 'test/cli/fixtures/hang-handler.ts', '--input', '{}', '--timeout-ms', '300', '-o', 'json']),
      command(['tool', 'list', '--catalog', 'test/cli/fixtures/hang-on-load.ts', '--timeout-ms', '300', '-o', 'json']),
    ])
    expect(call).toEqual({ code: 1, stdout: '{"error":{"code":"cli_target_unavailable","reason":"timeout","message":"the catalog did not answer within 300 ms"}}\n', stderr: '' })
    expect(load).toEqual({ code: 2, stdout: '', stderr: 'error: cannot load --catalog test/cli/fixtures/hang-on-load.ts: it did not finish loading within 300 ms\n' })
  })
})
