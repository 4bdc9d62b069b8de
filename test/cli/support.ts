// Runs the command in process through main(argv, io), with buffers for its streams.
import { main } from '../../src/cli/main.js'

/** What one run of the command did. */
export interface CliRun {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Options of one run: environment, stdin text, working directory, whether stdout is a terminal. */
export interface CliRunOptions {
  readonly env?: Record<string, string | undefined>
  readonly stdin?: string
  readonly cwd?: string
  readonly tty?: boolean
}

/** Runs `result-views <argv>` in process. */
export async function runCli(argv: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  let stdout = ''
  let stderr = ''
  const stdin = {
    isTTY: false,
    async *[Symbol.asyncIterator]() {
      if (options.stdin !== undefined) yield Buffer.from(options.stdin)
    },
  }
  const code = await main(argv, {
    stdin,
    stdout: { write: (text: string) => (stdout += text), isTTY: options.tty ?? false },
    stderr: { write: (text: string) => (stderr += text) },
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
  })
  return { code, stdout, stderr }
}

/** The stdout of a run as JSON. */
export function jsonOf(run: CliRun): any {
  return JSON.parse(run.stdout)
}
