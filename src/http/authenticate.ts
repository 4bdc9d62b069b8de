import type { CallScope, ToolError } from 'result-views'
import { callHost } from '../async/deadline.js'
import { handlerFailed, unauthenticated } from './errors.js'
import type { Exchange } from './exchange.js'
import { log } from './log.js'
import type { HttpAuthenticate, ResolvedHttpOptions } from './options.js'
import { SCOPE_FIELDS } from './scope.js'
import { isPlainObject } from '../json/guards.js'

/**
 * Asks the host's `authenticate` about a request (`docs/http.md` "Authentication").
 *
 * @returns the scope it fixed (a frozen copy of its string fields), or `http_unauthenticated` /
 *   `authentication_refused` for `null` / `false`, or `http_handler_failed`
 *   (`authenticate_failed`: it threw, rejected or answered something else; `authenticate_timeout`).
 */
export async function authenticateRequest(authenticate: HttpAuthenticate, options: ResolvedHttpOptions, exchange: Exchange): Promise<Readonly<CallScope> | ToolError> {
  const request = Object.freeze({
    method: exchange.method,
    url: exchange.url,
    headers: exchange.headers(),
    remoteAddress: exchange.remoteAddress,
    local: exchange.local,
  })
  // The answer is read by the same guard that runs the callback: null/false, a scope, or nothing usable.
  const answer = await callHost(() => authenticate(request), { timeoutMs: options.authenticateTimeoutMs }, readAnswer)
  if (!answer.ok) {
    const timedOut = answer.failure === 'timeout'
    const problem = timedOut ? 'timeout' : answer.failure === 'unreadable' ? 'invalid_answer' : 'threw'
    log(options.logger, 'warn', { event: 'http.authenticate_failed', problem }, 'authenticate failed; the request is refused')
    if (timedOut) return handlerFailed('authenticate_timeout', `authenticate did not answer within ${options.authenticateTimeoutMs} ms`)
    return problem === 'threw'
      ? handlerFailed('authenticate_failed', 'authenticate threw or rejected', answer.cause)
      : handlerFailed('authenticate_failed', 'authenticate answered something that is not a scope, null or false')
  }
  if (answer.value === REFUSED) return unauthenticated()
  if (answer.value !== undefined) return answer.value
  log(options.logger, 'warn', { event: 'http.authenticate_failed', problem: 'invalid_answer' }, 'authenticate answered something that is not a scope, null or false')
  return handlerFailed('authenticate_failed', 'authenticate answered something that is not a scope, null or false')
}

/** `authenticate` refused the request (`null` or `false`). */
const REFUSED: unique symbol = Symbol('refused')

/** What an answer of `authenticate` means: refused, a scope, or `undefined` for anything else. */
function readAnswer(value: unknown): typeof REFUSED | Readonly<CallScope> | undefined {
  return value === null || value === false ? REFUSED : scopeOf(value)
}

/** A frozen copy of a plain object holding only string scope fields, or `undefined` for anything else (read inside a guard). */
function scopeOf(value: unknown): Readonly<CallScope> | undefined {
  try {
    if (!isPlainObject(value)) return undefined
    const scope: CallScope = {}
    for (const key of Object.keys(value)) {
      if (!(SCOPE_FIELDS as readonly string[]).includes(key)) return undefined
      const field = (value as Record<string, unknown>)[key]
      if (field === undefined) continue
      if (typeof field !== 'string') return undefined
      scope[key as keyof CallScope] = field
    }
    return Object.freeze(scope)
  } catch {
    return undefined
  }
}
