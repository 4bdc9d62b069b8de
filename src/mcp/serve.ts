import { randomUUID } from 'node:crypto'
import { outcomeForModel, type CallScope, type Dispatcher, type InvokeOutcome, type InvokeRequest, type TraceContext, type UsageProblem } from 'result-views'
import type { ContinuationStore, ContinuationStoreOptions } from '../continuation/continuation-store.js'
import { checkLimitOptions, CONTINUE_INPUT_SCHEMA, continueHandleOf, continueResult, CONTINUE_TOOL, createResultLimit, limitResult, type LimitOptions, type ResultLimit } from '../continuation/result-limit.js'
import { scopeResolverFailed } from '../framework-call/framework-call.js'
import { optionsTable, readOptions } from '../options/options.js'
import { copyScopeFields, scopeProblem } from '../call/scope.js'
import { McpOptionsError } from './mcp-options-error.js'
import { modelCallToolResult, toCallToolResult, toMcpToolList, toPartCallToolResult, type McpCallToolResult, type McpToolListing } from './project.js'

// The SDK-free core of serving a dispatcher over MCP (`docs/mcp.md`): the options, `tools/list`
// and `tools/call`, shared by the v1 server (`@modelcontextprotocol/sdk`, `server.ts`) and the v2
// one (`@modelcontextprotocol/server`, `result-views/mcp-v2`). Each SDK's server only wires these
// into its own request handlers.

/** What a {@link McpScopeResolver} knows about one `tools/call` request. */
export interface McpCallInfo {
  /** The called tool's name (`params.name`). */
  readonly tool_id: string
  /** The JSON-RPC request ID (unique per connection, not across connections). */
  readonly request_id: string | number
  /** The transport's session ID (Streamable HTTP), `undefined` on stdio and in-memory transports. */
  readonly session_id: string | undefined
}

/**
 * Picks the scope of one call, e.g. from the MCP session a host bound to a workspace and agent.
 * A resolver that throws fails that call with `tool_invalid_input` / `request_invalid`.
 */
export type McpScopeResolver = (call: McpCallInfo) => CallScope | undefined

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** Server name reported in the MCP `initialize` result (`serverInfo.name`). Non-empty. */
  name: string
  /** Server version reported in `serverInfo.version`. Non-empty. */
  version: string
  /**
   * The scope every call runs with (policies, grants and approvals match on it): a fixed
   * `CallScope`, or a function of the call. Default: no scope.
   */
  scope?: CallScope | McpScopeResolver
  /**
   * When set, each call's `tool_call_id` is this prefix followed by the JSON-RPC request ID
   * (`"mcp-7"` for prefix `"mcp-"` and request 7). Request IDs repeat across connections, so give
   * each connection's server its own prefix. Default: the dispatcher generates a random UUID.
   */
  toolCallIdPrefix?: string
  /** Optional MCP `instructions` sent to the client on `initialize`. */
  instructions?: string
  /**
   * Largest result, in UTF-8 bytes of the selected view's JSON text, returned whole
   * (`docs/mcp.md` "Result size limits"). A larger one is returned as its first part, with a note
   * and a continuation handle for the `<continuationToolPrefix>result_continue` tool, which is
   * listed only when this is set. Integer ≥ 256. Default: no limit.
   */
  maxResultBytes?: number
  /** Bounds of the store that keeps the rest of cut results (entries, bytes, `ttlMs`). Only with `maxResultBytes`. */
  continuations?: ContinuationStoreOptions
  /**
   * The store that keeps the rest of cut results, instead of this server's own memory store: one
   * that several instances share (`createPostgresContinuationStore` of `result-views/postgres`), so
   * that a handle issued by one instance is read back on any other (`docs/deploy.md` "Several
   * instances"). Only with `maxResultBytes`, not with `continuations` (the store's factory takes
   * the bounds). Default: a memory store of `continuations`.
   */
  continuationStore?: ContinuationStore
  /** Prefix of the continuation tool's name (`"compozy__"` gives `compozy__result_continue`). Default `""`. */
  continuationToolPrefix?: string
}

/** Every key {@link McpServerOptions} knows; any other key is a mistake (a typo, a stale name). */
export const MCP_OPTION_KEYS: readonly string[] = ['name', 'version', 'scope', 'toolCallIdPrefix', 'instructions', 'maxResultBytes', 'continuations', 'continuationStore', 'continuationToolPrefix']

