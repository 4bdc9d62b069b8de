import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { stringifyJson } from '../json/json-text.js'
import { queryString, targetUnavailable, type ApiAnswer, type ApiRequest, type Target } from './target.js'

/** Where a remote target is: a URL (its path, if any, is the base path; default `/api`) or a Unix socket (base path `/api`). */
export type RemoteAddress = { readonly url: URL } | { readonly socket: string }

/** Options of a remote target. */
export interface RemoteOptions {
  /** How long one call may take, in milliseconds, before it fails with `timeout`. */
  readonly timeoutMs: number
  /** Sent as the `Authorization` header (from `RESULT_VIEWS_AUTHORIZATION`), for a server with `authenticate`. */
  readonly authorization?: string | undefined
}

/** Largest answer read, in bytes (64 MiB): a bigger one is `response_invalid`. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024

/** A target that calls a `result-views/http` server with `node:http` (or `node:https`). */
export function remoteTarget(address: RemoteAddress, options: RemoteOptions): Target {
  const where = 'url' in address ? describeUrl(address.url) : address.socket
  const base = 'url' in address ? basePathOf(address.url) : '/api'
  const connection: RequestOptions =
    'url' in address
      ? {
          protocol: address.url.protocol,
          hostname: address.url.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: address.url.port,
          ...(address.url.username === '' ? {} : { auth: `${decoded(address.url.username)}:${decoded(address.url.password)}` }),
        }
      : { socketPath: address.socket }
  const send = 'url' in address && address.url.protocol === 'https:' ? httpsRequest : httpRequest

  return {
    send: (call: ApiRequest) =>
      new Promise<ApiAnswer>((resolve) => {
        const text = call.body === undefined ? undefined : stringifyJson(call.body)
        // The CSRF header a handler serving the approvals console requires on decisions (docs/console.md).
        const headers: Record<string, string> = { accept: 'application/json', 'x-result-views-csrf': '1' }
        if (text !== undefined) {
          headers['content-type'] = 'application/json'
          headers['content-length'] = String(Buffer.byteLength(text))
        }
        if (options.authorization !== undefined) headers.authorization = options.authorization
        let settled = false
        const settle = (answer: ApiAnswer): void => {
          if (settled) return
          settled = true
          clearTimeout(timer)
          request.destroy()
          resolve(answer)
        }
        let request: ReturnType<typeof send>
        try {
          request = send({ ...connection, method: call.method, path: base + call.path + queryString(call.query), headers }, (response) => {
            readAnswer(response, where).then(settle, () => settle(targetUnavailable('connection_failed', `the connection to ${where} broke while reading the answer`)))
          })
        } catch (error) {
          // Node refuses some addresses before connecting (ERR_INVALID_ARG_VALUE and kin).
          resolve(targetUnavailable('connection_failed', `cannot reach ${where}: ${(error as NodeJS.ErrnoException).code ?? 'refused by node:http'}`))
          return
        }
        const timer = setTimeout(() => settle(targetUnavailable('timeout', `${where} did not answer within ${options.timeoutMs} ms`)), options.timeoutMs)
        request.on('error', (error: NodeJS.ErrnoException) => settle(targetUnavailable('connection_failed', `cannot reach ${where}: ${error.code ?? error.message}`)))
        request.end(text)
      }),
  }
}

async function readAnswer(response: IncomingMessage, where: string): Promise<ApiAnswer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_ANSWER_BYTES) return targetUnavailable('response_invalid', `${where} answered more than ${MAX_ANSWER_BYTES} bytes`)
    chunks.push(chunk)
  }
  const status = response.statusCode ?? 0
  try {
    return { ok: true, status, body: JSON.parse(Buffer.concat(chunks, size).toString('utf8')) }
  } catch {
    return targetUnavailable('response_invalid', `${where} answered HTTP ${status} without the routes' JSON (is it a result-views/http server?)`)
  }
}

/** A percent-encoded URL part decoded, or as it is when its escapes are malformed (`%zz`). */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    return part
  }
}

/** The URL's path as the base path, `/api` when it has none. */
function basePathOf(url: URL): string {
  const path = url.pathname.replace(/\/+$/, '')
  return path.length === 0 ? '/api' : path
}

/** The URL without credentials, query or fragment, for messages. */
function describeUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`
}
