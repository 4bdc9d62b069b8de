import type { Reply } from './exchange.js'

/** The JSON text of a reply's body. */
export function replyText(reply: Reply): string {
  return JSON.stringify(reply.body)
}

/**
 * The headers of every reply: JSON content, its byte length, `Cache-Control: no-store` (answers
 * may hold a caller's data), `X-Content-Type-Options: nosniff`, and `Allow` / `WWW-Authenticate`
 * where the status needs them.
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
  return headers
}
