import { Option, type Command } from 'commander'
import type { CliContext } from '../context.js'
import { isRecord } from '../../json/guards.js'
import { addTargetOptions, type TargetOptions } from '../target-options.js'
import { apiPath } from '../target.js'

interface ApprovalOptions extends TargetOptions {
  readonly profile: string
  readonly decision?: 'approved' | 'denied'
  readonly wait: boolean
}

/**
 * `result-views approvals show|resolve|cancel <approval-id> --profile <owner>` (`docs/cli.md`
 * "`approvals show | resolve | cancel`"): `GET /tools/approvals/{id}`, `POST …/resolve`, `POST …/cancel`.
 */
export function registerApprovalCommands(program: Command, cli: CliContext): void {
  const approvals = program.command('approvals').description('show, resolve or cancel a pending approval (as the profile that created it)')
  const owned = (name: string, description: string): Command =>
    addTargetOptions(approvals.command(`${name} <approval-id>`))
      .description(description)
      .requiredOption('--profile <owner>', 'the profile that created the approval')

  owned('show', 'a pending approval: its tool, input (sensitive fields redacted), status and, once run, its outcome').action(
    cli.action((id: string, options: ApprovalOptions, command: Command) =>
      cli.send(options, command, { method: 'GET', path: apiPath('tools', 'approvals', id), query: { profile: options.profile } }, approvalText),
    ),
  )

  owned('resolve', 'approve (the call runs under the current policy) or deny a pending approval')
    .addOption(new Option('--decision <decision>', 'approved or denied').choices(['approved', 'denied']).makeOptionMandatory())
    .option('--no-wait', 'answer once the decision is recorded (execution_status dispatching) instead of once the call has run')
    .action(
      cli.action((id: string, options: ApprovalOptions, command: Command) => {
        const body = options.wait ? { decision: options.decision } : { decision: options.decision, wait: false }
        return cli.send(options, command, { method: 'POST', path: apiPath('tools', 'approvals', id, 'resolve'), query: { profile: options.profile }, body }, approvalText)
      }),
    )

  owned('cancel', 'cancel a pending approval: it never runs').action(
    cli.action((id: string, options: ApprovalOptions, command: Command) =>
      cli.send(options, command, { method: 'POST', path: apiPath('tools', 'approvals', id, 'cancel'), query: { profile: options.profile } }, approvalText),
    ),
  )
}

/** `approval <id>: <status>[, <execution_status>] (tool …)` and, once run, its outcome. */
function approvalText(body: Record<string, unknown>): string {
  const approval = isRecord(body.approval) ? body.approval : {}
  const execution = typeof approval.execution_status === 'string' ? `, ${approval.execution_status}` : ''
  const lines = [`approval ${String(approval.approval_id)}: ${String(approval.status)}${execution} (tool ${String(approval.tool_id)}, expires ${String(approval.expires_at)})`]
  const outcome = approval.outcome
  if (isRecord(outcome) && isRecord(outcome.result)) {
    const view = typeof outcome.result_view === 'string' ? ` (${outcome.result_view} view)` : ''
    lines.push(`  result${view}: ${String(outcome.result.preview)}`)
  } else if (isRecord(outcome) && isRecord(outcome.error)) {
    lines.push(`  error: ${String(outcome.error.message)} (${String(outcome.error.code)}/${String(outcome.error.reason)})`)
  }
  return lines.join('\n')
}
