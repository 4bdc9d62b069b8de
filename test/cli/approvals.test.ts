// `result-views approvals show|resolve|cancel` and `result-views tool approvals set|list|revoke`
// against the example server (spec 001 "Pending command-palette approvals", "Remembered
// native-tool decisions"), run in process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startExampleServers, type ExampleServers } from '../../examples/http-server.js'
import { jsonOf, runCli } from './support.js'

let servers: ExampleServers
let url: string[]
beforeAll(async () => {
  servers = await startExampleServers()
  url = ['--url', servers.url]
})
afterAll(() => servers.close())

async function openApproval(name: string): Promise<string> {
  const run = await runCli(['tool', 'invoke', 'compozy__session_create', '--input', JSON.stringify({ agent_name: 'general', name }), '--workspace', 'ws_example', '--agent', 'general', '--profile', 'prof_default', '-o', 'json', ...url])
  expect(run.code).toBe(3)
  return jsonOf(run).approval_id
}

describe('approvals show | resolve | cancel', () => {
  it('shows, resolves and shows again as the owner (the spec\'s three lines)', async () => {
    const id = await openApproval('Fix flaky upload test')
    const before = await runCli(['approvals', 'show', id, '--profile', 'prof_default', '-o', 'json', ...url])
    expect(before.code).toBe(0)
    expect(jsonOf(before).approval).toMatchObject({ approval_id: id, status: 'pending', input: { agent_name: 'general', name: 'Fix flaky upload test' } })
    const resolved = await runCli(['approvals', 'resolve', id, '--decision', 'approved', '--profile', 'prof_default', '-o', 'json', ...url])
    expect(resolved.code).toBe(0)
    expect(jsonOf(resolved).approval).toMatchObject({ status: 'approved', execution_status: 'completed', outcome: { status: 'ok', result_view: 'compact' } })
    const after = await runCli(['approvals', 'show', id, '--profile', 'prof_default', '-o', 'text', ...url])
    expect(after.stdout).toMatch(new RegExp(`^approval ${id}: approved, completed \\(tool compozy__session_create, expires [^)]+\\)\\n {2}result \\(compact view\\): sess-[a-z-]+\\n$`))
  })

  it('exits 1 when another profile asks, when the approval is decided already, and for an unknown ID', async () => {
    const id = await openApproval('Owned')
    const stranger = await runCli(['approvals', 'resolve', id, '--decision', 'approved', '--profile', 'prof_other', '-o', 'json', ...url])
    expect(stranger.code).toBe(1)
    expect(jsonOf(stranger)).toEqual({ error: { code: 'approval_forbidden', reason: 'profile_mismatch', message: 'tool invocation denied' } })
    expect((await runCli(['approvals', 'resolve', id, '--decision', 'denied', '--profile', 'prof_default', '-o', 'json', ...url])).code).toBe(0)
    const again = await runCli(['approvals', 'resolve', id, '--decision', 'approved', '--profile', 'prof_default', '-o', 'text', ...url])
    expect(again).toEqual({ code: 1, stdout: '', stderr: 'error: tool invocation denied (approval_state/approval_resolved)\n' })
    const unknown = await runCli(['approvals', 'show', 'no-such-approval', '--profile', 'prof_default', '-o', 'json', ...url])
    expect(jsonOf(unknown).error.code).toBe('approval_not_found')
  })

  it('cancels, and --no-wait answers at dispatching', async () => {
    const canceled = await runCli(['approvals', 'cancel', await openApproval('Cancel'), '--profile', 'prof_default', '-o', 'json', ...url])
    expect(jsonOf(canceled).approval.status).toBe('canceled')
    const id = await openApproval('No wait')
    const dispatching = await runCli(['approvals', 'resolve', id, '--decision', 'approved', '--no-wait', '--profile', 'prof_default', '-o', 'json', '--socket', servers.socket])
    expect(jsonOf(dispatching).approval.execution_status).toBe('dispatching')
    await expect.poll(async () => jsonOf(await runCli(['approvals', 'show', id, '--profile', 'prof_default', '-o', 'json', ...url])).approval.execution_status).toBe('completed')
  })

  it('exits 2 without --profile, or with a --decision that is neither approved nor denied', async () => {
    const id = await openApproval('Usage')
    const noProfile = await runCli(['approvals', 'show', id, ...url])
    expect(noProfile.code).toBe(2)
    expect(noProfile.stderr).toContain("required option '--profile <owner>' not specified")
    const badDecision = await runCli(['approvals', 'resolve', id, '--decision', 'yes', '--profile', 'prof_default', ...url])
    expect(badDecision.code).toBe(2)
    expect(badDecision.stderr).toContain('Allowed choices are approved, denied')
  })
})

