/**
 * The spec's CLI lines (spec 000 "CLI", spec 001 "Policy and Invocation") run through the real
 * `result-views` command against `examples/http-server.ts`: compact and full
 * `compozy__session_status` through a `jq`-style selection, `tool info … output_views`, an
 * approval token, a pending approval resolved by its owner, a remembered grant set, listed and
 * revoked, and the same server over its Unix socket.
 *
 * Run alone: `npx tsx examples/http-cli.ts` (or all examples: `npm run demo`). It starts the
 * server in a child process, runs each command as `node --import tsx src/cli/bin.ts …` (what an
 * installed package runs as `result-views …`), and stops the server by its PID, also when a step
 * fails. `jq` need not be installed: the selection is done here, and its command line is shown.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { MintApprovalTokenRequest } from 'result-views'
import { EXAMPLE_SCOPE } from './http-server.js'
import { heading, json, line } from './print.js'

/** What one command run gave. */
export interface CommandRun {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** How the demo runs the command and gets an approval token (a child process and IPC here; in process in its test). */
export interface DemoDriver {
  run(argv: readonly string[], env?: Readonly<Record<string, string>>): Promise<CommandRun>
  mint(request: MintApprovalTokenRequest): Promise<string>
}

const SCOPE_FLAGS = ['--workspace', EXAMPLE_SCOPE.workspace_id, '--session', EXAMPLE_SCOPE.session_id, '--agent', EXAMPLE_SCOPE.agent_name, '--profile', EXAMPLE_SCOPE.profile_id]

/** Runs the demo's command lines against a server at `url` (and `socket`), checking each exit code. */
export async function cliDemo(driver: DemoDriver, target: { url: string; socket: string }): Promise<void> {
  const at = ['--url', target.url]
  /** Prints `$ result-views <argv> [| jq '<filter>']`, runs it, prints the selection and the exit code; throws on another exit code. */
  async function step(argv: readonly string[], expected: number, select?: { filter: string; pick: (value: any) => unknown }, env?: Record<string, string>): Promise<any> {
    const shown = argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`)).join(' ')
    const prefix = env === undefined ? '' : `${Object.keys(env).map((name) => `${name}=…`).join(' ')} `
    line(`$ ${prefix}result-views ${shown}${select === undefined ? '' : ` | jq '${select.filter}'`}`)
    const run = await driver.run([...argv, ...at], env)
    const parsed = run.stdout.trim().startsWith('{') ? JSON.parse(run.stdout) : undefined
    const output = select !== undefined && parsed !== undefined ? json(select.pick(parsed)) : run.stdout.trimEnd()
    if (output.length > 0) line(output.length > 400 ? `${output.slice(0, 400)}…` : output)
    if (run.stderr.length > 0) line(run.stderr.trimEnd())
    line(`# exit ${run.code}`)
    if (run.code !== expected) throw new Error(`expected exit ${expected}, got ${run.code}: ${run.stderr}`)
    return parsed
  }

  heading('Choose a result view (spec 000 "CLI"): the selector travels inside --input')
  await step(['tool', 'invoke', 'compozy__session_status', '--input', '{"session_id":"sess-example"}', '-o', 'json'], 0, { filter: '.result.structured', pick: (v) => v.result.structured })
  await step(['tool', 'invoke', 'compozy__session_status', '--input', '{"session_id":"sess-example","result_view":"full"}', '-o', 'json'], 0, { filter: '.result.structured.session | keys', pick: (v) => Object.keys(v.result.structured.session) })
  await step(['tool', 'info', 'compozy__session_status', '-o', 'json'], 0, { filter: '.tool.descriptor.output_views | keys', pick: (v) => Object.keys(v.tool.descriptor.output_views).sort() })
  await step(['tool', 'invoke', 'compozy__skill_view', '--input', '{"skill_id":"testing","result_view":"full"}', '-o', 'json'], 1)

  heading('Scoped diagnostics (spec 001): what a managed session in that scope would get')
  await step(['tool', 'info', 'compozy__session_archive', '--workspace', 'ws_example', '--session', 'sess-example', '--agent', 'general', '-o', 'json'], 0, { filter: '.tool.diagnostics', pick: (v) => v.tool.diagnostics })

  heading('An approval token: minted for the input, handed over in the environment, used once')
  const archive = { session_id: 'sess-example' }
  const token = await driver.mint({ tool_id: 'compozy__session_archive', scope: EXAMPLE_SCOPE, input: archive, ttlMs: 60_000 })
  const withToken = ['tool', 'invoke', 'compozy__session_archive', '--input', JSON.stringify(archive), ...SCOPE_FLAGS, '-o', 'json']
  await step(withToken, 0, { filter: '.result.structured.session.archived_at', pick: (v) => v.result.structured.session.archived_at }, { RESULT_VIEWS_APPROVAL_TOKEN: token })
  await step(withToken, 1, undefined, { RESULT_VIEWS_APPROVAL_TOKEN: token })

  heading('A pending approval (spec 001): the call waits (exit 3); its owner shows and resolves it')
  const create = ['tool', 'invoke', 'compozy__session_create', '--input', '{"agent_name":"general","name":"Fix flaky upload test"}', ...SCOPE_FLAGS, '-o', 'json']
  const { approval_id: id } = await step(create, 3)
  await step(['approvals', 'show', id, '--profile', 'prof_default', '-o', 'json'], 0, { filter: '.approval.status', pick: (v) => v.approval.status })
  await step(['approvals', 'resolve', id, '--decision', 'approved', '--profile', 'prof_other', '-o', 'json'], 1)
  await step(['approvals', 'resolve', id, '--decision', 'approved', '--profile', 'prof_default', '-o', 'json'], 0, { filter: '.approval.execution_status', pick: (v) => v.approval.execution_status })
  await step(['approvals', 'show', id, '--profile', 'prof_default', '-o', 'text'], 0)

  heading('Remembered decisions (spec 001): set an agent-scope allow, list it, use it, revoke it')
  const { grant } = await step(['tool', 'approvals', 'set', 'compozy__session_spawn', '--workspace', 'ws_example', '--decision', 'allow', '--scope', 'agent', '--agent', 'general', '-o', 'json'], 0, { filter: '.grant.grant_id', pick: (v) => v.grant.grant_id })
  await step(['tool', 'approvals', 'list', '--workspace', 'ws_example', '-o', 'text'], 0)
  await step(['tool', 'invoke', 'compozy__session_spawn', '--input', '{"agent_name":"general","ttl_seconds":3600}', ...SCOPE_FLAGS, '-o', 'json'], 0, { filter: '.result.structured', pick: (v) => v.result.structured })
  await step(['tool', 'approvals', 'revoke', grant.grant_id, '--workspace', 'ws_example', '-o', 'json'], 0)
  await step(['tool', 'invoke', 'compozy__session_spawn', '--input', '{"agent_name":"general","ttl_seconds":3600}', ...SCOPE_FLAGS, '-o', 'json'], 3)

  heading('The same server over its Unix socket')
  line(`$ result-views tool list --socket ${target.socket} -o text`)
  const overSocket = await driver.run(['tool', 'list', '--socket', target.socket, '-o', 'text'])
  line(overSocket.stdout.trimEnd())
  if (overSocket.code !== 0) throw new Error(`tool list over the socket exited ${overSocket.code}`)
}

const here = fileURLToPath(new URL('.', import.meta.url))
const repoRoot = resolve(here, '..')

/** Runs `node --import tsx src/cli/bin.ts <argv>` with only the given environment (plus PATH). */
function commandRun(argv: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<CommandRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...argv], { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
    child.on('error', fail)
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }))
  })
}

/** Starts examples/http-server.ts with an IPC channel; resolves once it listens. */
function startServer(): Promise<{ child: ChildProcess; url: string; socket: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/http-server.ts'], { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    child.once('error', fail)
    child.once('exit', (code) => fail(new Error(`the example server exited early (${code})`)))
    child.on('message', (message: { ready?: { url: string; socket: string } }) => {
      if (message.ready !== undefined) done({ child, ...message.ready })
    })
  })
}

async function main(): Promise<void> {
  const server = await startServer()
  line(`example server: ${server.url} and ${server.socket} (pid ${server.child.pid})`)
  const mint = (request: MintApprovalTokenRequest): Promise<string> =>
    new Promise((done, fail) => {
      server.child.once('message', (message: { token?: string; error?: string }) => (message.token === undefined ? fail(new Error(message.error)) : done(message.token)))
      server.child.send({ mint: request })
    })
  try {
    await cliDemo({ run: commandRun, mint }, server)
  } finally {
    server.child.removeAllListeners('exit')
    if (server.child.pid !== undefined) process.kill(server.child.pid, 'SIGTERM')
    line(`\nstopped the example server (pid ${server.child.pid})`)
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exit(1)
  })
}
