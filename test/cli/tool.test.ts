// `result-views tool invoke|info|list` against the example server over loopback TCP (--url) and a
// Unix socket (--socket), run in process: the spec's CLI lines, their JSON and their exit codes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXAMPLE_SCOPE, exampleHttpDispatcher, startExampleServers, type ExampleServers } from '../../examples/http-server.js'
import { jsonOf, runCli } from './support.js'

const dispatcher = exampleHttpDispatcher()
let servers: ExampleServers
let dir: string
let url: string[]
beforeAll(async () => {
  servers = await startExampleServers(dispatcher)
  url = ['--url', servers.url]
  dir = mkdtempSync(join(tmpdir(), 'rv-cli-test-'))
})
afterAll(async () => {
  await servers.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('tool invoke', () => {
  it("prints { result: { structured, preview }, result_view } so that jq '.result.structured' selects the record (spec 000 CLI)", async () => {
    const compact = await runCli(['tool', 'invoke', 'compozy__session_status', '--input', '{"session_id":"sess-example"}', '-o', 'json', ...url])
    expect(compact.code).toBe(0)
    expect(compact.stderr).toBe('')
    expect(Object.keys(jsonOf(compact))).toEqual(['result', 'result_view'])
    expect(jsonOf(compact).result.structured.session).toMatchObject({ id: 'sess-example', agent_name: 'general', state: 'active' })
    expect(jsonOf(compact).result.structured.session.supervision).toBeUndefined()
    const full = await runCli(['tool', 'invoke', 'compozy__session_status', '--input', '{"session_id":"sess-example","result_view":"full"}', '-o', 'json', ...url])
    expect(jsonOf(full).result_view).toBe('full')
    expect(jsonOf(full).result.structured.session).toHaveProperty('supervision')
    expect(jsonOf(full).result.structured.session.lineage).toHaveProperty('permission_policy')
  })

  it('reads the input inline, from a file and from stdin, with the same answer (spec 001 CLI invocation)', async () => {
    const file = join(dir, 'input.json')
    writeFileSync(file, '{"tool_id":"compozy__skill_view"}\n')
    const inline = await runCli(['tool', 'invoke', 'compozy__tool_info', '--input', '{"tool_id":"compozy__skill_view"}', '-o', 'json', ...url])
    const fromFile = await runCli(['tool', 'invoke', 'compozy__tool_info', '--input-file', 'input.json', '-o', 'json', ...url], { cwd: dir })
    const fromStdin = await runCli(['tool', 'invoke', 'compozy__tool_info', '-o', 'json', ...url], { stdin: '{"tool_id":"compozy__skill_view"}' })
    const fromDash = await runCli(['tool', 'invoke', 'compozy__tool_info', '--input-file', '-', '-o', 'json', ...url], { stdin: '{"tool_id":"compozy__skill_view"}' })
    for (const run of [inline, fromFile, fromStdin, fromDash]) {
      expect(run.code).toBe(0)
      expect(run.stdout).toBe(inline.stdout)
    }
    expect(jsonOf(inline).result.structured.tool.descriptor.tool_id).toBe('compozy__skill_view')
  })

  it('talks to the same server over its Unix socket, and takes the target from the environment', async () => {
    const argv = ['tool', 'invoke', 'compozy__session_status', '--input', '{"session_id":"sess-example"}', '-o', 'json']
    const viaSocket = await runCli([...argv, '--socket', servers.socket])
    const viaUrlEnv = await runCli(argv, { env: { RESULT_VIEWS_URL: servers.url } })
    const viaSocketEnv = await runCli(argv, { env: { RESULT_VIEWS_SOCKET: servers.socket } })
    const viaUrl = await runCli([...argv, ...url])
    for (const run of [viaSocket, viaUrlEnv, viaSocketEnv]) expect(run).toEqual(viaUrl)
  })

  it('exits 1 with the structured error on stdout, its message redacted (spec 000 "Errors")', async () => {
    const rows = [
      ['compozy__session_status', '{"session_id":"sess-example","result_view":"huge"}', { code: 'tool_invalid_input', reason: 'schema_invalid', message: 'invalid tool request', details: { issues: [{ pointer: '/result_view', keyword: 'enum', expected: 'one of "compact", "full"' }] } }],
      ['compozy__skill_view', '{"skill_id":"testing","result_view":"full"}', { code: 'tool_invalid_input', reason: 'schema_invalid', message: 'invalid tool request', details: { issues: [{ pointer: '/result_view', keyword: 'result_view', expected: 'no "result_view": the tool returns a single result' }] } }],
      ['compozy__nope', '{}', { code: 'tool_not_found', reason: 'unknown_tool', message: 'invalid tool request' }],
      ['compozy__skill_view', '{"skill_id":"missing"}', { code: 'tool_execution_failed', reason: 'handler_failed', message: 'tool invocation failed' }],
    ] as const
    for (const [tool, input, error] of rows) {
      const run = await runCli(['tool', 'invoke', tool, '--input', input, '-o', 'json', ...url])
      expect(run.code, tool).toBe(1)
      expect(jsonOf(run)).toEqual({ error })
      expect(run.stderr).toBe('')
    }
  })

  it('prints errors as one short line on stderr under -o text, and -o text is the default on a terminal', async () => {
    const argv = ['tool', 'invoke', 'compozy__session_status', '--input', '{"session_id":"sess-example","result_view":1}', ...url]
    const text = await runCli([...argv, '-o', 'text'])
    expect(text).toEqual({ code: 1, stdout: '', stderr: 'error: invalid tool request (tool_invalid_input/schema_invalid)\n  /result_view: expected one of "compact", "full" (enum)\n' })
    expect(await runCli(argv, { tty: true })).toEqual(text)
    const ok = await runCli(['tool', 'invoke', 'compozy__session_status', '--input', '{"session_id":"sess-example"}', ...url], { tty: true })
    expect(ok.code).toBe(0)
    expect(ok.stdout.split('\n')[0]).toBe('compozy__session_status (compact view): sess-example')
  })

  it('exits 3 with the approval ID for a call that waits on an approval', async () => {
    const run = await runCli(['tool', 'invoke', 'compozy__session_create', '--input', '{"agent_name":"general","name":"Pending"}', '--workspace', 'ws_example', '--session', 'sess-example', '--agent', 'general', '--profile', 'prof_default', '-o', 'json', ...url])
    expect(run.code).toBe(3)
    const { approval_id } = jsonOf(run)
    expect(Object.keys(jsonOf(run))).toEqual(['approval_id'])
    const shown = await dispatcher.approvals.show(approval_id, { profile_id: 'prof_default' })
    expect(shown.scope).toEqual(EXAMPLE_SCOPE)
    const text = await runCli(['tool', 'invoke', 'compozy__session_create', '--input', '{"agent_name":"general","name":"Pending"}', '--workspace', 'ws_example', '--profile', 'prof_default', '-o', 'text', ...url])
    expect(text.code).toBe(3)
    expect(text.stdout).toMatch(/^approval pending: [0-9a-f-]{36}\n/)
  })

  it('sends an approval token from --approval-token or RESULT_VIEWS_APPROVAL_TOKEN and never prints it', async () => {
    const input = { session_id: 'sess-example' }
    const scopeFlags = ['--workspace', 'ws_example', '--session', 'sess-example', '--agent', 'general', '--profile', 'prof_default']
    const argv = ['tool', 'invoke', 'compozy__session_archive', '--input', JSON.stringify(input), ...scopeFlags, '-o', 'json', ...url]
    const first = (await dispatcher.approvals.mintApprovalToken({ tool_id: 'compozy__session_archive', scope: EXAMPLE_SCOPE, input })).token
    const byFlag = await runCli([...argv, '--approval-token', first])
    expect(byFlag.code).toBe(0)
    const replay = await runCli([...argv, `--approval-token=${first}`])
    expect(replay.code).toBe(1)
    expect(jsonOf(replay)).toEqual({ error: { code: 'approval_invalid', reason: 'token_replayed', message: 'tool invocation denied' } })
    const second = (await dispatcher.approvals.mintApprovalToken({ tool_id: 'compozy__session_archive', scope: EXAMPLE_SCOPE, input })).token
    const byEnv = await runCli(argv, { env: { RESULT_VIEWS_APPROVAL_TOKEN: second } })
    expect(byEnv.code).toBe(0)
    const mistyped = await runCli([...argv, `--approval-tokn=${second}`])
    expect(mistyped.code).toBe(2)
    for (const run of [byFlag, replay, byEnv, mistyped]) expect(run.stdout + run.stderr).not.toMatch(new RegExp(`${first}|${second}`))
  })

  it('keeps every repeat of --sensitive-input-field', async () => {
    const run = await runCli([
      'tool', 'invoke', 'compozy__session_create',
      '--input', '{"agent_name":"general","name":"secret-name","workspace_id":"secret-ws"}',
      '--sensitive-input-field', 'name', '--sensitive-input-field', 'workspace_id',
      '--workspace', 'ws_example', '--profile', 'prof_default', '-o', 'json', ...url,
    ])
    expect(run.code).toBe(3)
    const shown = await dispatcher.approvals.show(jsonOf(run).approval_id, { profile_id: 'prof_default' })
    expect(shown.input).toEqual({ agent_name: 'general', name: '[REDACTED]', workspace_id: '[REDACTED]' })
  })
})

describe('tool info and tool list', () => {
  it("prints { tool: { descriptor } } (jq '.tool.descriptor.output_views | keys' is [\"compact\",\"full\"])", async () => {
    const run = await runCli(['tool', 'info', 'compozy__session_status', '-o', 'json', ...url])
    expect(run.code).toBe(0)
    expect(Object.keys(jsonOf(run).tool)).toEqual(['descriptor'])
    expect(Object.keys(jsonOf(run).tool.descriptor.output_views).sort()).toEqual(['compact', 'full'])
    expect(jsonOf(run).tool.descriptor).toEqual(JSON.parse(JSON.stringify(dispatcher.describe('compozy__session_status'))))
  })

  it('adds scoped diagnostics with --workspace --session --agent (spec 001 "Scoped diagnostics")', async () => {
    const run = await runCli(['tool', 'info', 'compozy__skill_view', '--workspace', 'ws-1', '--session', 'sess-1', '--agent', 'reviewer', '-o', 'json', ...url])
    expect(jsonOf(run).tool.diagnostics).toEqual({ scope: { workspace_id: 'ws-1', session_id: 'sess-1', agent_name: 'reviewer' }, callable: true, status: 'callable' })
    expect(jsonOf(run).tool.descriptor.output_views).toBeUndefined()
    const text = await runCli(['tool', 'info', 'compozy__session_create', '--workspace', 'ws-1', '-o', 'text', ...url])
    expect(text.stdout).toMatch(/^compozy__session_create\n {2}Create a session\..*\n {2}views: compact \(digest [0-9a-f]{12}\), full \(digest [0-9a-f]{12}\)\n {2}no approval declared, risk write, writes\n {2}in scope \{"workspace_id":"ws-1"\}: approval_required by agent:workspace-default: not_read_only; approve with: token, grant\n$/)
    const grant = await dispatcher.approvals.setGrant({ workspace_id: 'ws-cli-grant', tool_id: 'compozy__session_create', decision: 'allow', scope: 'tool' })
    const granted = await runCli(['tool', 'info', 'compozy__session_create', '--workspace', 'ws-cli-grant', '-o', 'text', ...url])
    expect(granted.stdout.trim().split('\n').at(-1)).toBe(`  in scope {"workspace_id":"ws-cli-grant"}: callable by agent:workspace-default: not_read_only; remembered allow ${grant.grant_id} (tool scope)`)
    const unknown = await runCli(['tool', 'info', 'compozy__nope', '-o', 'json', ...url])
    expect(unknown.code).toBe(1)
    expect(jsonOf(unknown)).toEqual({ error: { code: 'tool_not_found', reason: 'unknown_tool', message: 'invalid tool request' } })
  })

  it('lists every tool, as JSON or one line each', async () => {
    const json = await runCli(['tool', 'list', '-o', 'json', ...url])
    expect(jsonOf(json).tools.map((tool: { tool_id: string }) => tool.tool_id)).toEqual(dispatcher.list().map((tool) => tool.tool_id))
    const text = await runCli(['tool', 'list', '-o', 'text', '--agent', 'general', ...url])
    expect(text.stdout.trim().split('\n')).toEqual([
      'compozy__session_status   [compact, full]  callable',
      'compozy__session_create   [compact, full]  approval_required',
      'compozy__session_archive  [compact, full]  approval_required',
      'compozy__session_spawn    [compact, full]  approval_required',
      'compozy__skill_view       [single result]  callable',
      'compozy__skill_list       [compact, full]  callable',
      'compozy__skill_search     [compact, full]  callable',
      'compozy__tool_info        [single result]  callable',
    ])
  })
})
