import { Command } from 'commander'
import packageJson from '../../package.json' with { type: 'json' }
import { registerApprovalCommands } from './commands/approvals.js'
import { registerContractsCommands } from './commands/contracts.js'
import { registerGrantCommands } from './commands/grants.js'
import { registerToolCommands } from './commands/tool.js'
import { createContext, type CommandGroup } from './context.js'
import type { CliIo, ExitCodeValue } from './io.js'

/**
 * The command groups, in help order. Each lives in `commands/<group>.ts` and registers its
 * commands on the program; add a group by adding its file and its entry here.
 */
export const COMMAND_GROUPS: readonly CommandGroup[] = [registerToolCommands, registerGrantCommands, registerApprovalCommands, registerContractsCommands]

/**
 * The `result-views` program for one run: output to `io`, errors thrown (never `process.exit`),
 * each action's exit code handed to `exit`.
 */
export function createProgram(io: CliIo, exit: (code: ExitCodeValue) => void): Command {
  const program = new Command('result-views')
    .description('Invoke and inspect result-views tools over the HTTP/UDS routes (--url, --socket) or in process (--catalog).')
    .version(packageJson.version, '-V, --version')
    .exitOverride()
    .showSuggestionAfterError()
    .configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
      outputError: (text, write) => write(withoutOptionValues(text)),
    })
  const cli = createContext(io, exit)
  for (const register of COMMAND_GROUPS) register(program, cli)
  return program
}

/** An unknown `--name=value` option is echoed without its value (it may be a mistyped secret). */
function withoutOptionValues(text: string): string {
  return text.replace(/'(--?[^'=\s]+)=[^']*'/g, "'$1=…'")
}
