import { Option } from 'commander'
import { ToolError, ToolErrorCodes, type SurfaceDetails, type SurfaceIssue, type ToolErrorPayload } from 'result-views'
import { MAX_SURFACE_ISSUES } from '../errors/surface-details.js'
import { MAX_JSON_DEPTH } from '../json/canonical.js'
import { isRecord } from '../json/guards.js'
import type { AnswerShape } from './answers.js'
import { ExitCode, type CliIo, type ExitCodeValue } from './io.js'
import { nestsDeeperThan, stringifyJson } from '../json/json-text.js'
import { targetUnavailable, type ApiAnswer } from './target.js'
import { terminalSafe } from '../text/terminal-safe.js'

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

/** Renders a successful answer's body (one that fits its {@link AnswerShape}) as short text, one line per thing. */
export type TextRenderer = (body: Record<string, unknown>) => string

/** How a command checks and prints a route's successful answer. */
export interface AnswerView {
  /** What the answer must hold; anything else is `cli_target_unavailable` / `response_invalid`. */
  readonly shape: AnswerShape
  /** The `-o text` form. */
  readonly text: TextRenderer
}

/**
 * Deepest answer read, in levels of nesting: a tool value may nest {@link MAX_JSON_DEPTH} levels,
 * and the routes wrap it in a few more (`{ approval: { outcome: { result: { structured } } } }`).
 */
export const MAX_ANSWER_DEPTH = MAX_JSON_DEPTH + 8

/**
 * Prints a target's answer and returns the exit code (`docs/cli.md` "Exit codes"):
 * - 200: the body (`-o json`, one line) or `text(body)`: exit 0;
 * - 202: `{ "approval_id": … }` or `approval pending: …`: exit 3;
 * - an error answer, or no answer: `{ "error": { code, reason, message, details? } }` on stdout
 *   (`-o json`) or `error: <message> (<code>/<reason>)` and its issue and hint lines on stderr,
 *   the message redacted by `forSurface('cli')` (`docs/cli.md` "Output"): exit 1.
 */
export function report(answer: ApiAnswer, format: OutputFormat, io: CliIo, view: AnswerView): ExitCodeValue {
  const checked = checkAnswer(answer, view.shape)
  if (!checked.ok) return printError(checked.error, format, io)
  const body = checked.body as Record<string, unknown>
  if (checked.status === 200) {
    io.stdout.write(format === 'json' ? `${stringifyJson(body)}\n` : `${terminalSafe(view.text(body))}\n`)
    return ExitCode.ok
  }
  if (checked.status === 202) {
    const approvalId = body.approval_id as string
    io.stdout.write(format === 'json' ? `${JSON.stringify({ approval_id: approvalId })}\n` : terminalSafe(pendingText(approvalId)))
    return ExitCode.pending
  }
  const error = body.error as Record<string, unknown>
  return printError(cliError(error.code as string, error.reason as string, error.message, error.details), format, io)
}

/**
 * The answer when it is one the routes give: a 200 whose body fits `shape`, a 202 with an
 * `approval_id`, or an error status with `{ error: { code, reason } }`; anything else (or an
 * answer nested deeper than {@link MAX_ANSWER_DEPTH}) becomes `response_invalid`, naming what was wrong.
 */
function checkAnswer(answer: ApiAnswer, shape: AnswerShape): ApiAnswer {
  if (!answer.ok) return answer
  const { status, body } = answer
  const invalid = (problem: string): ApiAnswer => targetUnavailable('response_invalid', `the target answered HTTP ${status} with ${problem}, not the routes' answer (is it a result-views/http server?)`)
  if (!isRecord(body)) return invalid('a body that is not a JSON object')
  if (nestsDeeperThan(body, MAX_ANSWER_DEPTH)) return invalid(`a body nested deeper than ${MAX_ANSWER_DEPTH} levels`)
  if (status === 200) {
    const problem = 'error' in body ? 'an "error" member' : shape(body)
    return problem === undefined ? answer : invalid(problem)
  }
  if (status === 202) return typeof body.approval_id === 'string' ? answer : invalid('no string "approval_id"')
  if (status >= 400 && isRecord(body.error) && typeof body.error.code === 'string' && typeof body.error.reason === 'string') return answer
  return invalid(status >= 400 ? 'no "error" object with a string "code" and "reason"' : 'an unexpected status')
}

