import { isToolError, outcomeForModel, type CallScope, type InvokeOutcome, type InvokeRequest } from 'result-views'
import { continueResult, limitResult } from '../continuation/result-limit.js'
import { withSurfaceDetails } from '../errors/surface-details.js'
import { field, unknownKey, type RouteContext } from './context.js'
import { invokeRequestInvalid, requestInvalid, shown, unknownTool } from './errors.js'
import { ok, type Reply } from './exchange.js'
import { outcomeReply } from './reply.js'
import { bodyScope, mergeScope, SCOPE_FIELDS } from './scope.js'

/** The query parameters that ask for scoped diagnostics. */
export const SCOPE_QUERY: readonly string[] = SCOPE_FIELDS

/** The fields an invoke body may have. */
const INVOKE_FIELDS = ['input', 'approval_token', 'sensitive_input_fields', 'scope', 'tool_call_id'] as const

/** Longest `q` of a tool search, in characters (Unicode code points: an emoji counts once). */
const MAX_QUERY_LENGTH = 256

/** `GET /tools`: `{ tools: [descriptor] }`, or with scope parameters each descriptor plus its `diagnostics`. */
export async function listTools(context: RouteContext): Promise<Reply> {
  return ok({ tools: await toolsOf(context) })
}

/** `GET /tools/search?q=`: the tools whose ID or description contains `q` (case-insensitive), shaped as `GET /tools`. */
export async function searchTools(context: RouteContext): Promise<Reply> {
  const q = context.query.get('q')
  if (q === undefined) throw requestInvalid('query_invalid', 'query parameter "q" is required')
  if (longerThan(q, MAX_QUERY_LENGTH)) throw requestInvalid('query_invalid', `query parameter "q" is longer than ${MAX_QUERY_LENGTH} characters`)
  const needle = q.toLowerCase()
  const tools = await toolsOf(context)
  return ok({ tools: tools.filter((tool) => tool.tool_id.toLowerCase().includes(needle) || tool.description.toLowerCase().includes(needle)) })
}

/** True when `text` has more than `max` code points (a lone surrogate counts as one); stops counting past `max`. */
function longerThan(text: string, max: number): boolean {
  if (text.length <= max) return false
  let count = 0
  for (const _ of text) if (++count > max) return true
  return false
}

/** `GET /tools/{tool_id}`: `{ tool: { descriptor, diagnostics? } }`; 404 `tool_not_found` for an unknown tool. */
export async function toolInfo(context: RouteContext): Promise<Reply> {
  const toolId = context.params.tool_id!
  const scope = queryScope(context)
  if (scope === undefined) {
    const descriptor = context.dispatcher.describe(toolId)
    if (descriptor === undefined) throw unknownTool(toolId)
    return ok({ tool: { descriptor } })
  }
  const described = await context.dispatcher.describe(toolId, scope)
  if (described.descriptor === undefined) throw unknownTool(toolId)
  return ok({ tool: { descriptor: described.descriptor, diagnostics: described.diagnostics } })
}

/**
 * `POST /tools/{tool_id}/invoke` with `{ input, approval_token?, sensitive_input_fields?, scope?,
 * tool_call_id? }`: the dispatcher's outcome (200, 202 or the error's status). The selector
 * travels inside `input`. Another body field is `tool_invalid_input` / `request_invalid`. A client
 * that hangs up before the answer cancels the call (`call_aborted`; nothing is sent). The
 * `traceparent` / `tracestate` headers reach the dispatcher's telemetry, and the reply's name the
 * call's span (`docs/telemetry.md` "Propagation").
 */
export async function invokeTool(context: RouteContext): Promise<Reply> {
  const body = context.body
  const extra = unknownKey(body, INVOKE_FIELDS)
  if (extra !== undefined) throw invokeRequestInvalid(`the invoke body has an unknown field ${shown(extra)} (known: ${INVOKE_FIELDS.join(', ')})`)
  const scope = mergeScope(context.identity, bodyScope(field(body, 'scope'), 'invoke'))
  if (isToolError(scope)) throw scope
  const toolId = context.params.tool_id!
  const request: InvokeRequest = { tool_id: toolId, input: field(body, 'input') }
  if (scope !== undefined) request.scope = scope
  for (const name of ['approval_token', 'sensitive_input_fields', 'tool_call_id'] as const) {
    const value = field(body, name)
    if (value !== undefined) (request as unknown as Record<string, unknown>)[name] = value
  }
  // A client that hangs up cancels its call: the tool's `context.signal` aborts.
  if (context.signal !== undefined) request.signal = context.signal
  // The caller's `traceparent`: the call's span is its child (with a dispatcher `telemetry`).
  if (context.trace !== undefined) request.trace_context = context.trace
  const outcome = await context.dispatcher.invoke(request)
  const reply = await invokeReply(context, outcome, toolId, scope)
  return outcome.trace_context === undefined ? reply : { ...reply, trace: outcome.trace_context }
}

