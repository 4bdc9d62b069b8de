import { Option } from 'commander'
import { ToolError, ToolErrorCodes, type ToolErrorPayload } from 'result-views'
import { isRecord } from '../json/guards.js'
import { ExitCode, type CliIo, type ExitCodeValue } from './io.js'
import type { ApiAnswer } from './target.js'

/** How a command prints: JSON for scripts (`jq`), or short text for people. */
export type OutputFormat = 'json' | 'text'

/** The `-o, --output <format>` option every command takes (default: text on a terminal, json otherwise). */
export function outputOption(): Option {
  return new Option('-o, --output <format>', 'output format (default: text on a terminal, json otherwise)').choices(['json', 'text'])
}

/** The format asked for, or the default for where stdout goes. */
export function outputFormat(asked: unknown, io: CliIo): OutputFormat {
  if (asked === 'json' || asked === 'text') return asked
  return io.stdout.isTTY === true ? 'text' : 'json'
}

/** Renders a successful answer's body as short text, one line per thing. */
export type TextRenderer = (body: Record<string, unknown>) => string

/**
 * Prints a target's answer and returns the exit code (`docs/cli.md` "Exit codes"):
 * - 200: the body (`-o json`, one line) or `text(body)`: exit 0;
 * - 202: `{ "approval_id": … }` or `approval pending: …`: exit 3;
 * - an error answer, or no answer: `{ "error": { code, reason, message } }` on stdout (`-o json`)
 *   or `error: <message> (<code>/<reason>)` on stderr, the message redacted by
 *   `forSurface('cli')`: exit 1.
 */
export function report(answer: ApiAnswer, format: OutputFormat, io: CliIo, text: TextRenderer): ExitCodeValue {
  if (!answer.ok) return printError(answer.error, format, io)
  const body = answer.body
  if (answer.status === 200 && isRecord(body) && !('error' in body)) {
    io.stdout.write(format === 'json' ? `${JSON.stringify(body)}\n` : `${terminalSafe(text(body))}\n`)
    return ExitCode.ok
  }
  if (answer.status === 202 && isRecord(body) && typeof body.approval_id === 'string') {
    io.stdout.write(format === 'json' ? `${JSON.stringify({ approval_id: body.approval_id })}\n` : terminalSafe(pendingText(body.approval_id)))
    return ExitCode.pending
  }
  if (isRecord(body) && isRecord(body.error) && typeof body.error.code === 'string' && typeof body.error.reason === 'string') {
    return printError(cliError(body.error.code, body.error.reason, body.error.message), format, io)
  }
  return printError({ code: 'cli_target_unavailable', reason: 'response_invalid', message: `the target answered HTTP ${answer.status} with a body that is not the routes'` }, format, io)
}

/** Prints an error as the CLI shows it; returns exit code 1. */
export function printError(error: ToolErrorPayload, format: OutputFormat, io: CliIo): ExitCodeValue {
  const shown = { code: error.code, reason: error.reason, message: error.message }
  if (format === 'json') io.stdout.write(`${JSON.stringify({ error: shown })}\n`)
  else io.stderr.write(`${terminalSafe(`error: ${shown.message} (${shown.code}/${shown.reason})`)}\n`)
  return ExitCode.failed
}

/**
 * The error as `forSurface('cli')` shows it, rebuilt from the code and reason a target sent (so a
 * server's wording never reaches the terminal); a code this version does not know keeps its
 * message, cut to 200 characters.
 */
function cliError(code: string, reason: string, message: unknown): ToolErrorPayload {
  if (Object.hasOwn(ToolErrorCodes, code)) return new ToolError({ code: code as ToolErrorPayload['code'], reason, message: '' }).forSurface('cli')
  return { code, reason, message: typeof message === 'string' ? message.slice(0, 200) : 'the call failed' } as ToolErrorPayload
}

function pendingText(approvalId: string): string {
  return `approval pending: ${approvalId}\n  see it:    result-views approvals show ${approvalId} --profile <owner>\n  decide it: result-views approvals resolve ${approvalId} --decision approved|denied --profile <owner>\n`
}

/** Control characters (but the line feed), C1 controls and bidirectional overrides: never written raw to a terminal. */
const UNPRINTABLE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

/**
 * Text with every character that could drive a terminal (escape sequences, carriage returns,
 * bidirectional overrides) written as `\u{…}`: text output quotes data from tools and servers.
 */
export function terminalSafe(text: string): string {
  return text.replace(UNPRINTABLE, (char) => `\\u{${char.charCodeAt(0).toString(16)}}`)
}
