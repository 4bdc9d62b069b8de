import { Option, type Command } from 'commander'
import { approvalAnswer } from '../answers.js'
import type { CliContext } from '../context.js'
import { isRecord } from '../../json/guards.js'
import { textOf } from '../output.js'
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
      cli.send(options, command, { method: 'GET', path: apiPath('tools', 'approvals', id), query: { profile: options.profile } }, approvalView),
    ),
  )

  owned('resolve', 'approve (the call runs under the current policy) or deny a pending approval')
    .addOption(new Option('--decision <decision>', 'approved or denied').choices(['approved', 'denied']).makeOptionMandatory())
    .option('--no-wait', 'answer once the decision is recorded (execution_status dispatching) instead of once the call has run')
    .action(
      cli.action((id: string, options: ApprovalOptions, command: Command) => {
        const body = options.wait ? { decision: options.decision } : { decision: options.decision, wait: false }
        return cli.send(options, command, { method: 'POST', path: apiPath('tools', 'approvals', id, 'resolve'), query: { profile: options.profile }, body }, approvalView)
      }),
    )

  owned('cancel', 'cancel a pending approval: it never runs').action(
    cli.action((id: string, options: ApprovalOptions, command: Command) =>
      cli.send(options, command, { method: 'POST', path: apiPath('tools', 'approvals', id, 'cancel'), query: { profile: options.profile } }, approvalView),
    ),
  )
}

const approvalView = { shape: approvalAnswer, text: approvalText }

/** `approval <id>: <status>[, <execution_status>] (tool …)` and, once run, its outcome. */
function approvalText(body: Record<string, unknown>): string {
  const approval = isRecord(body.approval) ? body.approval : {}
  const execution = typeof approval.execution_status === 'string' ? `, ${approval.execution_status}` : ''
  const lines = [`approval ${textOf(approval.approval_id)}: ${textOf(approval.status)}${execution} (tool ${textOf(approval.tool_id)}, expires ${textOf(approval.expires_at)})`]
  const outcome = approval.outcome
  if (isRecord(outcome) && isRecord(outcome.result)) {
    const view = typeof outcome.result_view === 'string' ? ` (${outcome.result_view} view)` : ''
    lines.push(`  result${view}: ${textOf(outcome.result.preview)}`)
  } else if (isRecord(outcome) && isRecord(outcome.error)) {
    lines.push(`  error: ${textOf(outcome.error.message)} (${textOf(outcome.error.code)}/${textOf(outcome.error.reason)})`)
  }
  return lines.join('\n')
}
