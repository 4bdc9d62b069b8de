/**
 * result-views/http: the HTTP/UDS routes over a dispatcher (tool list, search and info,
 * invocation, pending approvals, remembered grants), as a Node request listener and as a
 * fetch-style handler, on `node:http` only (no web framework). See `docs/http.md`.
 *
 * Every export here is public API. Named exports only; no `export *`.
 *
 * @packageDocumentation
 */

export { createHttpHandler } from './node-handler.js'
export type { HttpRequestListener } from './node-handler.js'
export { createFetchHandler } from './fetch-handler.js'
export type { FetchHandler, FetchRequestInfo } from './fetch-handler.js'
export type { HttpAuthenticate, HttpAuthRequest, HttpHandlerOptions } from './options.js'
export type { ContinuationFound, ContinuationPart, ContinuationRead, ContinuationResult, ContinuationStore, ContinuationStoreOptions } from '../continuation/continuation-store.js'
export { createMemoryContinuationStore } from '../continuation/memory-continuation-store.js'
export { ContinuationStoreOptionsError, isContinuationStoreOptionsError } from '../continuation/continuation-store-options-error.js'
export { HttpOptionsError, isHttpOptionsError } from './http-options-error.js'
