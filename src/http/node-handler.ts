import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { Dispatcher, ToolError } from 'result-views'
import type { Exchange, Reply } from './exchange.js'
import { createCore } from './handle.js'
import { isLoopbackAddress } from './loopback.js'
import { readNodeBody } from './node-body.js'
import type { HttpHandlerOptions } from './options.js'
import { unexpectedFailureReply } from './reply.js'
import { replyHeaders, replyText } from './write.js'

/** A Node request listener, as `http.createServer(listener)` and Express/Connect take it. */
export type HttpRequestListener = (request: IncomingMessage, response: ServerResponse) => void

/**
 * The HTTP/UDS routes of `docs/http.md` over a dispatcher, as a Node request listener:
 * `http.createServer(createHttpHandler(dispatcher)).listen(port, '127.0.0.1')` or
 * `.listen('/run/tools.sock')`; it also mounts in Express or Connect (before any body parser,
 * with `basePath` set to what the mount leaves of the path).
 *
 * Every request gets a JSON answer; a malformed, oversized, slow or abandoned request is a typed
 * error (400, 408, 413, 415), never a crash or a hung socket. A response sent before the request
 * body was fully read closes the connection. Approval decisions (resolve, cancel, grant changes)
 * need a loopback peer or a Unix socket.
 *
 * @param dispatcher - from `createDispatcher`.
 * @param options - see {@link HttpHandlerOptions}.
 * @throws HttpOptionsError (`code: 'http_options_invalid'`) for a dispatcher that is not one or bad options.
 */
export function createHttpHandler(dispatcher: Dispatcher, options?: HttpHandlerOptions): HttpRequestListener {
  const core = createCore(dispatcher, options)
  return (request, response) => {
    const exchange = nodeExchange(request, hangUpSignal(request, response))
    void core(exchange).then(
      (reply) => send(request, response, reply),
      (error: unknown) => send(request, response, unexpectedFailureReply(error)),
    )
  }
}

/** The hang-up signal of each open connection: aborted when its socket closes. */
const socketHangUps = new WeakMap<object, AbortSignal>()

/**
 * The signal that aborts when the client hangs up before its answer: the connection's, shared by
 * every request on it (an `AbortSignal` costs microseconds to make, and a keep-alive connection
 * carries many requests), aborted when the socket closes. A closed socket ends every response on
 * it, so this is the moment the response would close unfinished; one that closes after the
 * answer was sent aborts nothing that still runs (each call stops following the signal when it
 * ends). A request without a live socket of its own (a test double, a socket already closed)
 * gets a signal of its own, aborted when its response closes before it finished
 * (`docs/http.md` "The request path").
 */
function hangUpSignal(request: IncomingMessage, response: ServerResponse): AbortSignal {
  const socket = request.socket as Socket | null | undefined
  if (socket !== null && typeof socket === 'object' && socket.destroyed === false && typeof socket.once === 'function') {
    const known = socketHangUps.get(socket)
    if (known !== undefined) return known
    const controller = new AbortController()
    socket.once('close', () => controller.abort())
    socketHangUps.set(socket, controller.signal)
    return controller.signal
  }
  const hangUp = new AbortController()
  response.once('close', () => {
    if (!response.writableFinished) hangUp.abort()
  })
  return hangUp.signal
}

/** The exchange of a Node request. The peer is read at once, while the socket is open. */
function nodeExchange(request: IncomingMessage, signal: AbortSignal): Exchange {
  const { local, remoteAddress } = peerOf(request.socket)
  const length = request.headers['content-length']
  const declaredLength = length === undefined ? undefined : Number(length)
  const hasBody = (declaredLength !== undefined && declaredLength > 0) || request.headers['transfer-encoding'] !== undefined
  return new NodeExchange(request, signal, local, remoteAddress, hasBody, Number.isSafeInteger(declaredLength) ? declaredLength : undefined)
}

/** One Node request as the core reads it; its methods live on the prototype, so a request makes no closures. */
class NodeExchange implements Exchange {
  readonly method: string
  readonly url: string
  readonly secure: boolean
  #headers: Headers | undefined
  constructor(
    readonly request: IncomingMessage,
    readonly signal: AbortSignal,
    readonly local: boolean,
    readonly remoteAddress: string | undefined,
    readonly hasBody: boolean,
    readonly declaredLength: number | undefined,
  ) {
    this.method = request.method ?? ''
    this.url = request.url ?? ''
    this.secure = (request.socket as { encrypted?: unknown } | undefined)?.encrypted === true
  }

  header(name: string): string | undefined {
    const value = this.request.headers[name]
    return Array.isArray(value) ? value.join(', ') : value
  }

  headers(): Headers {
    return (this.#headers ??= toHeaders(this.request))
  }

  readBody(maxBytes: number, timeoutMs: number): Promise<Uint8Array | ToolError> {
    return readNodeBody(this.request, maxBytes, timeoutMs)
  }
}

/**
 * The peer of a connection: a TCP peer is local when its address is loopback; a connection
 * without a peer address is local only when its server listens on a path (a Unix socket or a
 * Windows pipe). Anything unreadable is not local.
 */
function peerOf(socket: Socket | undefined): { local: boolean; remoteAddress: string | undefined } {
  try {
    const remoteAddress = socket?.remoteAddress
    if (typeof remoteAddress === 'string') return { local: isLoopbackAddress(remoteAddress), remoteAddress }
    const server = (socket as { server?: { address?: () => unknown } } | undefined)?.server
    return { local: socket?.destroyed === false && typeof server?.address?.() === 'string', remoteAddress: undefined }
  } catch {
    return { local: false, remoteAddress: undefined }
  }
}

function toHeaders(request: IncomingMessage): Headers {
  const headers = new Headers()
  const raw = request.rawHeaders
  for (let index = 0; index + 1 < raw.length; index += 2) {
    try {
      headers.append(raw[index]!, raw[index + 1]!)
    } catch {
      // A header the WHATWG rules refuse (Node's parser is more lenient) is left out.
    }
  }
  return headers
}

/**
 * Writes a reply, unless the response is already gone. When the request body was not read to its
 * end (an early error, an oversized or slow body), the connection is closed after the reply, so
 * an unread body never holds the socket.
 */
function send(request: IncomingMessage, response: ServerResponse, reply: Reply): void {
  if (response.headersSent || response.writableEnded || response.destroyed) return
  try {
    const text = replyText(reply)
    const headers = replyHeaders(reply, text)
    if (!request.complete) headers.connection = 'close'
    // One `writeHead` with every header (merged with any a framework set before): no header is
    // validated twice, and the head goes out with the body in one write.
    response.writeHead(reply.status, headers).end(text)
  } catch {
    response.destroy()
  }
}