/** The reply to an invocation: the outcome's, or its first part when `maxResultBytes` cuts the result. */
async function invokeReply(context: RouteContext, outcome: InvokeOutcome, toolId: string, scope: CallScope | undefined): Promise<Reply> {
  if (context.limit !== undefined && outcome.status === 'ok') {
    const part = await limitResult(context.limit, outcomeForModel(outcome, toolId).text, toolId, outcome.result_view, scope)
    if (part !== undefined) {
      const result = { preview: outcome.result.preview }
      return ok(outcome.result_view === undefined ? { result, result_part: part } : { result, result_view: outcome.result_view, result_part: part })
    }
  }
  return outcomeReply(outcome)
}

/** The fields a continue body may have. */
const CONTINUE_FIELDS = ['continuation', 'scope'] as const

/**
 * `POST /results/continue` with `{ continuation, scope? }`: `{ result_part }`, the next part of a
 * result cut by `maxResultBytes` (`docs/http.md` "Result size limits"). 404 `unknown_route`
 * without the option; 400 `tool_invalid_input` (`continuation_unknown`, `continuation_expired`,
 * `request_invalid` for another body field, a bad `scope`, or a `continuation` that is missing or
 * not a string); 403 `tool_denied` / `continuation_scope_mismatch` for another scope; 503
 * `continuation_unavailable` when the continuation store failed.
 */
export async function continueResultRoute(context: RouteContext): Promise<Reply> {
  if (context.limit === undefined) throw requestInvalid('unknown_route', 'no route serves "/results/continue": the handler has no maxResultBytes')
  const body = context.body
  const extra = unknownKey(body, CONTINUE_FIELDS)
  if (extra !== undefined) throw invokeRequestInvalid(`the continue body has an unknown field ${shown(extra)} (known: ${CONTINUE_FIELDS.join(', ')})`)
  // The same scope check as an invoke's, so a scope an invoke refuses never reads a part.
  const scope = mergeScope(context.identity, bodyScope(field(body, 'scope'), 'continue'))
  if (isToolError(scope)) throw scope
  const handle = field(body, 'continuation')
  // The same answer as a bad invoke body's field, and as MCP's input schema: no store is asked.
  if (typeof handle !== 'string') throw withSurfaceDetails(invokeRequestInvalid(`the continue body's "continuation" must be a string (the handle of a part), not ${handle === undefined ? 'missing' : handle === null ? 'null' : Array.isArray(handle) ? 'an array' : `a ${typeof handle}`}`), { issues: [{ pointer: '/continuation', keyword: handle === undefined ? 'required' : 'type', expected: handle === undefined ? 'property "continuation"' : 'type string' }] })
  const part = await continueResult(context.limit, handle, scope)
  if (isToolError(part)) throw part
  return ok({ result_part: part })
}

/** The scope the query names merged with the identity, or `undefined` when the query names no scope field. */
function queryScope(context: RouteContext): CallScope | undefined {
  const requested: CallScope = {}
  for (const name of SCOPE_FIELDS) {
    const value = context.query.get(name)
    if (value !== undefined) requested[name] = value
  }
  if (Object.keys(requested).length === 0) return undefined
  const scope = mergeScope(context.identity, requested)
  if (isToolError(scope)) throw scope
  return scope ?? {}
}

interface ListedTool {
  readonly tool_id: string
  readonly description: string
}

async function toolsOf(context: RouteContext): Promise<readonly ListedTool[]> {
  const scope = queryScope(context)
  if (scope === undefined) return context.dispatcher.list()
  const described = await context.dispatcher.list(scope)
  return described.flatMap((entry) => (entry.descriptor === undefined ? [] : [{ ...entry.descriptor, diagnostics: entry.diagnostics }]))
}
