import { CLIENT_CAPABILITIES_META_KEY, Server, SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult, type InputRequiredResult, type ListToolsResult, type ServerContext } from '@modelcontextprotocol/server'
import type { Dispatcher } from 'result-views'
import { resolveApprovalStateKeys } from '../approval/request-state.js'
import type { McpCallToolResult } from '../mcp/project.js'
import { createMcpServing, traceOfMeta, type McpCall, type McpServerOptions } from '../mcp/serve.js'
import { answerApproval, askApproval, type ApprovalElicitation } from './approval-elicitation.js'

/** The first revision of the stateless protocol (`input_required`, `requestState`); served next to the SDK's 2025 revisions. */
const MODERN_PROTOCOL_VERSION = '2026-07-28'
/** Default {@link McpV2ServerOptions.approvalStateTtlMs}: ten minutes. */
const DEFAULT_APPROVAL_STATE_TTL_MS = 600_000

/** Options of {@link createMcpServerFactory}: those of `createMcpServer` (`result-views/mcp`), plus the approval states. */
export interface McpV2ServerOptions extends McpServerOptions {
  /**
   * The key approval request states are signed with (HMAC-SHA-256, `docs/mcp.md` "Approvals as
   * `input_required`"): 32 to 64 random bytes, the same on every instance that serves the
   * dispatcher's stores. Without it, a call that needs approval answers the pending-approval text.
   */
  approvalStateKey?: Uint8Array
  /** Older keys that still verify states signed before a rotation (never sign). Only with `approvalStateKey`. */
  previousApprovalStateKeys?: readonly Uint8Array[]
  /** How long an approval question can be answered, in ms (positive integer). Default 600000 (10 minutes); the pending approval's own `expires_at` still applies. */
  approvalStateTtlMs?: number
}

/** Makes one v2 `Server` per call; every server of one factory shares its options, keys and continuation store. */
export type McpV2ServerFactory = () => Server

const V2_KEYS = ['approvalStateKey', 'previousApprovalStateKeys', 'approvalStateTtlMs'] as const

/**
 * Creates a factory of MCP servers on the v2 SDK (`@modelcontextprotocol/server` 2.x, an optional
 * peer dependency needed only by this entry) that expose a dispatcher's catalog
 * (`docs/mcp.md` "MCP SDK v2"). Pass it to the SDK's serving entries, which make one server per
 * connection (`serveStdio(factory)`) or per request (`createMcpHandler(factory)`, stateless
 * Streamable HTTP), which speak the 2026-07-28 revision and the 2025 ones. A server from
 * `factory()` also connects to any transport itself, and then speaks the 2025 revisions only (the
 * SDK turns 2026-07-28 on in its serving entries; `docs/mcp.md` "MCP SDK v2").
 *
 * `tools/list` and `tools/call` are exactly those of `createMcpServer` (`result-views/mcp`): the
 * listing with `result_view` and annotations, `structuredContent` plus one JSON text block, typed
 * error results, `maxResultBytes` continuations (one memory store per factory, or the `continuationStore` given: one that several instances share), cancellation to the
 * handler's `context.signal`. With `approvalStateKey`, a call that needs approval answers
 * `input_required`: an elicitation asking the user to approve or deny, and a signed request state
 * bound to the tool, the arguments' digest, the scope and an expiry; the client's retry with the
 * answer resolves the pending approval (`approval_invalid` / `state_invalid`, `state_mismatch`,
 * `state_expired`, `state_replayed` for a state that does not hold; nothing runs then).
 *
 * @throws McpOptionsError (`code: 'mcp_options_invalid'`) for a dispatcher that is not one, bad
 *   options (those of `createMcpServer`; a key that is not 32 to 64 bytes at `/approvalStateKey`,
 *   `invalid_state_key`; older keys without a current one, `state_key_missing`; a ttl that is not
 *   a positive integer, `invalid_limit`), or an unknown option key; `problems` lists every problem.
 */
export function createMcpServerFactory(dispatcher: Dispatcher, options: McpV2ServerOptions): McpV2ServerFactory {
  let elicitation: ApprovalElicitation | undefined
  const serving = createMcpServing(dispatcher, options, {
    subject: 'createMcpServerFactory options',
    keys: V2_KEYS,
    read(o, problem) {
      const problems: { path: string; code: string; message: string }[] = []
      const keys = resolveApprovalStateKeys(o.approvalStateKey, o.previousApprovalStateKeys, problems)
      for (const p of problems) problem(p.path, p.code, p.message)
      const ttl = o.approvalStateTtlMs
      if (ttl !== undefined && (typeof ttl !== 'number' || !Number.isSafeInteger(ttl) || ttl <= 0)) problem('/approvalStateTtlMs', 'invalid_limit', 'approvalStateTtlMs must be a positive integer (milliseconds)')
      else if (ttl !== undefined && o.approvalStateKey === undefined) problem('/approvalStateTtlMs', 'state_key_missing', 'approvalStateTtlMs needs approvalStateKey')
      if (keys !== undefined) elicitation = { keys, ttlMs: typeof ttl === 'number' ? ttl : DEFAULT_APPROVAL_STATE_TTL_MS }
    },
  })
  const { name, version, instructions } = serving.options
  return () => {
    const server = new Server(
      { name, version },
      {
        capabilities: { tools: {} },
        supportedProtocolVersions: [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS],
        ...(instructions === undefined ? {} : { instructions }),
      },
    )
    // Our listing is MCP's `Tool` shape with plain JSON Schema objects (the SDK types them as zod output).
    server.setRequestHandler('tools/list', () => ({ tools: serving.list() }) as unknown as ListToolsResult)
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const call: McpCall = { toolId: request.params.name, args: request.params.arguments, requestId: ctx.mcpReq.id, sessionId: ctx.sessionId, signal: ctx.mcpReq.signal, trace: traceOfMeta(request.params._meta) }
      const state = ctx.mcpReq.requestState()
      if (state !== undefined) return sdkResult(await answerApproval(elicitation, serving, call, state, ctx.mcpReq.inputResponses))
      const asking = elicitation
      return sdkResult(await serving.call(call, asking === undefined ? undefined : async (dispatched) => askApproval(asking, dispatched, call, canElicit(server, ctx))))
    })
    return server
  }
}

/**
 * Whether the client of this request answers form elicitations: the 2026-07-28 request envelope's
 * client capabilities, or else those of the 2025 `initialize` handshake (where the SDK asks the
 * client itself and retries the handler).
 */
function canElicit(server: Server, ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined
  const capabilities = (envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? server.getClientCapabilities()) as { elicitation?: unknown } | undefined
  return typeof capabilities?.elicitation === 'object' && capabilities.elicitation !== null
}

/**
 * The SDK's handler result: ours, typed as the SDK's (an `input_required` answer as it is). Not
 * copied: the serving core answers a fresh result (and a fresh `content` array) for every call.
 */
function sdkResult(result: McpCallToolResult | InputRequiredResult): CallToolResult | InputRequiredResult {
  return result as CallToolResult | InputRequiredResult
}
