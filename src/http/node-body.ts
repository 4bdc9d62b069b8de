import type { IncomingMessage } from 'node:http'
import type { ToolError } from 'result-views'
import { bodyAlreadyRead, bodyIncomplete, bodyTimeout, bodyTooLarge } from './errors.js'

/**
 * Reads a Node request body up to `maxBytes` within `timeoutMs` (`docs/http.md` "The request
 * path"; the 408 and 413 rows of "Status codes"): the bytes, or `http_request_invalid` (`body_too_large` past `maxBytes`,
 * `body_timeout` past `timeoutMs`, `body_incomplete` when the client ended or aborted early), or
 * `http_handler_failed` / `body_already_read`. Never rejects.
 *
 * The listeners are functions of this module, shared by every request (they find the read by the
 * request they are called on), and the deadline is one entry in a queue per `timeoutMs` with one
 * timer, not a timer per request: a body that arrives costs no closure and no timer.
 */
export function readNodeBody(request: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<Uint8Array | ToolError> {
  if (request.readableEnded) return Promise.resolve(request.complete ? bodyAlreadyRead() : bodyIncomplete())
  if ((request as Reading)[READ] !== undefined) return Promise.resolve(bodyAlreadyRead())
  return new Promise((resolve) => {
    const read = new BodyRead(request, maxBytes, resolve)
    ;(request as Reading)[READ] = read
    if (timeoutMs !== Infinity) deadlinesOf(timeoutMs).add(read)
    request.on('data', onData)
    request.on('end', onEnd)
    request.on('close', onClose)
    request.on('error', onClose)
  })
}

/** Where a request keeps its read while it runs. */
const READ: unique symbol = Symbol('result-views.bodyRead')
type Reading = IncomingMessage & { [READ]?: BodyRead | null }

/** One body being read. */
class BodyRead {
  readonly chunks: Buffer[] = []
  size = 0
  /** When it times out (`performance.now()` milliseconds), set by its deadline queue. */
  deadline = 0
  /** The queue that holds it, until it ends. */
  queue: Deadlines | undefined
  constructor(
    readonly request: Reading,
    readonly maxBytes: number,
    readonly resolve: (value: Uint8Array | ToolError) => void,
  ) {}

  /** Ends the read once: the listeners go, the deadline goes, the promise settles. */
  finish(value: Uint8Array | ToolError): void {
    const request = this.request
    if (request[READ] !== this) return
    // `null`, not `undefined`: a second read of the same request is refused as already read.
    request[READ] = null
    this.queue?.delete(this)
    request.off('data', onData)
    request.off('end', onEnd)
    request.off('close', onClose)
    request.off('error', onClose)
    this.resolve(value)
  }
}

function readOf(request: IncomingMessage): BodyRead | undefined {
  return (request as Reading)[READ] ?? undefined
}

function onData(this: IncomingMessage, chunk: Buffer): void {
  const read = readOf(this)
  if (read === undefined) return
  read.size += chunk.length
  if (read.size > read.maxBytes) read.finish(bodyTooLarge(read.maxBytes))
  else read.chunks.push(chunk)
}

function onEnd(this: IncomingMessage): void {
  const read = readOf(this)
  read?.finish(Buffer.concat(read.chunks, read.size))
}

function onClose(this: IncomingMessage): void {
  readOf(this)?.finish(bodyIncomplete())
}

/**
 * The reads of one `timeoutMs`, oldest first (a `Set` keeps insertion order, and every entry has
 * the same budget, so that is deadline order), under one timer armed for the oldest. The timer
 * never fires a read early: it checks the clock and re-arms for what is left. It is unref'd: a
 * read waits on its connection, which keeps the process alive by itself.
 */
class Deadlines {
  readonly #reads = new Set<BodyRead>()
  #timer: ReturnType<typeof setTimeout> | undefined
  constructor(readonly timeoutMs: number) {}

  add(read: BodyRead): void {
    read.deadline = performance.now() + this.timeoutMs
    read.queue = this
    this.#reads.add(read)
    if (this.#timer === undefined) this.#arm(this.timeoutMs)
  }

  delete(read: BodyRead): void {
    this.#reads.delete(read)
    read.queue = undefined
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => this.#sweep(), ms)
    this.#timer.unref?.()
  }

  #sweep(): void {
    this.#timer = undefined
    const now = performance.now()
    for (const read of this.#reads) {
      if (read.deadline > now) {
        this.#arm(Math.max(1, Math.ceil(read.deadline - now)))
        return
      }
      read.finish(bodyTimeout(this.timeoutMs))
    }
    // Nothing waits: the queue goes, and the next read of this budget makes a new one.
    if (queues.get(this.timeoutMs) === this) queues.delete(this.timeoutMs)
  }
}

/** The deadline queue of each `timeoutMs` in use. */
const queues = new Map<number, Deadlines>()

function deadlinesOf(timeoutMs: number): Deadlines {
  let queue = queues.get(timeoutMs)
  if (queue === undefined) queues.set(timeoutMs, (queue = new Deadlines(timeoutMs)))
  return queue
}
