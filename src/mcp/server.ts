import { quoted } from '../errors/quote.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import type { CallScope, Dispatcher, InvokeOutcome, InvokeRequest, UsageProblem } from 'result-views'
import { scopeResolverFailed } from '../framework-call/framework-call.js'
import { appendPointer } from '../json/pointer.js'
import { McpOptionsError } from './mcp-options-error.js'
import { toCallToolResult, toMcpToolList } from './project.js'

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
 * The server advertises the `tools` capability without `listChanged` (the catalog of a
 * dispatcher is fixed).
 *
 * @throws McpOptionsError (`code: 'mcp_options_invalid'`) for a dispatcher that is not one, an
 *   empty `name` or `version`, an option of the wrong type, or an unknown option key; `problems`
 *   lists every problem.
 */
export function createMcpServer(dispatcher: Dispatcher, options: McpServerOptions): Server {
  checkOptions(dispatcher, options)
  const { scope, toolCallIdPrefix } = options
  const server = new Server(
    { name: options.name, version: options.version },
    options.instructions === undefined
      ? { capabilities: { tools: {} } }
      : { capabilities: { tools: {} }, instructions: options.instructions },
  )

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toMcpToolList(dispatcher.list()) }))

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const toolId = request.params.name
    const invocation: InvokeRequest = { tool_id: toolId, input: request.params.arguments ?? {} }
    if (toolCallIdPrefix !== undefined) invocation.tool_call_id = toolCallIdPrefix + String(extra.requestId)
    if (typeof scope === 'function') {
      // The resolver is the host's code: a throw is a typed error result, never a JSON-RPC error.
      try {
        const callScope = scope({ tool_id: toolId, request_id: extra.requestId, session_id: extra.sessionId })
        if (callScope !== undefined) invocation.scope = callScope
      } catch {
        return callToolResult(scopeResolverFailed(invocation.tool_call_id), toolId)
      }
    } else if (scope !== undefined) invocation.scope = scope
    // The client's `notifications/cancelled` aborts the SDK's request signal: the call stops, and
    // the handler's `context.signal` aborts with it.
    invocation.signal = extra.signal
    return callToolResult(await dispatcher.invoke(invocation), toolId)
  })

  return server
}

function callToolResult(outcome: InvokeOutcome, toolId: string): ReturnType<typeof toCallToolResult> & { content: unknown[] } {
  const result = toCallToolResult(outcome, toolId)
  return { ...result, content: [...result.content] }
}

/** Every key {@link McpServerOptions} knows; any other key is a mistake (a typo, a stale name). */
const OPTION_KEYS: ReadonlySet<string> = new Set(['name', 'version', 'scope', 'toolCallIdPrefix', 'instructions'])

function checkOptions(dispatcher: Dispatcher, options: McpServerOptions): void {
  const problems: UsageProblem[] = []
  const problem = (path: string, code: string, message: string): void => void problems.push({ path, code, message })
  const d = dispatcher as unknown as Record<string, unknown> | null | undefined
  if (typeof d !== 'object' || d === null || typeof d.invoke !== 'function' || typeof d.list !== 'function') {
    problem('/dispatcher', 'invalid_dispatcher', 'dispatcher must be a dispatcher from createDispatcher (with invoke and list)')
  }
  const o = options as unknown as Record<string, unknown> | null | undefined
  if (typeof o !== 'object' || o === null) {
    problem('', 'invalid_options', 'options must be an object with name and version')
    throw new McpOptionsError(problems)
  }
  if (typeof o.name !== 'string' || o.name.length === 0) problem('/name', 'invalid_option', 'name must be a non-empty string')
  if (typeof o.version !== 'string' || o.version.length === 0) problem('/version', 'invalid_option', 'version must be a non-empty string')
  if (o.scope !== undefined && typeof o.scope !== 'function' && (typeof o.scope !== 'object' || o.scope === null || Array.isArray(o.scope))) {
    problem('/scope', 'invalid_option', 'scope must be a CallScope object or a function returning one')
  }
  if (o.toolCallIdPrefix !== undefined && typeof o.toolCallIdPrefix !== 'string') problem('/toolCallIdPrefix', 'invalid_option', 'toolCallIdPrefix must be a string')
  if (o.instructions !== undefined && typeof o.instructions !== 'string') problem('/instructions', 'invalid_option', 'instructions must be a string')
  for (const key of Object.keys(o)) {
    if (!OPTION_KEYS.has(key)) problem(appendPointer('', key), 'unknown_option', `unknown option ${quoted(key, 64)} (known: ${[...OPTION_KEYS].join(', ')})`)
  }
  if (problems.length > 0) throw new McpOptionsError(problems)
}