/** One `tools/call` request as the SDKs hand it over. */
export interface McpCall {
  readonly toolId: string
  readonly args: unknown
  readonly requestId: string | number
  readonly sessionId: string | undefined
  readonly signal: AbortSignal
  /** The W3C trace context of the request's `params._meta` (`traceparent`, `tracestate`), see {@link traceOfMeta}. */
  readonly trace?: TraceContext | undefined
}

/** A `tools/call` that reached the dispatcher, before its outcome is mapped. */
export interface McpDispatched {
  readonly outcome: InvokeOutcome
  readonly scope: CallScope | undefined
}

/** The serving core of one set of options: shared by every server instance built from them. */
export interface McpServing {
  readonly dispatcher: Dispatcher
  /** The options as read, once each (frozen; a server reads `name`, `version`, `instructions` and its own keys from here). */
  readonly options: McpServerOptions & Readonly<Record<string, unknown>>
  /** The `tools/list` entries (the continuation tool last, when listed). */
  list(): McpToolListing[]
  /** The resolved scope of a call, or the typed error result of a resolver that threw. */
  scopeOf(call: McpCall): { ok: true; scope: CallScope | undefined } | { ok: false; result: McpCallToolResult }
  /** The call's `tool_call_id`, when `toolCallIdPrefix` is set. */
  toolCallIdOf(call: McpCall): string | undefined
  /**
   * Serves one `tools/call` whole: the continuation tool, or `dispatcher.invoke` then
   * {@link McpServing.toResult}. `onPending` may answer an `approval_pending` outcome itself
   * (the v2 server's elicitation); `undefined` keeps the pending text.
   */
  call<T>(call: McpCall, onPending?: (dispatched: McpDispatched, call: McpCall) => Promise<T | undefined>): Promise<McpCallToolResult | T>
  /** The `tools/call` result of an outcome: `toCallToolResult`, or its first part under `maxResultBytes` (the rest kept in the continuation store); a traced outcome's span in `_meta.traceparent`. */
  toResult(outcome: InvokeOutcome, toolId: string, scope: CallScope | undefined): Promise<McpCallToolResult>
}

/**
 * Checks the options (every problem listed, unknown keys refused; `extraKeys` are the keys a
 * caller reads itself) and builds the serving core: one continuation store for every server
 * instance made from it.
 *
 * @throws McpOptionsError (`mcp_options_invalid`) for a dispatcher that is not one or bad options.
 */
export function createMcpServing(dispatcher: Dispatcher, options: McpServerOptions, extra?: McpExtraOptions): McpServing {
  const { values, bounds } = checkOptions(dispatcher, options, extra)
  const { scope, toolCallIdPrefix } = values
  const limit = createResultLimit(values.maxResultBytes, bounds, (values.continuationToolPrefix ?? '') + CONTINUE_TOOL)
  // The mapping of an outcome, synchronous when no result is cut (no `maxResultBytes`): a call then
  // costs no promise and no task-queue turn beyond the dispatcher's own.
  const mapOutcome = (outcome: InvokeOutcome, toolId: string, callScope: CallScope | undefined): McpCallToolResult | Promise<McpCallToolResult> =>
    limit !== undefined && outcome.status === 'ok' ? limitedResult(limit, outcome, toolId, callScope) : withTraceMeta(toCallToolResult(outcome, toolId), outcome.trace_context)
  const toResult = async (outcome: InvokeOutcome, toolId: string, callScope: CallScope | undefined): Promise<McpCallToolResult> => mapOutcome(outcome, toolId, callScope)
  // A fixed scope resolves the same way on every call: one answer, made once.
  const fixedScope = Object.freeze({ ok: true as const, scope: typeof scope === 'function' ? undefined : scope })
  const serving: McpServing = {
    dispatcher,
    options: values,
    list() {
      const tools = toMcpToolList(dispatcher.list())
      return limit === undefined ? tools : [...tools, continueToolListing(limit)]
    },
    toolCallIdOf: (call) => (toolCallIdPrefix === undefined ? undefined : toolCallIdPrefix + String(call.requestId)),
    scopeOf(call) {
      if (typeof scope !== 'function') return fixedScope
      // The resolver is the host's code: a throw is a typed error result, never a JSON-RPC error.
      try {
        return { ok: true, scope: scope({ tool_id: call.toolId, request_id: call.requestId, session_id: call.sessionId }) }
      } catch {
        return { ok: false, result: toCallToolResult(scopeResolverFailed(serving.toolCallIdOf(call)), call.toolId) }
      }
    },
    toResult,
    async call(call, onPending) {
      const resolved = serving.scopeOf(call)
      if (!resolved.ok) return resolved.result
      const callScope = resolved.scope
      const toolCallId = serving.toolCallIdOf(call)
      if (limit !== undefined && call.toolId === limit.continueTool) return continueCall(limit, call.args, callScope, toolCallId ?? randomUUID())
      const invocation: InvokeRequest = { tool_id: call.toolId, input: call.args ?? {} }
      if (callScope !== undefined) invocation.scope = callScope
      if (toolCallId !== undefined) invocation.tool_call_id = toolCallId
      // The client's `notifications/cancelled` aborts the SDK's request signal: the call stops, and
      // the handler's `context.signal` aborts with it.
      invocation.signal = call.signal
      if (call.trace !== undefined) invocation.trace_context = call.trace
      const outcome = await dispatcher.invoke(invocation)
      if (outcome.status === 'approval_pending' && onPending !== undefined) {
        const answered = await onPending({ outcome, scope: callScope }, call)
        if (answered !== undefined) return answered
      }
      return mapOutcome(outcome, call.toolId, callScope)
    },
  }
  return serving
}

