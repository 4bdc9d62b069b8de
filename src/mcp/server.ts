import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import type { Dispatcher } from 'result-views'
import type { McpCallToolResult } from './project.js'
import { createMcpServing, traceOfMeta, type McpServerOptions } from './serve.js'

export type { McpCallInfo, McpScopeResolver, McpServerOptions } from './serve.js'

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
  const serving = createMcpServing(dispatcher, options)
  const { name, version, instructions } = serving.options
  const server = new Server({ name, version }, instructions === undefined ? { capabilities: { tools: {} } } : { capabilities: { tools: {} }, instructions })
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: serving.list() }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) =>
    sdkResult(await serving.call({ toolId: request.params.name, args: request.params.arguments, requestId: extra.requestId, sessionId: extra.sessionId, signal: extra.signal, trace: traceOfMeta(request.params._meta) })),
  )
  return server
}

/**
 * The SDK's handler result: ours, typed as the SDK's mutable one. Not copied: the serving core
 * answers a fresh result (and a fresh `content` array) for every call, so the SDK may own it.
 */
function sdkResult(result: McpCallToolResult): McpCallToolResult & { content: McpCallToolResult['content'][number][] } {
  return result as McpCallToolResult & { content: McpCallToolResult['content'][number][] }
}
