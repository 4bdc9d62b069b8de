import { InvalidArgumentError, type Command } from 'commander'
import { MAX_TIMER_MS } from '../async/deadline.js'
import { catalogTarget, type CatalogProblem } from './catalog-target.js'
import type { CliIo } from './io.js'
import { outputOption } from './output.js'
import { remoteTarget } from './remote-target.js'
import type { Target } from './target.js'

/** The target options every command that calls the routes takes, as commander parses them. */
export interface TargetOptions {
  readonly url?: string
  readonly socket?: string
  readonly catalog?: string
  readonly timeoutMs: number
  readonly output?: string
}

/** Default `--timeout-ms`: 5 minutes (an approved call may run long). */
export const DEFAULT_TIMEOUT_MS = 300_000

/** Adds `--url`, `--socket`, `--catalog`, `--timeout-ms` and `-o` to a command. */
export function addTargetOptions(command: Command): Command {
  return command
    .option('--url <url>', 'a result-views/http server, e.g. http://127.0.0.1:8787 (default: $RESULT_VIEWS_URL); a path in it replaces /api')
    .option('--socket <path>', 'a result-views/http server on a Unix socket (default: $RESULT_VIEWS_SOCKET)')
    .option('--catalog <module>', 'run a catalog module in this process instead: it exports a Dispatcher (default or "dispatcher") or tools (default or "tools")')
    .option('--timeout-ms <ms>', 'how long one call may take, and loading a --catalog module, in milliseconds', positiveInteger, DEFAULT_TIMEOUT_MS)
    .addOption(outputOption())
}

/**
 * The target the options name: exactly one of `--url`, `--socket`, `--catalog`; without one,
 * `RESULT_VIEWS_URL` or `RESULT_VIEWS_SOCKET`. `RESULT_VIEWS_AUTHORIZATION`, when set, is sent as
 * the `Authorization` header to a server.
 *
 * @returns the target, or the problem (a usage error), also for a `RESULT_VIEWS_AUTHORIZATION`
 *   that no HTTP header can carry (never quoting it).
 */
export async function openTarget(options: TargetOptions, io: CliIo): Promise<Target | CatalogProblem> {
  const named = (['url', 'socket', 'catalog'] as const).filter((name) => options[name] !== undefined)
  if (named.length > 1) return { problem: `give one target, not ${named.map((name) => `--${name}`).join(' and ')}` }
  const url = options.url ?? (named.length === 0 ? nonEmpty(io.env.RESULT_VIEWS_URL) : undefined)
  const socket = options.socket ?? (named.length === 0 && url === undefined ? nonEmpty(io.env.RESULT_VIEWS_SOCKET) : undefined)
  if (options.catalog !== undefined) return catalogTarget(options.catalog, io.cwd, options.timeoutMs)
  const authorization = nonEmpty(io.env.RESULT_VIEWS_AUTHORIZATION)
  if (authorization !== undefined && NOT_HEADER_TEXT.test(authorization)) {
    return { problem: 'RESULT_VIEWS_AUTHORIZATION holds a character an HTTP header cannot carry (a control character such as a line break, or one past U+00FF); its value is not shown' }
  }
  const remote = { timeoutMs: options.timeoutMs, authorization }
  if (socket !== undefined) return remoteTarget({ socket }, remote)
  if (url === undefined) return { problem: 'no target: pass --url, --socket or --catalog (or set RESULT_VIEWS_URL or RESULT_VIEWS_SOCKET)' }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { problem: 'the target URL is not a URL (expected e.g. http://127.0.0.1:8787)' }
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { problem: `the target URL must be http: or https:, not ${parsed.protocol}` }
  return remoteTarget({ url: parsed }, remote)
}

/** A character Node refuses in a header value (RFC 9110 field-value: tab, visible ASCII, obs-text). */
const NOT_HEADER_TEXT = /[^\t\x20-\x7e\x80-\xff]/

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.length === 0 ? undefined : value
}

function positiveInteger(value: string): number {
  const number = Number(value)
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(number) || number <= 0 || number > MAX_TIMER_MS) {
    throw new InvalidArgumentError('expected a positive integer of milliseconds')
  }
  return number
}
