import { stringifyJson } from '../json/json-text.js'
import { consoleHeaders } from './console-assets.js'
import type { Reply } from './exchange.js'

/**
 * The JSON text of a reply's body. A body nested deeper than `JSON.stringify` can write (a tool
 * value may nest 5,000 levels, `docs/http.md` "Known limits") is written without recursion instead.
 */
export function replyText(reply: Reply): string {
  if (reply.asset !== undefined) return reply.asset.text
  if (reply.status === 304) return ''
  try {
    return JSON.stringify(reply.body)
  } catch (error) {
    if (error instanceof RangeError) return stringifyJson(reply.body)
    throw error
  }
}

/**
 * The headers of every reply: JSON content, its byte length, `Cache-Control: no-store` (answers
 * may hold a caller's data), `X-Content-Type-Options: nosniff`, `Allow` / `WWW-Authenticate`
 * where the status needs them, `traceparent` / `tracestate` naming a traced call's span, and
 * `ETag` where the reply has one (a 304 has no content headers). A console asset gets its own
 * type and the console's headers (`consoleHeaders`: a strict Content-Security-Policy and kin).
 */
export function replyHeaders(reply: Reply, text: string): Record<string, string> {
  if (reply.asset !== undefined) return { ...consoleHeaders(reply.asset.contentType), 'content-length': String(Buffer.byteLength(text)) }
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  }
  if (reply.allow !== undefined) headers.allow = reply.allow
  if (reply.challenge !== undefined) headers['www-authenticate'] = reply.challenge
  if (reply.trace !== undefined) {
    headers.traceparent = reply.trace.traceparent
    if (reply.trace.tracestate !== undefined) headers.tracestate = reply.trace.tracestate
  }
  if (reply.etag !== undefined) headers.etag = reply.etag
  if (reply.status === 304) {
    delete headers['content-type']
    delete headers['content-length']
  }
  return headers
}
