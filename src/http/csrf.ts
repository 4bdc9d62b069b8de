import { ToolError } from 'result-views'
import type { Exchange } from './exchange.js'

/** The header every approval decision must carry when the console is on (`docs/console.md` "Safe by construction"). */
export const CSRF_HEADER = 'x-result-views-csrf'

/**
 * The cross-site request check of approval decisions, with the console on: the request must carry
 * `X-Result-Views-Csrf: 1` (a page of another site cannot set a custom header without a CORS
 * preflight, which this handler never grants), an `Origin` header, when it has one, must name the
 * request's own host, and a `Sec-Fetch-Site` header, when it has one, must be `same-origin` or
 * `none`. A client that is not a browser (the `result-views` command, curl) sends the header and no
 * `Origin`.
 *
 * @returns `undefined` when the request may decide, else 403 `tool_denied` /
 *   `csrf_header_missing` or `cross_origin_refused`.
 */
export function crossSiteRefusal(exchange: Exchange): ToolError | undefined {
  if (exchange.header(CSRF_HEADER) !== '1') {
    return denied('csrf_header_missing', `approval decisions need the header ${CSRF_HEADER}: 1 when the console is served`)
  }
  const site = exchange.header('sec-fetch-site')
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return denied('cross_origin_refused', 'approval decisions must come from the same origin (Sec-Fetch-Site)')
  const origin = exchange.header('origin')
  if (origin !== undefined && !sameHost(origin, ownHost(exchange))) return denied('cross_origin_refused', 'approval decisions must come from the same origin (Origin)')
  return undefined
}

/** The host (and port) the request was sent to: an absolute request URL's (fetch runtimes), else its `Host` header. */
function ownHost(exchange: Exchange): string | undefined {
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(exchange.url)) return new URL(exchange.url).host
  } catch {
    return undefined
  }
  return exchange.header('host')
}

/** Whether an `Origin` value (`http://host:port`; `null` never matches) names `host`. */
function sameHost(origin: string, host: string | undefined): boolean {
  if (host === undefined || host.length === 0) return false
  try {
    const url = new URL(origin)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === new URL(`http://${host}`).host
  } catch {
    return false
  }
}

function denied(reason: 'csrf_header_missing' | 'cross_origin_refused', message: string): ToolError {
  return new ToolError({ code: 'tool_denied', reason, message })
}
