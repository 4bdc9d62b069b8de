import type { Command } from 'commander'
import { invokeAnswer, toolAnswer, toolsAnswer } from '../answers.js'
import { addScopeOptions, scopeOf, type CliContext, type ScopeOptions } from '../context.js'
import { readInput } from '../input.js'
import { isRecord } from '../../json/guards.js'
import { report, textOf } from '../output.js'
import { stringifyJson } from '../../json/json-text.js'
import { addTargetOptions, type TargetOptions } from '../target-options.js'
import { apiPath } from '../target.js'

interface InvokeOptions extends TargetOptions, ScopeOptions {
  readonly input?: string
  readonly inputFile?: string
  readonly approvalToken?: string
  readonly sensitiveInputField: readonly string[]
  readonly toolCallId?: string
}

type ListOptions = TargetOptions & ScopeOptions

/**
 * `result-views tool invoke|info|list` (`docs/cli.md` "`tool invoke`", "`tool info` and `tool list`"):
 * `POST /tools/{id}/invoke`, `GET /tools/{id}`, `GET /tools`.
 */
export function registerToolCommands(program: Command, cli: CliContext): void {
  const tool = program.command('tool').description('invoke, describe and list tools; manage remembered approval decisions')

  addScopeOptions(addTargetOptions(tool.command('invoke <tool-id>')))
    .description('invoke a tool; the input is --input, --input-file, or JSON on stdin (the selector result_view travels inside it)')
    .option('--input <json>', 'the tool input as JSON')
    .option('--input-file <path>', 'a file holding the tool input as JSON (- reads stdin)')
    .option('--approval-token <token>', 'a single-use approval token (default: $RESULT_VIEWS_APPROVAL_TOKEN, which keeps it out of shell history); never printed')
    .option('--sensitive-input-field <path>', 'an input field to redact from every surface but the handler, e.g. secret_ref or auth.token (repeatable)', collect, [])
    .option('--tool-call-id <id>', 'correlates the call in events and logs (default: a generated one)')
    .action(
      cli.action(async (toolId: string, options: InvokeOptions, command: Command) => {
        // The target first: a command without one stops before it waits for stdin.
        const target = await cli.target(options, command)
        const input = await readInput(options, cli.io)
        if ('problem' in input) return cli.usage(command, input.problem)
        const token = options.approvalToken ?? nonEmpty(cli.io.env.RESULT_VIEWS_APPROVAL_TOKEN)
        const scope = scopeOf(options)
        const body = {
          input: input.value,
          ...(scope === undefined ? {} : { scope }),
          ...(token === undefined ? {} : { approval_token: token }),
          ...(options.sensitiveInputField.length === 0 ? {} : { sensitive_input_fields: options.sensitiveInputField }),
          ...(options.toolCallId === undefined ? {} : { tool_call_id: options.toolCallId }),
        }
        return report(await target.send({ method: 'POST', path: apiPath('tools', toolId, 'invoke'), body }), cli.format(options), cli.io, { shape: invokeAnswer, text: invokeText(toolId) })
      }),
    )

  addScopeOptions(addTargetOptions(tool.command('info <tool-id>')))
    .description("a tool's descriptor (both view contracts), and with a scope its diagnostics there")
    .action(
      cli.action((toolId: string, options: ListOptions, command: Command) =>
        cli.send(options, command, { method: 'GET', path: apiPath('tools', toolId), query: scopeQuery(options) }, { shape: toolAnswer, text: infoText }),
      ),
    )

  addScopeOptions(addTargetOptions(tool.command('list')))
    .description('every tool of the catalog, and with a scope its diagnostics there')
    .action(
      cli.action((options: ListOptions, command: Command) => cli.send(options, command, { method: 'GET', path: '/tools', query: scopeQuery(options) }, { shape: toolsAnswer, text: listText })),
    )
}

function collect(value: string, previous: readonly string[]): readonly string[] {
  return [...previous, value]
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.length === 0 ? undefined : value
}