/**
 * The W3C trace context in a request's `params._meta`: its `traceparent` and `tracestate` strings
 * (the keys the MCP trace-context proposal uses), `undefined` without a string `traceparent`.
 * Read inside a guard: a `_meta` whose getter throws carries none.
 */
export function traceOfMeta(meta: unknown): TraceContext | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined
  try {
    const { traceparent, tracestate } = meta as Record<string, unknown>
    if (typeof traceparent !== 'string') return undefined
    return typeof tracestate === 'string' ? { traceparent, tracestate } : { traceparent }
  } catch {
    return undefined
  }
}

/** The `tools/call` result of an ok outcome under `maxResultBytes`: its first part when its JSON text is larger (the rest kept in the continuation store), else whole; the record's JSON written once. */
async function limitedResult(limit: ResultLimit, outcome: InvokeOutcome & { status: 'ok' }, toolId: string, scope: CallScope | undefined): Promise<McpCallToolResult> {
  const model = outcomeForModel(outcome, toolId)
  const part = await limitResult(limit, model.text, toolId, outcome.result_view, scope)
  return withTraceMeta(part === undefined ? modelCallToolResult(model) : toPartCallToolResult(part, outcome.tool_call_id), outcome.trace_context)
}

/** A result with the call's span in `_meta.traceparent` (and `tracestate`), when the dispatcher traced it. */
function withTraceMeta(result: McpCallToolResult, trace: TraceContext | undefined): McpCallToolResult {
  if (trace === undefined) return result
  const meta = trace.tracestate === undefined ? { ...result._meta, traceparent: trace.traceparent } : { ...result._meta, traceparent: trace.traceparent, tracestate: trace.tracestate }
  return { ...result, _meta: meta }
}

/** Options a server reads beyond {@link McpServerOptions}: their keys, and a reader that pushes problems. */
export interface McpExtraOptions {
  /** What the options error names, e.g. `createMcpServerFactory options`. */
  readonly subject: string
  readonly keys: readonly string[]
  read(options: Record<string, unknown>, problem: (path: string, code: string, message: string) => void): void
}

/** The `tools/list` entry of the continuation tool. */
function continueToolListing(limit: ResultLimit): McpToolListing {
  return {
    name: limit.continueTool,
    description:
      `Returns the next part of a result that was too large to return whole (over ${limit.maxResultBytes} bytes of JSON). ` +
      'Pass the "continuation" handle of the previous part; join the parts in order to get the exact JSON text.',
    inputSchema: structuredClone(CONTINUE_INPUT_SCHEMA) as McpToolListing['inputSchema'],
  }
}

