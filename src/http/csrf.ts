import { isIP } from 'node:net'
import { ToolError } from 'result-views'
import type { Exchange } from './exchange.js'

/** The header every approval decision must carry when the console is on (`docs/console.md` "Safe by construction"). */
export const CSRF_HEADER = 'x-result-views-csrf'

type Reason = 'csrf_header_missing' | 'cross_origin_refused' | 'host_not_allowed'

/**
 * The DNS-rebinding check (`docs/http.md` "Browsers and approval decisions"): the host the request
 * was sent to (an absolute request URL's, else its `Host` header) must be an IP literal (IPv4, or
 * bracketed IPv6), `localhost`, a name under `.localhost`, or one of `allowedHosts` (lower-case
 * names, compared without the port). A request without any host (no `Host` header: not a browser)
 * passes. A rebinding page reaches this handler under the attacker's own DNS name, which is none of
 * these.
 *
 * @returns `undefined` when the host is allowed, else 403 `tool_denied` / `host_not_allowed`.
 */
export function hostRefusal(exchange: Exchange, allowedHosts: ReadonlySet<string>): ToolError | undefined {
  const host = ownHost(exchange)
  if (host === undefined) return undefined
  const name = hostnameOf(host)
  if (name !== undefined && isAllowedHostname(name, allowedHosts)) return undefined
  return denied('host_not_allowed', 'this request names a host that is not an IP address, localhost or one of allowedHosts (DNS rebinding)')
}

/**
 * The cross-site request check of approval decisions. Always: a `Sec-Fetch-Site` header, when it
 * has one, must be `same-origin` or `none`, and an `Origin` header, when it has one, must name the
 * request's own scheme, host and port (browsers send these; the `result-views` command and curl do
 * not). With the console on (`requireHeader`), also the header `X-Result-Views-Csrf: 1` (a page of
 * another site cannot set a custom header without a CORS preflight, which this handler never grants).
 *
 * @returns `undefined` when the request may decide, else 403 `tool_denied` /
 *   `csrf_header_missing` or `cross_origin_refused`.
 */
export function crossSiteRefusal(exchange: Exchange, requireHeader: boolean): ToolError | undefined {
  if (requireHeader && exchange.header(CSRF_HEADER) !== '1') {
    return denied('csrf_header_missing', `approval decisions need the header ${CSRF_HEADER}: 1 when the console is served`)
  }
  const site = exchange.header('sec-fetch-site')
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return denied('cross_origin_refused', 'approval decisions must come from the same origin (Sec-Fetch-Site)')
  const origin = exchange.header('origin')
  if (origin !== undefined && !sameOrigin(origin, ownScheme(exchange), ownHost(exchange))) return denied('cross_origin_refused', 'approval decisions must come from the same origin (Origin)')
  return undefined
}

/** Whether `name` (a lower-case hostname as `URL` spells it) is an IP literal, `localhost`, under `.localhost`, or listed. */
function isAllowedHostname(name: string, allowedHosts: ReadonlySet<string>): boolean {
  if (name.startsWith('[') && name.endsWith(']') && isIP(name.slice(1, -1)) === 6) return true
  if (isIP(name) === 4) return true
  const bare = name.endsWith('.') ? name.slice(0, -1) : name
  return bare === 'localhost' || bare.endsWith('.localhost') || allowedHosts.has(bare)
}

/** The hostname of a `host[:port]` value, lower-case, as `URL` reads it; `undefined` when it is not one. */
function hostnameOf(host: string): string | undefined {
  if (host.length === 0 || /[\s/?#@\\]/.test(host)) return undefined
  try {
    return new URL(`http://${host}`).hostname
  } catch {
    return undefined
  }
}

/** Whether `url` is absolute (fetch runtimes hand the handler absolute URLs; `node:http` a path). */
function isAbsolute(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(url)
}

/** The host (and port) the request was sent to: an absolute request URL's (fetch runtimes), else its `Host` header. */
function ownHost(exchange: Exchange): string | undefined {
  if (isAbsolute(exchange.url)) {
    try {
      return new URL(exchange.url).host
    } catch {
      return ''
    }
  }
  return exchange.header('host')
}

/** The request's scheme: an absolute request URL's, else `https:` over TLS and `http:` otherwise. */
function ownScheme(exchange: Exchange): string {
  if (isAbsolute(exchange.url)) {
    try {
      return new URL(exchange.url).protocol
    } catch {
      return ''
    }
  }
  return exchange.secure === true ? 'https:' : 'http:'
}

/** Whether an `Origin` value (`scheme://host:port`; `null` never matches) names `scheme` and `host`. */
function sameOrigin(origin: string, scheme: string, host: string | undefined): boolean {
  if (host === undefined || host.length === 0) return false
  try {
    const url = new URL(origin)
    if (url.protocol !== scheme || (scheme !== 'http:' && scheme !== 'https:')) return false
    return url.host === new URL(`${scheme}//${host}`).host
  } catch {
    return false
  }
}

function denied(reason: Reason, message: string): ToolError {
  return new ToolError({ code: 'tool_denied', reason, message })
}
