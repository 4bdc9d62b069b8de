/**
 * result-views/ai: a dispatcher's catalog as a Vercel AI SDK tool set (`ai` 6.0.114+ or 7, an
 * optional peer dependency needed only by this entry). See `docs/adapters.md`.
 *
 * Every export here is public API. Named exports only; no `export *`; the SDK's own API is never
 * re-exported (import it from `ai`).
 *
 * @packageDocumentation
 */

export { toAiSdkTools } from './to-ai-sdk-tools.js'
export type { AiSdkToolsOptions } from './to-ai-sdk-tools.js'
export { aiSdkToolApproval } from './sdk-tool-approval.js'
export type { AiSdkToolApproval, AiSdkToolApprovalFunction } from './sdk-tool-approval.js'
export { AiSdkToolError, isAiSdkToolError } from './ai-sdk-tool-error.js'
export { AiSdkOptionsError, isAiSdkOptionsError } from './ai-sdk-options-error.js'
export type { FrameworkApprovals, FrameworkCallInfo, FrameworkScopeResolver, FrameworkToolsOptions, PendingApprovalNotice } from '../framework-call/framework-options.js'
