/**
 * result-views/openai-agents: a dispatcher's catalog as OpenAI Agents function tools
 * (`@openai/agents` 0.20, an optional peer dependency needed only by this entry). See
 * `docs/adapters.md`.
 *
 * Every export here is public API. Named exports only; no `export *`; the SDK's own API is never
 * re-exported (import it from `@openai/agents`).
 *
 * @packageDocumentation
 */

export { toAgentsTools } from './to-agents-tools.js'
export type { AgentsTool, AgentsToolsOptions } from './to-agents-tools.js'
export { AgentsOptionsError, isAgentsOptionsError } from './agents-options-error.js'
export type { FrameworkApprovals, FrameworkCallInfo, FrameworkScopeResolver, FrameworkToolsOptions, PendingApprovalNotice } from '../framework-call/framework-options.js'
