import { isToolError, type Dispatcher, type ToolError, type TraceContext } from 'result-views'
import { authenticateRequest } from './authenticate.js'
import { isJsonContentType, parseJsonObject, unsupportedContentType } from './body.js'
import type { RouteRun } from './context.js'
import { bodyTooLarge, loopbackRequired, requestInvalid } from './errors.js'
import type { Exchange, Reply } from './exchange.js'
import { errorName, log } from './log.js'
import { resolveHttpOptions, type HttpHandlerOptions, type ResolvedHttpOptions } from './options.js'
import { errorReply, unexpectedFailureReply } from './reply.js'
import { matchRoute, parseTarget, queryOf, type BodyUse, type RouteSpec } from './router.js'
import { CONSOLE_ROUTES, ROUTES } from './routes.js'
import { crossSiteRefusal, hostRefusal } from './csrf.js'

/** The transport-independent handler both adapters wrap: one exchange in, one reply out. Never rejects. */
export type Core = (exchange: Exchange) => Promise<Reply>

/**
 * Builds the core over a dispatcher: authenticate (when configured) → route (404, 405) → the
 * loopback rule of decision routes (403) → the host check of decision routes, and with the
 * console on of the routes it reads (403, DNS rebinding) → the cross-site check of decision routes
 * (403, `csrf.ts`; the custom header only with the console on) → query → body (415, 413, 408, 400) → the route's work.
 * Every failure is an error reply with its status; nothing escapes as an exception.
 *
 * @throws HttpOptionsError for a dispatcher that is not one or bad options.
 */
export function createCore(dispatcher: Dispatcher, options: HttpHandlerOptions | undefined): Core {
  const resolved = resolveHttpOptions(dispatcher, options)
  const routes = resolved.console ? CONSOLE_ROUTES : ROUTES
  return async (exchange) => {
    let route: RouteSpec<RouteRun> | undefined
    try {
      let identity
      if (resolved.authenticate !== undefined) {
        identity = await authenticateRequest(resolved.authenticate, resolved, exchange)
        if (isToolError(identity)) return identity.code === 'http_unauthenticated' ? { ...errorReply(identity), challenge: resolved.challenge } : errorReply(identity)
      }
      const target = parseTarget(exchange.url, resolved.basePath)
      if (isToolError(target)) return errorReply(target)
      const match = matchRoute(routes, exchange.method, target.segments)
      if ('error' in match) return match.allow === undefined ? errorReply(match.error) : { ...errorReply(match.error), allow: match.allow }
      route = match.route
      if (route.localOnly && !exchange.local) return errorReply(loopbackRequired())
      // Decisions always get the host check (DNS rebinding); every route does once the console
      // is on or the host names its hosts, since a rebinding page could otherwise invoke tools
      // and open pending approvals of its own choosing for a person to approve.
      if (route.localOnly || resolved.console || resolved.allowedHosts.size > 0) {
        const refused = hostRefusal(exchange, resolved.allowedHosts) ?? (route.localOnly ? crossSiteRefusal(exchange, resolved.console) : undefined)
        if (refused !== undefined) return errorReply(refused)
      }
      const query = queryOf(target.query, route.query)
      if (isToolError(query)) return errorReply(query)
      const body = route.body === 'none' ? undefined : await readJsonBody(exchange, route.body, resolved)
      if (isToolError(body)) return errorReply(body)
      return await route.run({ dispatcher, params: match.params, query, body, identity, signal: exchange.signal, limit: resolved.limit, trace: traceOf(exchange), ifNoneMatch: exchange.header('if-none-match') })
    } catch (error) {
      return failureReply(error, route, resolved)
    }
  }
}

/** The reply to a thrown value: a `ToolError` with its status, anything else 500 `http_handler_failed` / `unexpected_error` (logged by name). */
function failureReply(error: unknown, route: RouteSpec<RouteRun> | undefined, options: ResolvedHttpOptions): Reply {
  try {
    if (isToolError(error)) return errorReply(error)
  } catch {
    // A forged or broken ToolError: answered as an unexpected failure below.
  }
  const where = route === undefined ? undefined : `${route.method} /${route.path.join('/')}`
  log(options.logger, 'error', { event: 'http.handler_failed', route: where, error_name: errorName(error) }, 'the HTTP handler failed unexpectedly')
  return unexpectedFailureReply(error)
}

/** The body of a route that takes one, as a JSON object; `{}` for an absent optional body. */
async function readJsonBody(exchange: Exchange, use: BodyUse, options: ResolvedHttpOptions): Promise<Record<string, unknown> | ToolError> {
  if (!exchange.hasBody) return use === 'optional' ? {} : requestInvalid('json_malformed', 'this route needs a JSON object body')
  if (!isJsonContentType(exchange.header('content-type'))) return unsupportedContentType()
  if (exchange.declaredLength !== undefined && exchange.declaredLength > options.maxBodyBytes) return bodyTooLarge(options.maxBodyBytes)
  const bytes = await exchange.readBody(options.maxBodyBytes, options.bodyTimeoutMs)
  if (isToolError(bytes)) {
    if (bytes.reason === 'body_incomplete') log(options.logger, 'debug', { event: 'http.body_incomplete' }, 'the client ended the request before its body arrived')
    return bytes
  }
  if (bytes.length === 0 && use === 'optional') return {}
  return parseJsonObject(bytes)
}

/**
 * The W3C trace context a request's headers carry (`traceparent`, `tracestate`), `undefined`
 * without a `traceparent`. Passed on as sent: the dispatcher's telemetry ignores a malformed one.
 */
function traceOf(exchange: Exchange): TraceContext | undefined {
  const traceparent = exchange.header('traceparent')
  if (traceparent === undefined) return undefined
  const tracestate = exchange.header('tracestate')
  return tracestate === undefined ? { traceparent } : { traceparent, tracestate }
}