/**
 * A value of an answer as text: a string as it is, nothing as `''`, anything else as its JSON
 * (never `String(value)`, which throws for an object whose `toString` member is not a function).
 */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value
  return value === undefined ? '' : stringifyJson(value)
}

/**
 * Prints an error as the CLI shows it; returns exit code 1. `-o json`: `{ "error": { code, reason,
 * message, details? } }` on stdout; text: `error: <message> (<code>/<reason>)` on stderr, then one
 * line per input issue (`  <pointer>: expected <expected> (<keyword>)`) and the hint (`  hint: …`).
 */
export function printError(error: ToolErrorPayload, format: OutputFormat, io: CliIo): ExitCodeValue {
  const shown = error.details === undefined
    ? { code: error.code, reason: error.reason, message: error.message }
    : { code: error.code, reason: error.reason, message: error.message, details: error.details }
  if (format === 'json') {
    io.stdout.write(`${JSON.stringify({ error: shown })}\n`)
    return ExitCode.failed
  }
  const lines = [`error: ${shown.message} (${shown.code}/${shown.reason})`]
  const details = (error.details ?? {}) as SurfaceDetails
  for (const issue of details.issues ?? []) lines.push(`  ${issue.pointer === '' ? '(the input)' : issue.pointer}: expected ${issue.expected} (${issue.keyword})`)
  if (details.issue_count !== undefined) lines.push(`  and ${details.issue_count - (details.issues?.length ?? 0)} more`)
  if (details.hint !== undefined) lines.push(`  hint: ${details.hint}`)
  io.stderr.write(`${lines.map(terminalSafe).join('\n')}\n`)
  return ExitCode.failed
}

/** Longest text of a target's answer an error line shows: a reported message, an issue's pointer or expectation. */
const MAX_SHOWN = 500

/**
 * The error as `forSurface('cli')` shows it, rebuilt from the code and reason a target sent (so a
 * server's wording never reaches the terminal), with the hint of this version. From the answer it
 * keeps only what that surface shows: the message of a code a tool reports (kind `reported`) and
 * well-formed input issues (`details.issues`), each cut to 500 characters. A code this version
 * does not know keeps its message, cut to 200 characters.
 */
function cliError(code: string, reason: string, message: unknown, details: unknown): ToolErrorPayload {
  if (!Object.hasOwn(ToolErrorCodes, code)) return { code, reason, message: typeof message === 'string' ? message.slice(0, 200) : 'the call failed' } as ToolErrorPayload
  const known = code as ToolErrorPayload['code']
  const reported = ToolErrorCodes[known].kind === 'reported'
  const text = reported && typeof message === 'string' && message !== '' ? cut(message) : reported ? 'the tool reported an error' : ''
  const rebuilt = new ToolError({ code: known, reason, message: text }).forSurface('cli')
  const issues = ToolErrorCodes[known].kind === 'input' ? issuesOf(details) : undefined
  if (issues === undefined) return rebuilt
  return { ...rebuilt, details: { ...issues, ...(rebuilt.details ?? {}) } }
}

/** The input issues of an answer's `details`, when they have the surface's shape; `undefined` otherwise. */
function issuesOf(details: unknown): SurfaceDetails | undefined {
  if (!isRecord(details) || !Array.isArray(details.issues)) return undefined
  const issues: SurfaceIssue[] = []
  for (const issue of details.issues.slice(0, MAX_SURFACE_ISSUES) as unknown[]) {
    if (!isRecord(issue) || typeof issue.pointer !== 'string' || typeof issue.keyword !== 'string' || typeof issue.expected !== 'string') return undefined
    issues.push({ pointer: cut(issue.pointer), keyword: cut(issue.keyword), expected: cut(issue.expected) })
  }
  const count = details.issue_count
  return typeof count === 'number' && Number.isSafeInteger(count) && count > issues.length ? { issues, issue_count: count } : { issues }
}

function cut(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text
}

function pendingText(approvalId: string): string {
  return `approval pending: ${approvalId}\n  see it:    result-views approvals show ${approvalId} --profile <owner>\n  decide it: result-views approvals resolve ${approvalId} --decision approved|denied --profile <owner>\n`
}
