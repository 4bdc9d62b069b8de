import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { randomUUID } from 'node:crypto'
import { outcomeForModel, type CallScope, type Dispatcher, type InvokeRequest, type UsageProblem } from 'result-views'
import { scopeResolverFailed } from '../framework-call/framework-call.js'
import type { ContinuationStoreOptions } from '../continuation/continuation-store.js'
import { checkLimitOptions, CONTINUE_INPUT_SCHEMA, continueHandleOf, continueResult, CONTINUE_TOOL, createResultLimit, limitResult, type ResultLimit } from '../continuation/result-limit.js'
import { optionsTable, readOptions } from '../options/options.js'
import { McpOptionsError } from './mcp-options-error.js'
import { toCallToolResult, toMcpToolList, toPartCallToolResult, type McpCallToolResult, type McpToolListing } from './project.js'

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
  /** Prefix of the continuation tool's name (`"compozy__"` gives `compozy__result_continue`). Default `""`. */
  continuationToolPrefix?: string
}

/**
 * Creates an MCP server (the SDK's low-level `Server`, which takes raw JSON Schema) that exposes
 * a dispatcher's catalog (`docs/mcp.md`). It is not connected: the host
 * calls `server.connect(transport)` with any SDK transport (stdio, Streamable HTTP, in-memory).
 *
 * - `tools/list`: every tool of `dispatcher.list()` as `{ name, description, inputSchema,
 *   annotations }` (`readOnlyHint`, `destructiveHint` from the descriptor's `read_only` and
 *   `risk`); viewed tools list `result_view`; no tool has an `outputSchema` (see the tool-info tool);
 *   in JSON Schema 2020-12 form (no `$schema` keyword, draft-07 tuples and `definitions`
 *   translated; see `toModelSchema` in the root entry).
 * - `tools/call`: `dispatcher.invoke({ tool_id: name, input: arguments ?? {}, scope })`, mapped by
 *   `toCallToolResult`: the selected view's record in `structuredContent` plus one text block of
 *   its JSON; errors and pending approvals as `isError: true` results carrying the code, reason
 *   and message. An unknown tool is a tool error (`tool_not_found`), not a protocol error, and so
 *   is a `scope` resolver that throws (`tool_invalid_input` / `request_invalid`). A client's
 *   `notifications/cancelled` (the SDK's request signal) cancels the call: the handler's
 *   `context.signal` aborts and nothing is sent back. Only misuse of the library (a dispatcher
 *   that throws) becomes a JSON-RPC error.
 *
 * - With `maxResultBytes`, a result whose JSON text is larger comes back as its first part
 *   (`structuredContent` the part, two text blocks: the part, then a note) and the continuation
 *   tool `<continuationToolPrefix>result_continue` returns the next ones (`docs/mcp.md` "Result
 *   size limits").
 *
 * The server advertises the `tools` capability without `listChanged` (the catalog of a
 * dispatcher is fixed).
 *
 * @throws McpOptionsError (`code: 'mcp_options_invalid'`) for a dispatcher that is not one, an
 *   empty `name` or `version`, an option of the wrong type, or an unknown option key; `problems`
 *   lists every problem.
 */
export function createMcpServer(dispatcher: Dispatcher, options: McpServerOptions): Server {
  const bounds = checkOptions(dispatcher, options)
  const { scope, toolCallIdPrefix } = options
  const limit = createResultLimit(options.maxResultBytes, bounds, (options.continuationToolPrefix ?? '') + CONTINUE_TOOL)
  const server = new Server(
    { name: options.name, version: options.version },
    options.instructions === undefined
      ? { capabilities: { tools: {} } }
      : { capabilities: { tools: {} }, instructions: options.instructions },
  )

  server.setRequestHandler(ListToolsRequestSchema, () => {
    const tools = toMcpToolList(dispatcher.list())
    return { tools: limit === undefined ? tools : [...tools, continueToolListing(limit)] }
  })

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const toolId = request.params.name
    const toolCallId = toolCallIdPrefix === undefined ? undefined : toolCallIdPrefix + String(extra.requestId)
    let callScope: CallScope | undefined
    if (typeof scope === 'function') {
      // The resolver is the host's code: a throw is a typed error result, never a JSON-RPC error.
      try {
        callScope = scope({ tool_id: toolId, request_id: extra.requestId, session_id: extra.sessionId })
      } catch {
        return sdkResult(toCallToolResult(scopeResolverFailed(toolCallId), toolId))
      }
    } else callScope = scope
    if (limit !== undefined && toolId === limit.continueTool) {
      return sdkResult(continueCall(limit, request.params.arguments, callScope, toolCallId ?? randomUUID()))
    }
    const invocation: InvokeRequest = { tool_id: toolId, input: request.params.arguments ?? {} }
    if (callScope !== undefined) invocation.scope = callScope
    if (toolCallId !== undefined) invocation.tool_call_id = toolCallId
    // The client's `notifications/cancelled` aborts the SDK's request signal: the call stops, and
    // the handler's `context.signal` aborts with it.
    invocation.signal = extra.signal
    const outcome = await dispatcher.invoke(invocation)
    if (limit !== undefined && outcome.status === 'ok') {
      const model = outcomeForModel(outcome, toolId)
      const part = limitResult(limit, model.text, toolId, outcome.result_view, callScope)
      if (part !== undefined) return sdkResult(toPartCallToolResult(part, outcome.tool_call_id))
    }
    return sdkResult(toCallToolResult(outcome, toolId))
  })

  return server
}