/** A call of the continuation tool: the next part, or its typed error as a tool error result. */
async function continueCall(limit: ResultLimit, args: unknown, scope: CallScope | undefined, toolCallId: string): Promise<McpCallToolResult> {
  // Checked against the listed input schema first, as any tool's input is.
  const handle = continueHandleOf(limit, args)
  const part = typeof handle === 'string' ? await continueResult(limit, handle, scope) : handle
  if ('result_part' in part) return toPartCallToolResult(part, toolCallId)
  return toCallToolResult({ status: 'error', tool_call_id: toolCallId, error: part }, limit.continueTool)
}

/** Every key {@link McpServerOptions} knows, as the options reader's table. */
const MCP_OPTIONS = optionsTable(MCP_OPTION_KEYS)

/**
 * Checks the arguments, each option read once by the options reader (unknown keys refused with
 * "did you mean"); returns the options as read and a copy of the `continuations` bounds.
 */
function checkOptions(
  dispatcher: Dispatcher,
  options: McpServerOptions,
  extra: McpExtraOptions | undefined,
): { readonly values: McpServerOptions & Record<string, unknown>; readonly bounds: LimitOptions } {
  const problems: UsageProblem[] = []
  const problem = (path: string, code: string, message: string): void => void problems.push({ path, code, message })
  const d = dispatcher as unknown as Record<string, unknown> | null | undefined
  if (typeof d !== 'object' || d === null || typeof d.invoke !== 'function' || typeof d.list !== 'function') {
    problem('/dispatcher', 'invalid_dispatcher', 'dispatcher must be a dispatcher from createDispatcher (with invoke and list)')
  }
  if (typeof options !== 'object' || options === null) {
    problem('', 'invalid_option', 'options must be an object with name and version')
    throw new McpOptionsError(extra?.subject ?? OPTIONS_SUBJECT, problems)
  }
  const table = extra === undefined ? MCP_OPTIONS : optionsTable([...MCP_OPTION_KEYS, ...extra.keys])
  const o = readOptions(options, table, '', problems) as Record<string, unknown>
  if (typeof o.name !== 'string' || o.name.length === 0) problem('/name', 'invalid_option', 'name must be a non-empty string')
  if (typeof o.version !== 'string' || o.version.length === 0) problem('/version', 'invalid_option', 'version must be a non-empty string')
  if (o.scope !== undefined && typeof o.scope !== 'function' && (typeof o.scope !== 'object' || o.scope === null || Array.isArray(o.scope))) {
    problem('/scope', 'invalid_option', 'scope must be a CallScope object or a function returning one')
  } else if (typeof o.scope === 'object' && o.scope !== null) {
    // A static scope is checked now, not on every call (a misspelt `workspaceId` would refuse each one).
    let why: string | undefined
    try {
      why = scopeProblem(copyScopeFields(o.scope))
    } catch {
      why = 'the scope could not be read (a getter or a Proxy threw)'
    }
    if (why !== undefined) problem('/scope', 'invalid_option', why)
  }
  if (o.toolCallIdPrefix !== undefined && typeof o.toolCallIdPrefix !== 'string') problem('/toolCallIdPrefix', 'invalid_option', 'toolCallIdPrefix must be a string')
  if (o.instructions !== undefined && typeof o.instructions !== 'string') problem('/instructions', 'invalid_option', 'instructions must be a string')
  const bounds = checkLimitOptions(o.maxResultBytes, o.continuations, problem, o.continuationStore)
  if (o.continuationToolPrefix !== undefined && typeof o.continuationToolPrefix !== 'string') problem('/continuationToolPrefix', 'invalid_option', 'continuationToolPrefix must be a string')
  else if (o.maxResultBytes !== undefined && problems.length === 0) {
    const name = (typeof o.continuationToolPrefix === 'string' ? o.continuationToolPrefix : '') + CONTINUE_TOOL
    if (dispatcher.list().some((descriptor) => descriptor.tool_id === name)) problem('/continuationToolPrefix', 'tool_name_taken', `the catalog has a tool named ${JSON.stringify(name)}: choose a continuationToolPrefix`)
  }
  extra?.read(o, problem)
  if (problems.length > 0) throw new McpOptionsError(extra?.subject ?? OPTIONS_SUBJECT, problems)
  return { values: Object.freeze(o) as McpServerOptions & Record<string, unknown>, bounds }
}

/** What the options error of a v1 server names. */
const OPTIONS_SUBJECT = 'createMcpServer options'
