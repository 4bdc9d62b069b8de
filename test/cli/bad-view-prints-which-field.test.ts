// The command printed `error: invalid tool request (tool_invalid_input/schema_invalid)` with no hint
// which field: it now prints the input's problems and the approval hint under the fixed message,
// and a tool's reported error with its own message (exit 1).
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { jsonOf, runCli } from './support.js'
import { SECRET } from '../support/surface-tools.js'

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url))
const invoke = (tool: string, input: unknown, ...rest: string[]) => runCli(['tool', 'invoke', tool, '--input', JSON.stringify(input), '--catalog', 'surface-errors.ts', ...rest], { cwd: fixtures })

describe('the command shows what a caller can act on', () => {
  it('prints which field of a bad view is wrong, under the fixed message', async () => {
    const text = await invoke('tickets__get', { ticket_id: 'T-1', result_view: 'huge' }, '-o', 'text')
    expect(text).toEqual({ code: 1, stdout: '', stderr: 'error: invalid tool request (tool_invalid_input/schema_invalid)\n  /result_view: expected one of "compact", "full" (enum)\n' })
    const json = await invoke('tickets__get', { ticket_id: 'T-1', result_view: 'huge' }, '-o', 'json')
    expect(jsonOf(json)).toEqual({ error: { code: 'tool_invalid_input', reason: 'schema_invalid', message: 'invalid tool request', details: { issues: [{ pointer: '/result_view', keyword: 'enum', expected: 'one of "compact", "full"' }] } } })
  })

  it('lists each schema problem, never the value, nor a sensitive one', async () => {
    const run = await invoke('tickets__get', { ticket_id: 'T-123456789', bogus: 1, secret_ref: { [SECRET]: SECRET } }, '-o', 'text')
    expect(run.code).toBe(1)
    expect(run.stderr.split('\n')).toEqual([
      'error: invalid tool request (tool_invalid_input/schema_invalid)',
      '  (the input): expected no property "bogus" (additionalProperties)',
      '  /ticket_id: expected must NOT have more than 8 characters (maxLength)',
      '  /secret_ref: expected type string (type)',
      '',
    ])
    expect(run.stderr).not.toContain('T-123456789')
    expect(run.stderr).not.toContain('XYZ123')
  })

  it('says how to get an approval', async () => {
    const run = await invoke('tickets__close', { ticket_id: 'T-1' }, '--workspace', 'ws', '-o', 'text')
    expect(run).toEqual({
      code: 1, stdout: '',
      stderr: 'error: tool invocation denied (tool_denied/approval_required)\n  hint: pass --approval-token (or set RESULT_VIEWS_APPROVAL_TOKEN), or --profile <id> so that the call opens a pending approval\n',
    })
  })

  it('prints the message of an error the tool reports, scrubbed, and exits 1', async () => {
    const run = await invoke('tickets__get', { ticket_id: 'T-1', outcome: 'resource_not_found', reason: 'ticket_not_found', secret_ref: SECRET }, '-o', 'text')
    expect(run).toEqual({ code: 1, stdout: '', stderr: 'error: ticket "T-1" cannot be read with [REDACTED] (resource_not_found/ticket_not_found)\n' })
    const json = await invoke('tickets__get', { ticket_id: 'T-1', outcome: 'resource_conflict' }, '-o', 'json')
    expect(jsonOf(json)).toEqual({ error: { code: 'resource_conflict', reason: 'conflict', message: 'ticket "T-1" cannot be read with ' } })
    const unmarked = await invoke('tickets__get', { ticket_id: 'T-1', outcome: 'unmarked' }, '-o', 'json')
    expect(jsonOf(unmarked)).toEqual({ error: { code: 'tool_execution_failed', reason: 'ticket_not_found', message: 'tool invocation failed' } })
  })
})
