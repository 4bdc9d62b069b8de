import type { Command } from 'commander'
import type { CallScope } from 'result-views'
import type { CliIo, ExitCodeValue } from './io.js'
import { outputFormat, report, type AnswerView, type OutputFormat } from './output.js'
import { openTarget, type TargetOptions } from './target-options.js'
import type { ApiRequest, Target } from './target.js'

/** What every command group gets when it registers its commands (`commands/<group>.ts`). */
export interface CliContext {
  readonly io: CliIo
  /** Wraps an action: the exit code it returns becomes `main`'s. */
  action<A extends unknown[]>(run: (...args: A) => Promise<ExitCodeValue>): (...args: A) => Promise<void>
  /** Stops the command with a usage error (exit 2): `error: <message>` on stderr. */
  usage(command: Command, message: string): never
  /** The target the command's options name (a usage error when they name none, or a bad one). */
  target(options: TargetOptions, command: Command): Promise<Target>
  /** The output format the command's `-o` asks for. */
  format(options: { readonly output?: string }): OutputFormat
  /**
   * The whole of most commands: sends one call to the target the options name and prints its
   * answer in the format they ask for (`report`, which checks it against
   * `view.shape` first); returns the exit code.
   */
  send(options: TargetOptions, command: Command, request: ApiRequest, view: AnswerView): Promise<ExitCodeValue>
}

/** A command group: registers its commands on the program (see `program.ts`). */
export type CommandGroup = (program: Command, cli: CliContext) => void

/** The scope options (`--workspace`, `--session`, `--agent`, `--profile`) as commander parses them. */
export interface ScopeOptions {
  readonly workspace?: string
  readonly session?: string
  readonly agent?: string
  readonly profile?: string
}

/** Adds the scope options to a command. */
export function addScopeOptions(command: Command): Command {
  return command
    .option('--workspace <id>', 'the workspace of the call (scope.workspace_id)')
    .option('--session <id>', 'the session of the call (scope.session_id)')
    .option('--agent <name>', 'the agent of the call (scope.agent_name)')
    .option('--profile <id>', 'the profile of the call, which owns an approval it opens (scope.profile_id)')
}

/** The scope the options name, or `undefined` when they name none. */
export function scopeOf(options: ScopeOptions): CallScope | undefined {
  const scope: CallScope = {}
  if (options.workspace !== undefined) scope.workspace_id = options.workspace
  if (options.session !== undefined) scope.session_id = options.session
  if (options.agent !== undefined) scope.agent_name = options.agent
  if (options.profile !== undefined) scope.profile_id = options.profile
  return Object.keys(scope).length === 0 ? undefined : scope
}

/** Builds the context one run of the program shares; `exit` records the code of the action that ran. */
export function createContext(io: CliIo, exit: (code: ExitCodeValue) => void): CliContext {
  const usage = (command: Command, message: string): never => command.error(`error: ${message}`, { exitCode: 2, code: 'result-views.usage' })
  const target = async (options: TargetOptions, command: Command): Promise<Target> => {
    const opened = await openTarget(options, io)
    return 'problem' in opened ? usage(command, opened.problem) : opened
  }
  return {
    io,
    action:
      <A extends unknown[]>(run: (...args: A) => Promise<ExitCodeValue>) =>
      async (...args: A) => exit(await run(...args)),
    usage,
    target,
    format: (options) => outputFormat(options.output, io),
    send: async (options, command, request, view) => report(await (await target(options, command)).send(request), outputFormat(options.output, io), io, view),
  }
}
