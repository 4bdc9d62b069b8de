import type { ToolError, TraceContext } from 'result-views'

/**
 * One request as the core sees it, whichever adapter (`node:http` or fetch) received it. The
 * adapters fill it in; the core never touches a socket or a stream.
 */
export interface Exchange {
  /** The request method, e.g. `GET`. */
  readonly method: string
  /** The request target: path and query (or an absolute URL). */
  readonly url: string
  /** One header by its lower-case name (repeats joined with `, `), or `undefined`. */
  header(name: string): string | undefined
  /** Every header, for the host's `authenticate` (built on first use). */
  headers(): Headers
  /** The peer's IP address, when the connection has one. */
  readonly remoteAddress: string | undefined
  /** A loopback peer or a Unix socket. */
  readonly local: boolean
  /** The connection is TLS (`node:https`): the request's scheme is `https:` when its URL is a path. */
  readonly secure?: boolean
  /** Whether the request carries a body (a `Content-Length` above 0, or a chunked body). */
  readonly hasBody: boolean
  /** The `Content-Length` the request declared, if any. */
  readonly declaredLength: number | undefined
  /** Aborts when the client goes away before the answer is sent (it hung up): the tool call it started is cancelled. */
  readonly signal: AbortSignal | undefined
  /**
   * Reads the whole body: the bytes, or `http_request_invalid` (`body_too_large` past
   * `maxBytes`, `body_timeout` past `timeoutMs`, `body_incomplete` when the client ended or
   * aborted early) or `http_handler_failed` / `body_already_read`. Never rejects.
   */
  readBody(maxBytes: number, timeoutMs: number): Promise<Uint8Array | ToolError>
}

/** What the core answers: a status, a JSON body and the headers some statuses need. */
export interface Reply {
  readonly status: number
  /** Sent as JSON. */
  readonly body: unknown
  /** The `Allow` header of a 405. */
  readonly allow?: string
  /** The `WWW-Authenticate` header of a 401. */
  readonly challenge?: string
  /** The `traceparent` (and `tracestate`) headers of an invocation whose dispatcher has telemetry: the call's span (`docs/telemetry.md` "Propagation"). */
  readonly trace?: TraceContext
  /** The `ETag` header of a read that can be answered 304 when unchanged (a 304 has no body). */
  readonly etag?: string
  /** A console asset instead of JSON: its text and content type (`body` is then ignored), sent with the console's security headers. */
  readonly asset?: { readonly contentType: string; readonly text: string }
}

/** A 200 reply. */
export function ok(body: unknown): Reply {
  return { status: 200, body }
}
