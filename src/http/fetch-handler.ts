import type { Dispatcher, ToolError } from 'result-views'
import { bodyAlreadyRead, bodyIncomplete, bodyTimeout, bodyTooLarge } from './errors.js'
import type { Exchange, Reply } from './exchange.js'
import { createCore } from './handle.js'
import { isLoopbackAddress } from './loopback.js'
import type { HttpHandlerOptions } from './options.js'
import { unexpectedFailureReply } from './reply.js'
import { replyHeaders, replyText } from './write.js'

/** What a fetch-style runtime knows about the connection of a request. */
export interface FetchRequestInfo {
  /** The peer's IP address (Bun `server.requestIP(request)?.address`, Deno `info.remoteAddr.hostname`, Hono's `getConnInfo`). */
  remoteAddress?: string
  /** `true` when the host knows the request is local (it came over a Unix socket, or from the same process): it counts like a loopback peer. */
  local?: boolean
}

/** A fetch-style handler: a WHATWG `Request` in, a `Response` out. Never rejects. */
export type FetchHandler = (request: Request, info?: FetchRequestInfo) => Promise<Response>

/**
 * The same routes as `createHttpHandler`, for fetch-style runtimes (Hono, Bun, Deno, workers):
 * `Bun.serve({ fetch: (request, server) => handler(request, { remoteAddress: server.requestIP(request)?.address }) })`.
 * A request is local (for approval decisions) only when `info.remoteAddress` is loopback or
 * `info.local` is `true`; without `info` it is not. See `docs/http.md`.
 *
 * @param dispatcher - from `createDispatcher`.
 * @param options - see {@link HttpHandlerOptions}.
 * @throws HttpOptionsError (`code: 'http_options_invalid'`) for a dispatcher that is not one or bad options.
 */
export function createFetchHandler(dispatcher: Dispatcher, options?: HttpHandlerOptions): FetchHandler {
  const core = createCore(dispatcher, options)
  return async (request, info) => {
    const exchange = fetchExchange(request, info)
    const reply: Reply = exchange === undefined ? unexpectedFailureReply() : await core(exchange)
    const text = replyText(reply)
    return new Response(reply.status === 304 ? null : text, { status: reply.status, headers: replyHeaders(reply, text) })
  }
}

/** The exchange of a `Request`, or `undefined` for something that is not one (read inside a guard). */
function fetchExchange(request: Request, info: FetchRequestInfo | undefined): Exchange | undefined {
  try {
    const method = request.method
    const url = request.url
    const headers = request.headers
    if (typeof method !== 'string' || typeof url !== 'string' || typeof headers?.get !== 'function') return undefined
    // The runtime aborts a request's signal when its client goes away (Bun, Deno, undici servers).
    const signal: unknown = request.signal

    const { local, remoteAddress } = peerOf(info)
    const length = headers.get('content-length')
    const declaredLength = length === null ? undefined : Number(length)
    return {
      method,
      url,
      header: (name) => headers.get(name) ?? undefined,
      headers: () => headers,
      remoteAddress,
      local,
      // A runtime may hand a bodiless request (Content-Length: 0) an empty stream rather than null.
      hasBody: request.body !== null && declaredLength !== 0,
      declaredLength: declaredLength !== undefined && Number.isSafeInteger(declaredLength) ? declaredLength : undefined,
      signal: signal instanceof AbortSignal ? signal : undefined,
      readBody: (maxBytes, timeoutMs) => readBody(request, maxBytes, timeoutMs),
    }
  } catch {
    return undefined
  }
}

function peerOf(info: FetchRequestInfo | undefined): { local: boolean; remoteAddress: string | undefined } {
  try {
    const remoteAddress = typeof info?.remoteAddress === 'string' ? info.remoteAddress : undefined
    return { local: info?.local === true || isLoopbackAddress(remoteAddress), remoteAddress }
  } catch {
    return { local: false, remoteAddress: undefined }
  }
}

/** Reads a `Request` body up to `maxBytes` within `timeoutMs`; never rejects (see `Exchange.readBody`). */
async function readBody(request: Request, maxBytes: number, timeoutMs: number): Promise<Uint8Array | ToolError> {
  let reader: ReadableStreamDefaultReader<Uint8Array>
  try {
    if (request.bodyUsed || request.body === null) return bodyAlreadyRead()
    reader = request.body.getReader()
  } catch {
    return bodyAlreadyRead()
  }
  let timedOut = false
  const timer = timeoutMs === Infinity ? undefined : setTimeout(() => {
    timedOut = true
    reader.cancel().catch(() => {})
  }, timeoutMs)
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (timedOut) return bodyTimeout(timeoutMs)
      if (done) return Buffer.concat(chunks, size)
      if (!(value instanceof Uint8Array)) return bodyIncomplete()
      size += value.byteLength
      if (size > maxBytes) {
        reader.cancel().catch(() => {})
        return bodyTooLarge(maxBytes)
      }
      chunks.push(value)
    }
  } catch {
    return timedOut ? bodyTimeout(timeoutMs) : bodyIncomplete()
  } finally {
    clearTimeout(timer)
  }
}