function scopeQuery(options: ScopeOptions): Record<string, string | undefined> {
  return { workspace_id: options.workspace, session_id: options.session, agent_name: options.agent, profile_id: options.profile }
}

/** `<tool> (<view> view): <preview>` and the structured record, indented. */
function invokeText(toolId: string) {
  return (body: Record<string, unknown>): string => {
    const result = isRecord(body.result) ? body.result : {}
    const view = typeof body.result_view === 'string' ? ` (${body.result_view} view)` : ''
    return `${toolId}${view}: ${textOf(result.preview ?? '')}\n${stringifyJson(result.structured, 2)}`
  }
}

/** The tool, its description, its views with their digests, and its diagnostics when asked. */
function infoText(body: Record<string, unknown>): string {
  const tool = isRecord(body.tool) ? body.tool : {}
  const descriptor = isRecord(tool.descriptor) ? tool.descriptor : {}
  const lines = [textOf(descriptor.tool_id), `  ${textOf(descriptor.description ?? '')}`, `  ${contractsText(descriptor)}`]
  const facts = factsText(descriptor)
  if (facts !== undefined) lines.push(`  ${facts}`)
  if (isRecord(tool.diagnostics)) lines.push(`  ${diagnosticsText(tool.diagnostics)}`)
  return lines.join('\n')
}

/** One line per tool: its ID, its views and (with a scope) where it stands. */
function listText(body: Record<string, unknown>): string {
  const tools = Array.isArray(body.tools) ? body.tools.filter(isRecord) : []
  if (tools.length === 0) return 'no tools'
  const width = tools.reduce((most, tool) => Math.max(most, textOf(tool.tool_id).length), 0)
  return tools
    .map((tool) => {
      const views = isRecord(tool.output_views) ? 'compact, full' : 'single result'
      const where = isRecord(tool.diagnostics) ? `  ${textOf(tool.diagnostics.status)}` : ''
      return `${textOf(tool.tool_id).padEnd(width)}  [${views}]${where}`
    })
    .join('\n')
}

function contractsText(descriptor: Record<string, unknown>): string {
  const views = descriptor.output_views
  const short = (digest: unknown): string => textOf(digest).slice(0, 12)
  if (isRecord(views) && isRecord(views.compact) && isRecord(views.full)) {
    return `views: compact (digest ${short(views.compact.digest)}), full (digest ${short(views.full.digest)})`
  }
  return `single result (digest ${short(descriptor.output_schema_digest)})`
}

/** `approval required, risk write, writes` from the descriptor's facts; `undefined` for a descriptor without them. */
function factsText(descriptor: Record<string, unknown>): string | undefined {
  if (typeof descriptor.approval !== 'string' || typeof descriptor.read_only !== 'boolean') return undefined
  const approval = descriptor.approval === 'required' ? 'approval required' : 'no approval declared'
  const risk = typeof descriptor.risk === 'string' ? `, risk ${descriptor.risk}` : ''
  return `${approval}${risk}, ${descriptor.read_only ? 'read-only' : 'writes'}`
}

function diagnosticsText(diagnostics: Record<string, unknown>): string {
  const reason = typeof diagnostics.reason === 'string' ? `: ${diagnostics.reason}` : ''
  const owner = typeof diagnostics.policy_owner === 'string' ? ` by ${diagnostics.policy_owner}` : ''
  const grant = isRecord(diagnostics.grant)
    ? `; remembered ${textOf(diagnostics.grant.decision)} ${textOf(diagnostics.grant.grant_id)} (${textOf(diagnostics.grant.scope)} scope)`
    : ''
  const options = Array.isArray(diagnostics.approval_options) ? `; approve with: ${diagnostics.approval_options.map(textOf).join(', ')}` : ''
  return `in scope ${stringifyJson(diagnostics.scope)}: ${textOf(diagnostics.status)}${owner}${reason}${grant}${options}`
}
