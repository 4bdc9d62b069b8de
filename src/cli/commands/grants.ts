import { Option, type Command } from 'commander'
import { grantAnswer, grantsAnswer, revokedAnswer } from '../answers.js'
import type { CliContext } from '../context.js'
import { isRecord } from '../../json/guards.js'
import { textOf } from '../output.js'
import { addTargetOptions, type TargetOptions } from '../target-options.js'
import { apiPath } from '../target.js'

interface GrantOptions extends TargetOptions {
  readonly workspace: string
  readonly decision?: 'allow' | 'reject'
  readonly scope?: 'agent' | 'tool'
  readonly agent?: string
  readonly tool?: string
}

/**
 * `result-views tool approvals set|list|revoke` (`docs/cli.md` "`tool approvals set | list | revoke`"): the remembered
 * decisions of a workspace, `PUT|GET /tool-approval-grants`, `DELETE /tool-approval-grants/{id}`.
 * Registers under the `tool` command (created if no group made it yet).
 */
export function registerGrantCommands(program: Command, cli: CliContext): void {
  const tool = program.commands.find((command) => command.name() === 'tool') ?? program.command('tool')
  const grants = tool.command('approvals').description("set, list or revoke a workspace's remembered approval decisions")
  const inWorkspace = (usage: string, description: string): Command =>
    addTargetOptions(grants.command(usage)).description(description).requiredOption('--workspace <id>', 'the workspace the decisions belong to')

  inWorkspace('set <tool-id>', 'remember allow or reject for one agent (--scope agent --agent A) or every agent (--scope tool)')
    .addOption(new Option('--decision <decision>', 'allow or reject').choices(['allow', 'reject']).makeOptionMandatory())
    .addOption(new Option('--scope <scope>', 'agent: one agent, every input; tool: every agent and input').choices(['agent', 'tool']).makeOptionMandatory())
    .option('--agent <name>', 'the agent (required for --scope agent, refused for --scope tool)')
    .action(
      cli.action((toolId: string, options: GrantOptions, command: Command) => {
        const body = { workspace_id: options.workspace, tool_id: toolId, decision: options.decision, scope: options.scope, ...(options.agent === undefined ? {} : { agent_name: options.agent }) }
        return cli.send(options, command, { method: 'PUT', path: '/tool-approval-grants', body }, { shape: grantAnswer, text: (answer) => grantLine(answer.grant) })
      }),
    )

  inWorkspace('list', "every remembered decision of the workspace (exact ones from prompt answers included)")
    .option('--tool <tool-id>', 'only the decisions of this tool')
    .action(
      cli.action((options: GrantOptions, command: Command) =>
        cli.send(options, command, { method: 'GET', path: '/tool-approval-grants', query: { workspace_id: options.workspace, tool_id: options.tool } }, {
          shape: grantsAnswer,
          text: (body) => {
            const list = body.grants as readonly unknown[]
            return list.length === 0 ? `no remembered decisions in workspace ${options.workspace}` : list.map(grantLine).join('\n')
          },
        }),
      ),
    )

  inWorkspace('revoke <grant-id>', 'forget one remembered decision').action(
    cli.action((grantId: string, options: GrantOptions, command: Command) =>
      cli.send(options, command, { method: 'DELETE', path: apiPath('tool-approval-grants', grantId), query: { workspace_id: options.workspace } }, { shape: revokedAnswer(grantId), text: () => `revoked ${grantId}` }),
    ),
  )
}

/** `<grant_id>  <decision> <tool_id>  <scope>[ <agent>][ <input digest>]`. */
function grantLine(grant: unknown): string {
  if (!isRecord(grant)) return textOf(grant)
  const who = grant.scope === 'tool' ? 'every agent' : `agent ${textOf(grant.agent_name ?? '(none)')}`
  const exact = typeof grant.input_digest === 'string' ? `, input ${grant.input_digest.slice(0, 19)}…` : ''
  return `${textOf(grant.grant_id)}  ${textOf(grant.decision)} ${textOf(grant.tool_id)} for ${who} (${textOf(grant.scope)} scope${exact}, ${textOf(grant.origin)})`
}
