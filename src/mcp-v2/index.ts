/**
 * result-views/mcp-v2: exposes a dispatcher's catalog over the Model Context Protocol with the
 * official TypeScript SDK v2 (`@modelcontextprotocol/server` 2.x, an optional peer dependency
 * needed only by this entry), on the 2026-07-28 revision (stateless requests, approvals as
 * `input_required`) and the 2025 ones. `result-views/mcp` keeps serving v1
 * (`@modelcontextprotocol/sdk`). The SDK-free projection and measurement are the same functions
 * as there, exported here too, so that a host on v2 never loads the v1 SDK (`docs/mcp.md` "MCP
 * SDK v2").
 *
 * Every export here is public API. Named exports only; no `export *`; the SDK's own API is
 * never re-exported (import it from the SDK).
 *
 * @packageDocumentation
 */

export { createMcpServerFactory } from './server.js'
export type { McpV2ServerFactory, McpV2ServerOptions } from './server.js'
export type { McpCallInfo, McpScopeResolver, McpServerOptions } from '../mcp/serve.js'
export type { ContinuationFound, ContinuationPart, ContinuationRead, ContinuationResult, ContinuationStore, ContinuationStoreOptions } from '../continuation/continuation-store.js'
export { createMemoryContinuationStore } from '../continuation/memory-continuation-store.js'
export { ContinuationStoreOptionsError, isContinuationStoreOptionsError } from '../continuation/continuation-store-options-error.js'
export { APPROVAL_INPUT_KEY } from './approval-elicitation.js'
export { MCP_OUTCOME_META_KEY, toCallToolResult, toMcpTool, toMcpToolList } from '../mcp/project.js'
export type { McpCallToolResult, McpOutcomeMeta, McpTextContent, McpToolAnnotations, McpToolListing } from '../mcp/project.js'
export { measureCatalog } from '../mcp/measure.js'
export type { CatalogSize, MeasureCatalogOptions } from '../mcp/measure.js'
export type { CountTokens } from '../tokens/count-tokens.js'
export { McpOptionsError, isMcpOptionsError } from '../mcp/mcp-options-error.js'
