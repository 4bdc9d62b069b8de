// Servers, clients and loggers shared by the HTTP tests: every listener is on loopback or a Unix
// socket in a fresh directory, started by the test that uses it and closed in its teardown.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, request as httpRequest, type RequestListener, type Server } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Type from 'typebox'
import { defineTool, type Logger, type Tool } from 'result-views'

/** A handler served on `127.0.0.1:<free port>` and on a Unix socket. */
export interface Served {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string
  readonly port: number
  readonly socket: string
  readonly tcp: Server
  close(): Promise<void>
}

/** Serves `listener` on loopback TCP (port 0) and on a Unix socket. */
export async function serve(listener: RequestListener): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'rv-http-test-'))
  const socket = join(dir, 'api.sock')
  const tcp = createServer(listener)
  const unix = createServer(listener)
  await new Promise<void>((done) => tcp.listen(0, '127.0.0.1', done))
  await new Promise<void>((done) => unix.listen(socket, done))
  const { port } = tcp.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    socket,
    tcp,
    close: async () => {
      for (const server of [tcp, unix]) {
        server.closeAllConnections()
        await new Promise<void>((done) => server.close(() => done()))
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** An answer, its body parsed as JSON. */
export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: any
}

/** A `fetch` to `origin + path`; a JSON `body` is sent with `Content-Type: application/json`. */
export async function fetchJson(origin: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const init: RequestInit = { method, headers: { ...headers } }
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body)
    ;(init.headers as Record<string, string>)['content-type'] ??= 'application/json'
  }
  const response = await fetch(origin + path, init)
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text.length === 0 ? undefined : JSON.parse(text) }
}

/** The same over a Unix socket, with `node:http` (fetch has no Unix sockets). */
export function unixJson(socket: string, method: string, path: string, body?: unknown): Promise<Answer> {
  return new Promise((done, fail) => {
    const text = body === undefined ? undefined : JSON.stringify(body)
    const headers: Record<string, string> = text === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }
    const req = httpRequest({ socketPath: socket, method, path, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const answer = new Headers()
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') answer.set(name, value)
        const raw = Buffer.concat(chunks).toString('utf8')
        done({ status: res.statusCode ?? 0, headers: answer, body: raw.length === 0 ? undefined : JSON.parse(raw) })
      })
    })
    req.on('error', fail)
    req.end(text)
  })
}

/** What a raw TCP client saw: the bytes the server sent, and whether the server closed the connection. */
export interface RawExchange {
  readonly text: string
  readonly closedByServer: boolean
}

/**
 * Sends `parts` over a raw TCP connection (each after `gapMs`), then waits for the server to close
 * the connection (or `waitMs`) and returns what it sent. `hangUp` closes the client side right
 * after the last part instead of waiting.
 */
export function rawExchange(port: number, parts: readonly (string | Buffer)[], options: { gapMs?: number; waitMs?: number; hangUp?: boolean } = {}): Promise<RawExchange> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    let closedByServer = false
    let finished = false
    const finish = (): void => {
      if (finished) return
      finished = true
      clearTimeout(timer)
      socket.destroy()
      done({ text: Buffer.concat(chunks).toString('utf8'), closedByServer })
    }
    const timer = setTimeout(finish, options.waitMs ?? 5_000)
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('end', () => {
      closedByServer = true
      finish()
    })
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? finish() : fail(error)))
    socket.on('connect', async () => {
      for (const part of parts) {
        socket.write(part)
        if (options.gapMs !== undefined) await new Promise((wait) => setTimeout(wait, options.gapMs))
      }
      if (options.hangUp === true) finish()
    })
  })
}

/** The status code and JSON body of a raw HTTP/1.1 response text. */
export function parseRawResponse(text: string): { status: number; headers: string; body: any } {
  const [head = '', body = ''] = text.split('\r\n\r\n')
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1])
  return { status, headers: head.toLowerCase(), body: body.length === 0 ? undefined : JSON.parse(body) }
}

/** A logger that keeps every line (level, fields, message) for assertions. */
export function recordingLogger(): { logger: Logger; lines: { level: string; fields: Record<string, unknown>; message: string }[] } {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = []
  const at = (level: string) => (fields: Record<string, unknown>, message: string) => void lines.push({ level, fields, message })
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines }
}

/** Resolves once `check()` is true (polled every 5 ms), or rejects after `timeoutMs`. */
export async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((wait) => setTimeout(wait, 5))
  }
}

/** A catalog of one single-result tool, `jobs__run`, that counts its runs and never echoes its input. */
export function countingCatalog(): { tools: [Tool]; runs: () => number } {
  let runs = 0
  const tool = defineTool({
    id: 'jobs__run',
    description: 'Run a job.',
    risk: 'write',
    input: Type.Object({ job: Type.String(), payload: Type.Optional(Type.Unknown()) }),
    output: Type.Object({ ran: Type.Boolean() }, { additionalProperties: false }),
    handler: () => {
      runs++
      return { ran: true }
    },
  })
  return { tools: [tool], runs: () => runs }
}
