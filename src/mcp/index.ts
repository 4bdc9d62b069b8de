/**
 * result-views/mcp: exposes a dispatcher's catalog over the Model Context Protocol with the
 * official TypeScript SDK (`@modelcontextprotocol/sdk`, an optional peer dependency needed only
 * by this entry), and measures a catalog's discovery surfaces in bytes and tokens (`gpt-tokenizer`,
 * another optional peer, loaded only when tokens are counted without a `countTokens`).
 *
 * Every export here is public API. Named exports only; no `export *`; the SDK's own API is
 * never re-exported (import it from the SDK).
 *
 * @packageDocumentation
 */

export { createMcpServer } from './server.js'
export type { McpCallInfo, McpScopeResolver, McpServerOptions } from './server.js'
export type { ContinuationFound, ContinuationPart, ContinuationRead, ContinuationResult, ContinuationStore, ContinuationStoreOptions } from '../continuation/continuation-store.js'
export { createMemoryContinuationStore } from '../continuation/memory-continuation-store.js'
export { ContinuationStoreOptionsError, isContinuationStoreOptionsError } from '../continuation/continuation-store-options-error.js'
export { MCP_OUTCOME_META_KEY, toCallToolResult, toMcpTool, toMcpToolList } from './project.js'
export type { McpCallToolResult, McpOutcomeMeta, McpTextContent, McpToolAnnotations, McpToolListing } from './project.js'
export { measureCatalog } from './measure.js'
export type { CatalogSize, MeasureCatalogOptions } from './measure.js'
export type { CountTokens } from '../tokens/count-tokens.js'
export { McpOptionsError, isMcpOptionsError } from './mcp-options-error.js'
