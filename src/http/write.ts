import { stringifyJson } from '../json/json-text.js'
import type { Reply } from './exchange.js'

/**
 * The JSON text of a reply's body. A body nested deeper than `JSON.stringify` can write (a tool
 * value may nest 5,000 levels, `docs/http.md` "Known limits") is written without recursion instead.
 */
export function replyText(reply: Reply): string {
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
 * where the status needs them, and `traceparent` / `tracestate` naming a traced call's span.
 */
export function replyHeaders(reply: Reply, text: string): Record<string, string> {
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
  return headers
}
