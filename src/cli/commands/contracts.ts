import { Option, type Command } from 'commander'
import { runContractsCheck, runReleaseNote, type CommandOutput } from 'result-views/contracts'
import type { CliContext } from '../context.js'
import { ExitCode, type ExitCodeValue } from '../io.js'

interface CheckOptions {
  readonly catalog: string
  readonly lock?: string
  readonly update?: boolean
  readonly output?: 'table' | 'json'
  readonly acceptUnproven?: boolean | string[]
  readonly budgetTolerance?: string
  readonly failOn?: 'breaking' | 'drift'
}

interface ReleaseNoteCommandOptions {
  readonly from: string
  readonly catalog: string
  readonly output?: 'markdown' | 'json'
}

/**
 * `result-views contracts check | release-note` (`docs/contracts.md` "CI usage"): a catalog
 * module's tool contracts against a lock file, and the release note of what moved to the full
 * view. Both run in process on the module `--catalog` names (a dispatcher, a tool array or a
 * `tools` export); exit 0 when nothing drifted, 1 when a change is breaking, 4 when every change
 * is compatible (0 with `--fail-on breaking`), 2 for usage errors.
 */
export function registerContractsCommands(program: Command, cli: CliContext): void {
  const contracts = program.command('contracts').description('check tool contracts against a lock file; write release notes')

  contracts
    .command('check')
    .description('compare the catalog with its lock file: exit 1 with a table when a change is breaking, 4 when the contracts drifted compatibly')
    .requiredOption('--catalog <module>', 'the module exporting the catalog (a dispatcher, a tool array or a "tools" export)')
    .option('--lock <file>', 'the lock file', 'tool-contracts.lock.json')
    .option('--update', 'rewrite the lock file from the catalog instead of checking it')
    .option('--accept-unproven [tool-ids...]', 'unproven verdicts (of these tools, or all) do not count as breaking')
    .option('--budget-tolerance <ratio>', 'how far a compact budget may grow, as a ratio', '0.05')
    .addOption(new Option('--fail-on <what>', 'fail on any drift (exit 1 breaking, 4 compatible) or on breaking changes only').choices(['breaking', 'drift']).default('drift'))
    .addOption(new Option('-o, --output <format>', 'table or json').choices(['table', 'json']).default('table'))
    .action(
      cli.action(async (options: CheckOptions, command: Command) => {
        // A decimal ratio only: Number() also reads "" as 0 and "0x10" as 16.
        const text = options.budgetTolerance ?? ''
        const tolerance = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(text) ? Number(text) : Number.NaN
        if (!Number.isFinite(tolerance) || tolerance < 0) cli.usage(command, `--budget-tolerance must be a non-negative number, not ${JSON.stringify(options.budgetTolerance)}`)
        return write(
          cli,
          await runContractsCheck({
            catalog: options.catalog,
            ...(options.lock === undefined ? {} : { lockPath: options.lock }),
            update: options.update === true,
            format: options.output ?? 'table',
            cwd: cli.io.cwd,
            ...(options.acceptUnproven === undefined ? {} : { acceptUnproven: options.acceptUnproven }),
            budgetTolerance: tolerance,
            failOn: options.failOn ?? 'drift',
          }),
        )
      }),
    )

  contracts
    .command('release-note')
    .description('the release note: every tool whose default view changed and the fields that moved to the full view')
    .requiredOption('--from <lock-file>', "the previous release's lock file")
    .requiredOption('--catalog <module>', "the module exporting this release's catalog")
    .addOption(new Option('-o, --output <format>', 'markdown or json').choices(['markdown', 'json']).default('markdown'))
    .action(
      cli.action(async (options: ReleaseNoteCommandOptions) =>
        write(cli, await runReleaseNote({ from: options.from, catalog: options.catalog, format: options.output ?? 'markdown', cwd: cli.io.cwd })),
      ),
    )
}

/** Writes a contracts command's output to the CLI's streams and returns its exit code. */
function write(cli: CliContext, output: CommandOutput): ExitCodeValue {
  if (output.stdout !== '') cli.io.stdout.write(output.stdout)
  if (output.stderr !== '') cli.io.stderr.write(output.stderr)
  switch (output.exitCode) {
    case 0:
      return ExitCode.ok
    case 1:
      return ExitCode.failed
    case 4:
      return ExitCode.drifted
    default:
      return ExitCode.usage
  }
}