describe('tool approvals set | list | revoke', () => {
  it('sets an agent-scope allow and a tool-scope reject, lists them, and revokes one (the spec\'s four lines)', async () => {
    const allow = await runCli(['tool', 'approvals', 'set', 'compozy__session_spawn', '--workspace', 'ws_example', '--decision', 'allow', '--scope', 'agent', '--agent', 'claude-code', '-o', 'json', ...url])
    expect(allow.code).toBe(0)
    expect(jsonOf(allow).grant).toMatchObject({ tool_id: 'compozy__session_spawn', scope: 'agent', agent_name: 'claude-code', decision: 'allow' })
    const reject = await runCli(['tool', 'approvals', 'set', 'compozy__session_archive', '--workspace', 'ws_example', '--decision', 'reject', '--scope', 'tool', '-o', 'text', ...url])
    expect(reject.stdout).toMatch(/^[0-9a-f-]{36} {2}reject compozy__session_archive for every agent \(tool scope, management\)\n$/)

    const listed = await runCli(['tool', 'approvals', 'list', '--workspace', 'ws_example', '-o', 'json', ...url])
    expect(jsonOf(listed).grants.map((grant: { tool_id: string }) => grant.tool_id).sort()).toEqual(['compozy__session_archive', 'compozy__session_spawn'])
    const grantId = jsonOf(allow).grant.grant_id
    const revoked = await runCli(['tool', 'approvals', 'revoke', grantId, '--workspace', 'ws_example', '-o', 'json', ...url])
    expect(jsonOf(revoked)).toEqual({ revoked: true, grant_id: grantId })
    const again = await runCli(['tool', 'approvals', 'revoke', grantId, '--workspace', 'ws_example', '-o', 'json', ...url])
    expect(again.code).toBe(1)
    expect(jsonOf(again)).toEqual({ error: { code: 'approval_not_found', reason: 'unknown_grant', message: 'invalid tool request' } })
    const text = await runCli(['tool', 'approvals', 'list', '--workspace', 'ws-empty', '-o', 'text', ...url])
    expect(text.stdout).toBe('no remembered decisions in workspace ws-empty\n')
  })

  it('exits 1 for agent scope without --agent and tool scope with one, 2 without --workspace', async () => {
    const noAgent = await runCli(['tool', 'approvals', 'set', 'compozy__session_spawn', '--workspace', 'ws_example', '--decision', 'allow', '--scope', 'agent', '-o', 'json', ...url])
    expect(noAgent.code).toBe(1)
    expect(jsonOf(noAgent).error).toEqual({ code: 'approval_request_invalid', reason: 'agent_name_required', message: 'invalid tool request' })
    const withAgent = await runCli(['tool', 'approvals', 'set', 'compozy__session_spawn', '--workspace', 'ws_example', '--decision', 'allow', '--scope', 'tool', '--agent', 'x', '-o', 'json', ...url])
    expect(jsonOf(withAgent).error.reason).toBe('agent_name_forbidden')
    expect((await runCli(['tool', 'approvals', 'list', ...url])).code).toBe(2)
  })

  it('exits 1 with tool_not_found for a tool the catalog does not have (regression: a grant that could never match)', async () => {
    const unknown = await runCli(['tool', 'approvals', 'set', 'compozy__session_spwan', '--workspace', 'ws_cli_unknown', '--decision', 'reject', '--scope', 'tool', '-o', 'json', ...url])
    expect(unknown.code).toBe(1)
    expect(jsonOf(unknown)).toEqual({ error: { code: 'tool_not_found', reason: 'unknown_tool', message: 'invalid tool request' } })
    const listed = await runCli(['tool', 'approvals', 'list', '--workspace', 'ws_cli_unknown', '-o', 'json', ...url])
    expect(jsonOf(listed)).toEqual({ grants: [] })
  })
})
