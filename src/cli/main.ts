import { CommanderError } from 'commander'
import { ExitCode, type CliIo, type CliOutput, type ExitCodeValue } from './io.js'
import { createProgram } from './program.js'

/** Secrets shorter than this are not scrubbed from output (a short string would blank out ordinary text). */
const MIN_SCRUBBED_LENGTH = 8

/**
 * Runs the `result-views` command once, in process: parses `argv` (without `node` and the script),
 * runs the command, and returns its exit code (`docs/cli.md` "Exit codes": 0 ok, 1 the call
 * failed, 2 usage, 3 approval pending). Never calls `process.exit` and never rejects. An argument
 * that is not well-formed Unicode (a lone surrogate, which no shell passes but a caller of `main`
 * can) is a usage error: it could not be sent as the text it is. Approval
 * tokens and the authorization value (from `argv` or the environment) are scrubbed from
 * everything written, as a last line of defence.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<ExitCodeValue> {
  const secrets = secretsOf(argv, io.env)
  const safe: CliIo = { ...io, stdout: scrubbing(io.stdout, secrets), stderr: scrubbing(io.stderr, secrets) }
  let code: ExitCodeValue = ExitCode.ok
  const malformed = argv.findIndex((arg) => typeof arg !== 'string' || !(arg as string & { isWellFormed(): boolean }).isWellFormed())
  if (malformed !== -1) {
    safe.stderr.write(`error: argument ${malformed + 1} is not well-formed Unicode text (it holds a lone surrogate)\n`)
    return ExitCode.usage
  }
  try {
    await createProgram(safe, (exit) => (code = exit)).parseAsync([...argv], { from: 'user' })
    return code
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage
    safe.stderr.write(`error: the command failed unexpectedly (${error instanceof Error ? error.name : typeof error})\n`)
    return ExitCode.failed
  }
}

/** The approval tokens and authorization value this run holds. */
function secretsOf(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): string[] {
  const found = [env.RESULT_VIEWS_APPROVAL_TOKEN, env.RESULT_VIEWS_AUTHORIZATION]
  argv.forEach((arg, index) => {
    if (arg === '--approval-token') found.push(argv[index + 1])
    else if (arg.startsWith('--approval-token=')) found.push(arg.slice('--approval-token='.length))
  })
  return found.filter((secret): secret is string => secret !== undefined && secret.length >= MIN_SCRUBBED_LENGTH)
}

/** An output that writes every secret (raw or JSON-escaped) as `[REDACTED]`. */
function scrubbing(output: CliOutput, secrets: readonly string[]): CliOutput {
  if (secrets.length === 0) return output
  const forms = [...new Set(secrets.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]))].sort((a, b) => b.length - a.length)
  return {
    isTTY: output.isTTY,
    write: (text: string) => output.write(forms.reduce((scrubbed, form) => scrubbed.split(form).join('[REDACTED]'), text)),
  }
}
