/**
 * result-views: compact and full result views for agent tools.
 *
 * This file is the public API of the root entry `result-views`. Every export here is a promise
 * to hosts, tool authors and store implementers: add one only on purpose (the API report
 * `etc/result-views.api.md` shows the change). Named exports only; no `export *`. Grouped by who
 * reaches for it first.
 *
 * @packageDocumentation
 */

// Tool authors: defining a tool (`docs/views.md` "Defining a viewed tool").
export { defineTool } from './tool/define.js'
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
export type { ToolOrigin, View } from './views/view.js'
export type { OmitRule, OmitWhen } from './views/omit-rules.js'
export type { JsonSchema } from './schema/json-schema.js'
export { ToolDefinitionError, isToolDefinitionError } from './tool/tool-definition-error.js'

// Tool authors: the compact ⊆ full proof and the projection (`docs/views.md` "The subset proof", "Projection").
export { proveViewSubset, ViewViolationCodes } from './schema/subset.js'
export type { ViewProof, ViewViolation, ViewViolationCode } from './schema/subset.js'
export { compileProjector } from './views/project.js'
export type { Projector } from './views/project.js'

// Everyone: canonical JSON and digests (`docs/views.md` "Digests").
export { canonicalJson } from './json/canonical.js'
export type { JsonValue } from './json/canonical.js'
export { schemaDigest } from './digest/schema-digest.js'
export { inputDigest } from './digest/input-digest.js'
export { JsonValueError, isJsonValueError } from './json/json-value-error.js'
export type { JsonValueProblem } from './json/json-value-error.js'

// Hosts: the dispatcher, its calls and outcomes (`docs/views.md` "Dispatch").
export { createDispatcher } from './dispatch/dispatcher.js'
export { DispatcherOptionsError, isDispatcherOptionsError } from './dispatch/dispatcher-options-error.js'
export type { Dispatcher, DispatcherOptions } from './dispatch/types.js'
export type { CallScope } from './tool/types.js'
export type { InvokeError, InvokeOk, InvokeOutcome, InvokePending, InvokeRequest, ToolResult } from './call/call.js'
export type { ValidationIssue } from './dispatch/validators.js'

// Hosts and callers that hold the tool: typed calls and typed hooks (`docs/views.md` "Typed calls").
export { invokeTool } from './dispatch/invoke-tool.js'
export type { ToolCallOk, ToolCallOutcome, ToolCallRequest } from './dispatch/invoke-tool.js'
export type { ToolInput, ToolRecord } from './tool/static-types.js'
export { hookTool } from './dispatch/hook-tool.js'
export type { Redacted, ToolHookHandlers } from './hooks/tool-hooks.js'

// Hosts: discovery, descriptors and scoped diagnostics (`docs/views.md` "Descriptors", `docs/mcp.md`).
export { describeTool } from './tool/descriptor.js'
export type { CompactViewContract, ToolDescriptor, ViewContract } from './tool/descriptor.js'
export type { DiagnosticsGrant, ScopedToolDescription, ToolAvailability, ToolDiagnostics } from './dispatch/diagnostics.js'
export type { ApprovalOption } from './approval/diagnose.js'
export { defineToolInfoTool } from './tool/tool-info.js'
export type { ToolInfoResult, ToolInfoToolOptions } from './tool/tool-info.js'

// Adapter authors: what the model reads, shared by the MCP, AI SDK and OpenAI Agents adapters
// (`docs/adapters.md`).
export { outcomeForModel } from './model-output/model-outcome.js'
export type { ModelOutcome, ModelOutcomeError, ModelOutcomeOk, ModelOutcomePending } from './model-output/model-outcome.js'
export type { ResultPart } from './model-output/result-part.js'
export { toModelSchema } from './model-output/model-schema.js'

// Hosts: hooks, redaction and logging (`docs/hooks.md`).
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
export type { HookOptions } from './hooks/registry.js'
export { HookRegistrationError, isHookRegistrationError } from './hooks/hook-registration-error.js'
export { REDACTED } from './redact/sensitive-paths.js'
export type { Logger } from './log/logger.js'
// Hosts: telemetry (`docs/telemetry.md`; the OpenTelemetry recorder is `result-views/otel`).
export type {
  AuthorizedBy,
  CallTelemetry,
  DispatchTelemetry,
  TelemetryCallEnd,
  TelemetryCallStart,
  TelemetryResultSizes,
  TelemetryStage,
  TelemetryStageFacts,
  TraceContext,
} from './telemetry/telemetry.js'

