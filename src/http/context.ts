import type { CallScope, Dispatcher, TraceContext } from 'result-views'
import type { ResultLimit } from '../continuation/result-limit.js'
import type { Reply } from './exchange.js'

/** What a route's `run` gets: the dispatcher, the decoded request parts and the caller's identity. */
export interface RouteContext {
  readonly dispatcher: Dispatcher
  /** Path parameters by name (`tool_id`, `approval_id`, `grant_id`), percent-decoded. */
  readonly params: Readonly<Record<string, string>>
  /** The query parameters the route accepts, each once, non-empty. */
  readonly query: ReadonlyMap<string, string>
  /** The JSON object body (`{}` for a route whose body is optional and absent); `undefined` for routes without one. */
  readonly body: Readonly<Record<string, unknown>> | undefined
  /** The scope `authenticate` fixed, or `undefined` without `authenticate`. */
  readonly identity: Readonly<CallScope> | undefined
  /** Aborts when the client hangs up before the answer (`Exchange.signal`). */
  readonly signal: AbortSignal | undefined
  /** The result size limit (`maxResultBytes`), when set. */
  readonly limit: ResultLimit | undefined
  /** The request's `traceparent` / `tracestate` headers, for the dispatcher's telemetry (`docs/telemetry.md` "Propagation"). */
  readonly trace: TraceContext | undefined
  /** The request's `If-None-Match` header, for routes that answer 304 to an unchanged read. */
  readonly ifNoneMatch?: string | undefined
}

/** A route's work: a reply, or a thrown `ToolError` (answered with its status). */
export type RouteRun = (context: RouteContext) => Promise<Reply>

/** A body field, read only if the body has it as its own property. */
export function field(body: Readonly<Record<string, unknown>> | undefined, name: string): unknown {
  return body !== undefined && Object.hasOwn(body, name) ? body[name] : undefined
}

/** The first key of `body` outside `known`, if any. */
export function unknownKey(body: Readonly<Record<string, unknown>> | undefined, known: readonly string[]): string | undefined {
  return body === undefined ? undefined : Object.keys(body).find((key) => !known.includes(key))
}
