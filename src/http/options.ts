import type { Awaitable, CallScope, Dispatcher, Logger, UsageProblem } from 'result-views'
import { isTimerBudget, MAX_TIMER_MS } from '../async/deadline.js'
import type { ContinuationStore, ContinuationStoreOptions } from '../continuation/continuation-store.js'
import { checkLimitOptions, createResultLimit, type ResultLimit } from '../continuation/result-limit.js'
import { HttpOptionsError } from './http-options-error.js'
import { optionsTable, readOptions } from '../options/options.js'

/** What a host's {@link HttpAuthenticate} callback sees of a request (headers only: it runs before the body is read). */
export interface HttpAuthRequest {
  /** The request method, e.g. `GET`. */
  readonly method: string
  /** The request target as received: path and query, e.g. `/api/tools?workspace_id=ws-1`. */
  readonly url: string
  /** The request headers (a WHATWG `Headers`: `headers.get('authorization')`). */
  readonly headers: Headers
  /** The peer's IP address, when the connection has one (`undefined` on a Unix socket). */
  readonly remoteAddress: string | undefined
  /** `true` for a loopback peer (127.0.0.0/8, `::1`, `::ffff:127.x.y.z`) or a Unix socket. */
  readonly local: boolean
}

/**
 * Maps a request to the caller's scope, or refuses it. Return a `CallScope` (possibly `{}`) to
 * accept: every field it sets (`profile_id`, `workspace_id`, ...) is fixed for the request, and a
 * request that names another value for it is refused with 403 `tool_denied` / `scope_forbidden`;
 * fields it leaves out may come from the request. Return `null` or `false` to refuse: 401
 * `http_unauthenticated`. A throw, a rejection, no answer within `authenticateTimeoutMs`, or any
 * other answer fails closed with 500 `http_handler_failed`. See `docs/http.md` "Authentication".
 */
export type HttpAuthenticate = (request: HttpAuthRequest) => Awaitable<CallScope | null | false>

/** Options of `createHttpHandler` and `createFetchHandler` (`docs/http.md` "Options"). */
export interface HttpHandlerOptions {
  /** Path prefix of every route: `''` or `/` followed by segments, no trailing `/`. Default `'/api'`. */
  basePath?: string
  /** Largest request body read, in bytes (a positive integer). Default 1,048,576 (1 MiB); larger bodies get 413. */
  maxBodyBytes?: number
  /** How long a request body may take to arrive, in milliseconds (positive; `Infinity` waits forever). Default 30,000; slower bodies get 408. */
  bodyTimeoutMs?: number
  /**
   * Maps each request to the caller's scope or refuses it (401). Without it the handler trusts the
   * scope and profile the request names, which is meant for a loopback listener or a Unix socket
   * whose file permissions admit only the host's own user.
   */
  authenticate?: HttpAuthenticate
  /** How long `authenticate` may take, in milliseconds (positive; `Infinity` waits forever). Default 5,000. */
  authenticateTimeoutMs?: number
  /** The `WWW-Authenticate` challenge sent with a 401. Default `'Bearer'`. One line. */
  challenge?: string
  /** Where handler failures (a throwing `authenticate`, an unexpected exception) and aborted bodies are logged. Default silent. */
  logger?: Logger
  /**
   * Largest result of `POST …/invoke`, in UTF-8 bytes of the selected view's JSON text, returned
   * whole. A larger one is answered with its first part (`result_part`) and a continuation handle
   * for `POST …/results/continue` (`docs/http.md` "Result size limits"). Integer ≥ 256. Default: no limit.
   */
  maxResultBytes?: number
  /** Bounds of the store that keeps the rest of cut results (entries, bytes, `ttlMs`). Only with `maxResultBytes`. */
  continuations?: ContinuationStoreOptions
  /**
   * The store that keeps the rest of cut results, instead of this handler's own memory store: one
   * that several instances share (`createPostgresContinuationStore` of `result-views/postgres`), so
   * that a handle issued by one instance is read back on any other (`docs/deploy.md` "Several
   * instances"). Only with `maxResultBytes`, not with `continuations` (the store's factory takes
   * the bounds). Default: a memory store of `continuations`.
   */
  continuationStore?: ContinuationStore
  /**
   * `true` serves the approvals console, a page for people to approve, deny and remember
   * decisions, at `GET <basePath>/console` (`docs/console.md`). It also makes every approval
   * decision route require the header `X-Result-Views-Csrf: 1` and a same-origin request (403
   * `tool_denied` / `csrf_header_missing` or `cross_origin_refused`). Default `false`.
   */
  console?: boolean
  /**
   * Host names (lower-case, without port, e.g. `['tools.internal']`) that requests may be
   * addressed to besides IP literals, `localhost` and names under `.localhost`: approval
   * decisions always, every route when the console is on or this list is not empty. Any other
   * `Host` is 403 `tool_denied` /
   * `host_not_allowed`, which stops DNS rebinding (`docs/http.md` "Browsers and approval
   * decisions"). Default none.
   */
  allowedHosts?: readonly string[]
}