// Hosts: policies (`docs/policy.md`).
export type { PolicyAllow, PolicyApprovalRequired, PolicyDecision, PolicyDeny, PolicyRequest, ToolFacts, ToolPolicy } from './policy/policy.js'
export { defaultToolPolicy } from './policy/policy.js'
export { createPatternPolicy } from './policy/pattern-policy.js'
export type { ApprovalMode, PatternPolicy, PatternPolicyOptions } from './policy/pattern-policy.js'
export { intersectPolicies } from './policy/compose.js'
export { createRetiredIdFilter, RETIRED_IDS_IGNORED } from './policy/retired.js'
export type { FilteredPolicyLists, PolicyLists, RetiredIdFilter, RetiredIdFilterOptions } from './policy/retired.js'
export { PolicyDefinitionError, isPolicyDefinitionError } from './policy/policy-definition-error.js'

// Hosts: approvals — options, the prompt, and `dispatcher.approvals` with what its methods take
// and return, for HTTP routes and CLIs (`docs/approvals.md`).
export type { ApprovalOptions, ApprovalOwner, ApprovalOwnerCheck } from './approval/options.js'
export type { ApprovalPrompt, ApprovalPromptAnswer, ApprovalPromptRequest } from './approval/prompt.js'
export type {
  ApprovalOwnerRequest,
  ApprovalsApi,
  ApprovalStatus,
  ExecutionStatus,
  ListGrantsRequest,
  ListPendingRequest,
  MintApprovalTokenRequest,
  MintedApprovalToken,
  PendingApprovalView,
  ResolveApprovalRequest,
  RevokeGrantRequest,
  SetGrantRequest,
} from './approval/approvals-api.js'
export { ApprovalConfigError, isApprovalConfigError } from './approval/errors.js'
// The spec's management tools of remembered decisions, for managed agents (`docs/approvals.md`
// "Management tools: `defineApprovalTools`").
export { defineApprovalTools } from './approval/approval-tools.js'
export type { ApprovalGrantsApi, ApprovalToolListResult, ApprovalToolRevokeResult, ApprovalToolSetResult, ApprovalToolsOptions } from './approval/approval-tools.js'

// Store implementers: the three approval store contracts, their records, the memory stores
// (`docs/approvals.md` "Implementing the stores (for hosts)"; `describeApprovalStoreConformance`
// in result-views/testing).
export type {
  ApprovalGrant,
  ApprovalGrantStore,
  ApprovalStores,
  ApprovalTokenRecord,
  ApprovalTokenStore,
  Awaitable,
  GrantDecision,
  GrantKey,
  GrantScope,
  PendingApprovalRecord,
  PendingApprovalStore,
  PendingState,
  SealedInput,
  StoredOutcome,
} from './approval/stores.js'
export { grantKeyText } from './approval/stores.js'
export { createMemoryApprovalStores } from './approval/memory-stores.js'

// Everyone: errors — run-time outcomes (ToolError) and misuse (UsageError) (`docs/errors.md`).
export { ToolError, isToolError } from './errors/tool-error.js'
export type { ErrorSurface, ToolErrorInit, ToolErrorPayload } from './errors/tool-error.js'
export { ToolErrorCodes, UsageErrorCodes } from './errors/codes.js'
export type { InputErrorCode, ReportedErrorCode, ToolErrorCode, ToolErrorKind, ToolErrorReason, UsageErrorCode } from './errors/codes.js'
export { reportToolError } from './errors/report-tool-error.js'
export type { ReportToolErrorOptions } from './errors/report-tool-error.js'
export type { SurfaceDetails, SurfaceIssue } from './errors/surface-details.js'
export { UsageError, isUsageError } from './errors/usage-error.js'
export type { UsageErrorInit, UsageProblem } from './errors/usage-error.js'
export type { CodedUsageError, SubjectUsageErrorClass, UsageErrorClass, UsageErrorGuard, UsageErrorName } from './errors/usage-error-class.js'
export type { OptionProblemCode } from './options/options.js'