/** The SDK's handler result: a mutable copy of ours. */
function sdkResult(result: McpCallToolResult): McpCallToolResult & { content: McpCallToolResult['content'][number][] } {
  return { ...result, content: [...result.content] }
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
function continueCall(limit: ResultLimit, args: unknown, scope: CallScope | undefined, toolCallId: string): McpCallToolResult {
  // Checked against the listed input schema first, as any tool's input is.
  const handle = continueHandleOf(limit, args)
  const part = typeof handle === 'string' ? continueResult(limit, handle, scope) : handle
  if ('result_part' in part) return toPartCallToolResult(part, toolCallId)
  return toCallToolResult({ status: 'error', tool_call_id: toolCallId, error: part }, limit.continueTool)
}

/** Every key {@link McpServerOptions} knows; any other key is a mistake (a typo, a stale name). */
const MCP_OPTIONS = optionsTable(['name', 'version', 'scope', 'toolCallIdPrefix', 'instructions', 'maxResultBytes', 'continuations', 'continuationToolPrefix'])

/** Checks the arguments (each option read once, by the options reader); returns a copy of the `continuations` bounds. */
function checkOptions(dispatcher: Dispatcher, options: McpServerOptions): ContinuationStoreOptions {
  const problems: UsageProblem[] = []
  const problem = (path: string, code: string, message: string): void => void problems.push({ path, code, message })
  const d = dispatcher as unknown as Record<string, unknown> | null | undefined
  if (typeof d !== 'object' || d === null || typeof d.invoke !== 'function' || typeof d.list !== 'function') {
    problem('/dispatcher', 'invalid_dispatcher', 'dispatcher must be a dispatcher from createDispatcher (with invoke and list)')
  }
  if (typeof options !== 'object' || options === null) {
    problem('', 'invalid_option', 'options must be an object with name and version')
    throw new McpOptionsError('createMcpServer options', problems)
  }
  const o = readOptions(options, MCP_OPTIONS, '', problems)
  if (typeof o.name !== 'string' || o.name.length === 0) problem('/name', 'invalid_option', 'name must be a non-empty string')
  if (typeof o.version !== 'string' || o.version.length === 0) problem('/version', 'invalid_option', 'version must be a non-empty string')
  if (o.scope !== undefined && typeof o.scope !== 'function' && (typeof o.scope !== 'object' || o.scope === null || Array.isArray(o.scope))) {
    problem('/scope', 'invalid_option', 'scope must be a CallScope object or a function returning one')
  }
  if (o.toolCallIdPrefix !== undefined && typeof o.toolCallIdPrefix !== 'string') problem('/toolCallIdPrefix', 'invalid_option', 'toolCallIdPrefix must be a string')
  if (o.instructions !== undefined && typeof o.instructions !== 'string') problem('/instructions', 'invalid_option', 'instructions must be a string')
  const bounds = checkLimitOptions(o.maxResultBytes, o.continuations, problem)
  if (o.continuationToolPrefix !== undefined && typeof o.continuationToolPrefix !== 'string') problem('/continuationToolPrefix', 'invalid_option', 'continuationToolPrefix must be a string')
  else if (o.maxResultBytes !== undefined && problems.length === 0) {
    const name = (typeof o.continuationToolPrefix === 'string' ? o.continuationToolPrefix : '') + CONTINUE_TOOL
    if (dispatcher.list().some((descriptor) => descriptor.tool_id === name)) problem('/continuationToolPrefix', 'tool_name_taken', `the catalog has a tool named ${JSON.stringify(name)}: choose a continuationToolPrefix`)
  }
  if (problems.length > 0) throw new McpOptionsError('createMcpServer options', problems)
  return bounds
}