/** The options with their defaults, checked. */
export interface ResolvedHttpOptions {
  readonly basePath: string
  readonly maxBodyBytes: number
  readonly bodyTimeoutMs: number
  readonly authenticate: HttpAuthenticate | undefined
  readonly authenticateTimeoutMs: number
  readonly challenge: string
  readonly logger: Logger | undefined
  /** The result size limit, when `maxResultBytes` is set. */
  readonly limit: ResultLimit | undefined
  /** Whether the approvals console is served (and decisions need the CSRF header and the same origin). */
  readonly console: boolean
  /** The extra host names of `allowedHosts`, lower-case. */
  readonly allowedHosts: ReadonlySet<string>
}

/** Default `maxBodyBytes`: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576
/** Default `bodyTimeoutMs`: 30 seconds. */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000
/** Default `authenticateTimeoutMs`: 5 seconds. */
export const DEFAULT_AUTHENTICATE_TIMEOUT_MS = 5_000

const HTTP_OPTIONS = optionsTable(['basePath', 'maxBodyBytes', 'bodyTimeoutMs', 'authenticate', 'authenticateTimeoutMs', 'challenge', 'logger', 'maxResultBytes', 'continuations', 'continuationStore', 'console', 'allowedHosts'])
const DISPATCHER_METHODS = ['invoke', 'describe', 'list'] as const
const APPROVAL_METHODS = ['show', 'resolve', 'cancel', 'setGrant', 'listGrants', 'revokeGrant'] as const
const LOGGER_METHODS = ['debug', 'info', 'warn', 'error'] as const
const BASE_PATH = /^(\/[A-Za-z0-9._~!$&'()*+,;=:@-]+)*$/

/**
 * Checks the arguments of a handler factory, reading each option once.
 *
 * @throws HttpOptionsError listing every problem (`/dispatcher`, `/options/<name>`).
 */
export function resolveHttpOptions(dispatcher: Dispatcher, options: HttpHandlerOptions | undefined): ResolvedHttpOptions {
  const problems: UsageProblem[] = []
  const problem = (path: string, code: string, message: string): void => void problems.push({ path, code, message })
  checkDispatcher(dispatcher, problem)

  const o = readOptions(options, HTTP_OPTIONS, '/options', problems)
  const basePath = o.basePath ?? '/api'
  if (typeof basePath !== 'string' || !BASE_PATH.test(basePath)) {
    problem('/options/basePath', 'invalid_base_path', "basePath must be '' or '/' followed by path segments, without a trailing '/', e.g. '/api'")
  }
  const maxBodyBytes = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  if (typeof maxBodyBytes !== 'number' || !Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) {
    problem('/options/maxBodyBytes', 'invalid_limit', 'maxBodyBytes must be a positive integer of bytes')
  }
  const bodyTimeoutMs = checkTimeout(o.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS, 'bodyTimeoutMs', problem)
  const authenticateTimeoutMs = checkTimeout(o.authenticateTimeoutMs ?? DEFAULT_AUTHENTICATE_TIMEOUT_MS, 'authenticateTimeoutMs', problem)
  if (o.authenticate !== undefined && typeof o.authenticate !== 'function') {
    problem('/options/authenticate', 'invalid_callback', 'authenticate must be a function of the request')
  }
  const challenge = o.challenge ?? 'Bearer'
  if (typeof challenge !== 'string' || challenge.trim().length === 0 || !/^[\x20-\x7e]+$/.test(challenge)) {
    problem('/options/challenge', 'invalid_challenge', 'challenge must be a non-empty line of printable ASCII, e.g. \'Bearer realm="tools"\'')
  }
  if (o.logger !== undefined && !hasMethods(o.logger, LOGGER_METHODS)) {
    problem('/options/logger', 'invalid_logger', 'logger must have debug, info, warn and error methods')
  }
  const console = o.console ?? false
  if (typeof console !== 'boolean') problem('/options/console', 'invalid_option', 'console must be true or false')
  const allowedHosts = checkAllowedHosts(o.allowedHosts, problem)
  const bounds = checkLimitOptions(o.maxResultBytes, o.continuations, (path, code, message) => problem(`/options${path}`, code, message), o.continuationStore)
  if (problems.length > 0) throw new HttpOptionsError(problems)
  const continueRoute = `POST ${basePath as string}/results/continue`
  return Object.freeze({
    limit: createResultLimit(o.maxResultBytes as number | undefined, bounds, continueRoute),
    basePath: basePath as string,
    maxBodyBytes: maxBodyBytes as number,
    bodyTimeoutMs,
    authenticate: o.authenticate as HttpAuthenticate | undefined,
    authenticateTimeoutMs,
    challenge: challenge as string,
    logger: o.logger as Logger | undefined,
    console: console as boolean,
    allowedHosts,
  })
}

type Problem = (path: string, code: string, message: string) => void

/** `allowedHosts`: an array of host names as `URL` spells them (lower-case, no port, no brackets, no scheme). */
function checkAllowedHosts(value: unknown, problem: Problem): ReadonlySet<string> {
  if (value === undefined) return new Set()
  const names = new Set<string>()
  try {
    if (!Array.isArray(value)) throw new TypeError('not an array')
    for (const [i, name] of [...(value as unknown[])].entries()) {
      let ok = false
      if (typeof name === 'string' && name.length > 0 && !/[\s/?#@\\:[\]]/.test(name)) {
        try {
          ok = new URL(`http://${name}`).hostname === name
        } catch {
          ok = false
        }
      }
      if (ok) names.add(name as string)
      else problem(`/options/allowedHosts/${i}`, 'invalid_option', "each of allowedHosts must be a lower-case host name without port, e.g. 'tools.internal'")
    }
  } catch {
    problem('/options/allowedHosts', 'invalid_option', "allowedHosts must be an array of host names, e.g. ['tools.internal']")
  }
  return names
}

function checkDispatcher(dispatcher: unknown, problem: Problem): void {
  try {
    if (!hasMethods(dispatcher, DISPATCHER_METHODS) || !hasMethods((dispatcher as { approvals?: unknown }).approvals, APPROVAL_METHODS)) {
      problem('/dispatcher', 'invalid_dispatcher', 'dispatcher must be a dispatcher from createDispatcher (invoke, describe, list and approvals)')
    }
  } catch {
    problem('/dispatcher', 'unreadable_option', 'the dispatcher could not be read (a getter or a Proxy threw)')
  }
}

function checkTimeout(value: unknown, name: string, problem: Problem): number {
  if (isTimerBudget(value)) return value
  problem(`/options/${name}`, 'invalid_timeout', `${name} must be a positive number of milliseconds up to ${MAX_TIMER_MS}, or Infinity`)
  return 0
}

function hasMethods(value: unknown, methods: readonly string[]): boolean {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false
  return methods.every((name) => typeof (value as Record<string, unknown>)[name] === 'function')
}
