/**
 * result-views: compact and full result views for agent tools.
 *
 * This file is the public API of the root entry `result-views`. Every export here is a promise
 * to hosts and tool authors: add one only on purpose (the API report `etc/result-views.api.md`
 * shows the change). Named exports only; no `export *`.
 *
 * @packageDocumentation
 */

// Defining tools
export { defineTool } from './tool/define.js'
export { ToolDefinitionError, isToolDefinitionError } from './tool/tool-definition-error.js'
export type { DefinitionProblem } from './tool/tool-definition-error.js'
export type {
  ApprovalRequirement,
  SingleResultTool,
  SingleResultToolDefinition,
  Tool,
  ToolBase,
  ToolContext,
  ToolDefinition,
  ToolDefinitionBase,
  ToolHandler,
  ViewedTool,
  ViewedToolDefinition,
} from './tool/types.js'
export type { ToolOrigin } from './tool/origin.js'
export type { JsonSchema } from './schema/json-schema.js'

// Views: proof and projection
export { proveViewSubset, ViewViolationCodes } from './schema/subset.js'
export type { ViewProof, ViewViolation, ViewViolationCode } from './schema/subset.js'
export { compileProjector } from './views/project.js'
export type { Projector } from './views/project.js'
export type { View } from './views/view.js'

// Canonical JSON and digests
export { canonicalJson } from './json/canonical.js'
export type { JsonValue } from './json/canonical.js'
export { JsonValueError, isJsonValueError } from './json/json-value-error.js'
export type { JsonValueProblem } from './json/json-value-error.js'
export { schemaDigest } from './digest/schema-digest.js'
export { inputDigest } from './digest/input-digest.js'
export type { InputDigestOptions } from './digest/input-digest.js'

// Descriptors
export { describeTool } from './tool/descriptor.js'
export type { ToolDescriptor, ViewContract } from './tool/descriptor.js'
export { defineToolInfoTool } from './tool/tool-info.js'
export type { ToolInfoResult, ToolInfoToolOptions } from './tool/tool-info.js'

// Dispatch
export { createDispatcher } from './dispatch/dispatcher.js'
export type {
  Dispatcher,
  DispatcherOptions,
  InvokeError,
  InvokeOk,
  InvokeOutcome,
  InvokePending,
  InvokeRequest,
  ToolResult,
} from './dispatch/types.js'
export type { CallScope } from './dispatch/scope.js'
export type { ScopedToolDescription, ToolAvailability, ToolDiagnostics } from './dispatch/diagnostics.js'
export type { ValidationIssue } from './dispatch/validators.js'

// What the model reads (shared by the MCP, AI SDK and OpenAI Agents adapters)
export { outcomeForModel } from './model-output/model-outcome.js'
export type { ModelOutcome, ModelOutcomeError, ModelOutcomeOk, ModelOutcomePending } from './model-output/model-outcome.js'
export { toModelSchema } from './model-output/model-schema.js'

// Hooks, redaction and logging
export { HookRegistrationError } from './hooks/registry.js'
export type { HookOptions } from './hooks/registry.js'
export type {
  HookEvent,
  HookHandlers,
  HookPayloadBase,
  PostCallHandler,
  PostCallPayload,
  PostErrorHandler,
  PostErrorPayload,
  PreCallDecision,
  PreCallHandler,
  PreCallPayload,
} from './hooks/events.js'
export { REDACTED } from './redact/sensitive-paths.js'
export { silentLogger } from './log/logger.js'
export type { Logger } from './log/logger.js'

// Policy
export { createPatternPolicy } from './policy/pattern-policy.js'
export type { ApprovalMode, PatternPolicy, PatternPolicyOptions } from './policy/pattern-policy.js'
export { intersectPolicies } from './policy/compose.js'
export { createRetiredIdFilter, RETIRED_IDS_IGNORED } from './policy/retired.js'
export type { FilteredPolicyLists, PolicyLists, RetiredIdFilter, RetiredIdFilterOptions } from './policy/retired.js'
export { defaultToolPolicy, toolFacts } from './policy/policy.js'
export type { PolicyAllow, PolicyApprovalRequired, PolicyDecision, PolicyDeny, PolicyRequest, ToolFacts, ToolPolicy } from './policy/policy.js'
export { PolicyDefinitionError, isPolicyDefinitionError } from './policy/policy-definition-error.js'
export type { PolicyProblem } from './policy/policy-definition-error.js'

// Approvals
export { createMemoryApprovalStores } from './approval/memory-stores.js'
export type { ApprovalStores, Awaitable } from './approval/stores.js'
export type { ApprovalTokenRecord, ApprovalTokenStore } from './approval/token-store.js'
export { grantKeyText } from './approval/grant-store.js'
export type { ApprovalGrant, ApprovalGrantStore, GrantDecision, GrantKey, GrantScope } from './approval/grant-store.js'
export type { PendingApprovalRecord, PendingApprovalStore, PendingState, StoredOutcome } from './approval/pending-store.js'
export type { ApprovalOptions, ApprovalOwner, ApprovalOwnerCheck } from './approval/options.js'
export type { ApprovalPrompt, ApprovalPromptAnswer, ApprovalPromptRequest } from './approval/prompt.js'
export type { ApprovalsApi } from './approval/approvals-api.js'
export type { MintApprovalTokenRequest, MintedApprovalToken } from './approval/mint-token.js'
export type { ListGrantsRequest, RevokeGrantRequest, SetGrantRequest } from './approval/manage-grants.js'
export type { ApprovalOwnerRequest, ResolveApprovalRequest } from './approval/manage-pending.js'
export type { ApprovalStatus, ExecutionStatus, PendingApprovalView } from './approval/pending.js'
export { ApprovalConfigError, isApprovalConfigError } from './approval/approval-config-error.js'
export type { ApprovalConfigProblem } from './approval/approval-config-error.js'

// Errors
export { ToolError, isToolError } from './errors/tool-error.js'
export type { ErrorSurface, ToolErrorInit, ToolErrorPayload } from './errors/tool-error.js'
export { ToolErrorCodes, UsageErrorCodes } from './errors/codes.js'
export type { InputErrorCode, ToolErrorCode, ToolErrorKind, UsageErrorCode } from './errors/codes.js'
export { UsageError, isUsageError } from './errors/usage-error.js'
export type { UsageErrorInit, UsageProblem } from './errors/usage-error.js'
