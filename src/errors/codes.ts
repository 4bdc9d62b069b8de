/**
 * The one registry of tool error codes. Every `ToolError` carries one of these `code`s; each entry
 * lists the `reason`s the library gives it, as data, and says which class of failure it is, which
 * decides how `ToolError.forSurface` redacts the message
 * (`docs/errors.md`: input errors become "invalid tool request", denials "tool invocation denied").
 *
 * `docs/errors.md` documents every code (when it fires, its reasons, what `details` holds); a test
 * keeps the two in sync in both directions.
 */
export const ToolErrorCodes = {
  /** The input failed validation (schema, `result_view` selector), or the request itself is malformed. Default input-error code. */
  tool_invalid_input: { kind: 'input', reasons: ['schema_invalid', 'non_json_input', 'request_invalid', 'continuation_unknown', 'continuation_expired'] },
  /** Same as `tool_invalid_input`, for tools defined with `inputErrorCode: 'invalid_request'` (a malformed request stays `tool_invalid_input`). */
  invalid_request: { kind: 'input', reasons: ['schema_invalid', 'non_json_input'] },
  /** No tool with the requested ID is registered with the dispatcher (or, for `invokeTool`, another tool object is registered under it). */
  tool_not_found: { kind: 'input', reasons: ['unknown_tool', 'tool_mismatch'] },
  /** A policy, hook, approval decision or caller constraint refused the call. */
  tool_denied: { kind: 'denial', reasons: ['result_view_pinned', 'hook_denied', 'policy_denied', 'policy_failed', 'approval_rejected', 'approval_required', 'loopback_required', 'scope_forbidden', 'continuation_scope_mismatch', 'csrf_header_missing', 'cross_origin_refused', 'host_not_allowed'] },
  /** The handler threw, rejected or ran past its time budget, the caller aborted the call, a schema of the tool could not be compiled, or a value-dependent compact rule (`omitWhen`) failed. */
  tool_execution_failed: { kind: 'failure', reasons: ['handler_failed', 'handler_timeout', 'call_aborted', 'schema_compile_failed', 'omit_rule_failed'] },
  /** A pre-call hook threw, timed out or returned a patch it may not (another tool ID or scope, a non-JSON input). */
  tool_hook_failed: { kind: 'failure', reasons: ['hook_threw', 'hook_timeout', 'hook_patch_invalid'] },
  /** The handler returned a record that is not plain JSON or that the tool's full output schema rejects. */
  tool_output_invalid: { kind: 'failure', reasons: ['output_schema_invalid'] },
  /** A supplied approval token, or an MCP approval request state, is unknown or not signed here, replayed, expired, or issued for another tool, scope or input. */
  approval_invalid: { kind: 'denial', reasons: ['token_unknown', 'token_replayed', 'token_expired', 'token_mismatch', 'state_invalid', 'state_replayed', 'state_expired', 'state_mismatch'] },
  /** An approval store, the prompt callback, the owner check or the clock failed or timed out, or an approved record no longer reproduces its call or its sealed input does not open: nothing that needs approval runs. */
  approval_unavailable: { kind: 'failure', reasons: ['store_failed', 'store_timeout', 'store_outcome_unknown', 'prompt_failed', 'prompt_timeout', 'owner_check_failed', 'clock_failed', 'record_invalid', 'seal_key_unknown', 'seal_invalid', 'input_held_elsewhere', 'store_unsupported'] },
  /** No pending approval (or, on the HTTP and CLI surfaces and the `_revoke` management tool, no remembered grant of the workspace) has the given ID. */
  approval_not_found: { kind: 'input', reasons: ['unknown_approval', 'unknown_grant'] },
  /** A pending approval was shown, resolved or canceled by another profile, or its owner is no longer available; or an approval was asked for a call a remembered reject blocks. */
  approval_forbidden: { kind: 'denial', reasons: ['profile_mismatch', 'profile_unavailable', 'session_unbound', 'remembered_reject'] },
  /** A pending approval is no longer pending (expired, resolved or canceled): it never runs again. */
  approval_state: { kind: 'denial', reasons: ['approval_expired', 'approval_resolved', 'approval_canceled'] },
  /** A management call (`dispatcher.approvals`, or a `defineApprovalTools` tool) got bad arguments. */
  approval_request_invalid: { kind: 'input', reasons: ['field_invalid', 'agent_name_required', 'agent_name_forbidden', 'input_digest_forbidden', 'workspace_required'] },
  /** A Loop node's pinned contract (schema digest of its view) no longer matches the tool's. */
  loop_contract_stale: { kind: 'failure', reasons: ['schema_digest_changed', 'tool_removed'] },
  /** A Loop node failed outside a tool call: its host action threw or returned non-JSON, its params reference a value that cannot be an input, or its call awaits an approval. */
  loop_node_failed: { kind: 'failure', reasons: ['action_failed', 'action_output_invalid', 'params_not_json', 'approval_pending'] },
  /** `result-views/http`, `result-views/mcp`: the continuation store failed or timed out reading a part, or a part sealed at rest does not open: no part is answered, nothing is changed. HTTP 503. */
  continuation_unavailable: { kind: 'failure', reasons: ['store_failed', 'store_timeout', 'seal_key_unknown', 'seal_invalid'] },
  /** `result-views/http`: a request the routes cannot serve (malformed JSON, a wrong content type, a body over the limit, cut short or too slow, a bad query parameter, an unknown route or method). */
  http_request_invalid: {
    kind: 'input',
    reasons: ['json_malformed', 'body_not_object', 'content_type_unsupported', 'body_too_large', 'body_timeout', 'body_incomplete', 'query_invalid', 'path_invalid', 'unknown_route', 'method_not_allowed'],
  },
  /** `result-views/http`: the host's `authenticate` callback refused the request (HTTP 401). */
  http_unauthenticated: { kind: 'denial', reasons: ['authentication_refused'] },
  /** `result-views/http`: the handler itself failed (the host's `authenticate` callback threw, hung or answered nonsense; an unexpected exception). */
  http_handler_failed: { kind: 'failure', reasons: ['authenticate_failed', 'authenticate_timeout', 'body_already_read', 'unexpected_error'] },
  /** The `result-views` command could not reach its target or could not read its answer. */
  cli_target_unavailable: { kind: 'failure', reasons: ['connection_failed', 'timeout', 'response_invalid'] },
  /** Reported by a tool: what the call names does not exist (a ticket, a file). HTTP 404. The tool's reason and message are shown on every surface. */
  resource_not_found: { kind: 'reported', reasons: ['not_found'] },
  /** Reported by a tool: the call conflicts with the state of what it names (already closed, edited since, taken). HTTP 409. */
  resource_conflict: { kind: 'reported', reasons: ['conflict'] },
  /** Reported by a tool: an argument the input schema accepts is still wrong (a date in the past, an unknown ID format). HTTP 422. */
  argument_invalid: { kind: 'reported', reasons: ['argument_invalid'] },
} as const satisfies Record<string, { kind: ToolErrorKind; reasons: readonly string[] }>

/**
 * How a code is treated on redacting surfaces: `input`, `denial` and `failure` messages are
 * replaced by a fixed one; a `reported` code's message is the tool's, written for the caller and
 * shown on every surface (its reasons are the tool's own: the registered one is the default of
 * `reportToolError`).
 */
export type ToolErrorKind = 'input' | 'denial' | 'failure' | 'reported'

/** The codes a tool reports an outcome the caller can act on with (`reportToolError`, `docs/errors.md` "Errors a tool reports"). */
export type ReportedErrorCode = 'resource_not_found' | 'resource_conflict' | 'argument_invalid'

/** Every stable error code (`keyof typeof ToolErrorCodes`). */
export type ToolErrorCode = keyof typeof ToolErrorCodes

/** The registered reasons of one code, e.g. `ToolErrorReason<'approval_invalid'>` is `'token_unknown' | 'token_replayed' | ...`. */
export type ToolErrorReason<C extends ToolErrorCode = ToolErrorCode> = (typeof ToolErrorCodes)[C]['reasons'][number]

/** Input-error codes a tool may choose with `inputErrorCode` (`docs/views.md` "The selector"). */
export type InputErrorCode = 'tool_invalid_input' | 'invalid_request'

/**
 * The registry of misuse codes: the `code` of every `UsageError` (and subclass) this library
 * throws, with the name of the class that throws it and, for the classes generated from this
 * table (`usageErrorClass`), the subject their message starts with. `docs/errors.md` "Misuse errors" documents each; a test keeps the two in sync in both
 * directions.
 */
export const UsageErrorCodes = {
  /** `defineTool`, `defineToolInfoTool` or `createDispatcher({ tools, clock })` got a definition that must never reach a catalog (`ToolDefinitionError`). */
  tool_definition_invalid: { thrownBy: 'ToolDefinitionError' },
  /** `createDispatcher` got an options object it cannot run with: an unknown or unreadable option, a `clock`, `logger` or `handlerTimeoutMs` of the wrong type (`DispatcherOptionsError`). */
  dispatcher_options_invalid: { thrownBy: 'DispatcherOptionsError', subject: 'createDispatcher options' },
  /** A policy builder or `createDispatcher({ policy })` got a policy that cannot decide a call (`PolicyDefinitionError`). */
  policy_definition_invalid: { thrownBy: 'PolicyDefinitionError', subject: 'policy definition' },
  /** `createDispatcher({ approvals })` or `createSqliteApprovalStores` got stores or options that cannot serve approvals (`ApprovalConfigError`). */
  approval_config_invalid: { thrownBy: 'ApprovalConfigError', subject: 'approvals options' },
  /** `dispatcher.hook`, `hookTool` or `createDispatcher({ hooks, hookTimeoutMs })` got an unknown event, a handler that is not a function or a bad time budget (`HookRegistrationError`). */
  hook_registration_invalid: { thrownBy: 'HookRegistrationError', subject: 'hook registration' },
  /** `createMcpServer` or another MCP entry function got bad options (`McpOptionsError`). */
  mcp_options_invalid: { thrownBy: 'McpOptionsError' },
  /** `toAiSdkTools` (`result-views/ai`) got a dispatcher that is not one or bad options (`AiSdkOptionsError`). */
  ai_sdk_options_invalid: { thrownBy: 'AiSdkOptionsError', subject: 'toAiSdkTools(dispatcher, options)' },
  /** `toAgentsTools` (`result-views/openai-agents`) got a dispatcher that is not one, bad options, or tools whose names collide (`AgentsOptionsError`). */
  openai_agents_options_invalid: { thrownBy: 'AgentsOptionsError', subject: 'toAgentsTools(dispatcher, options)' },
  /** `result-views/postgres` (`createPostgresApprovalStores`, `migrate`) got bad options, or tables of a newer schema (`PostgresOptionsError`). */
  postgres_options_invalid: { thrownBy: 'PostgresOptionsError' },
  /** `createMemoryContinuationStore` (`result-views/http`, `result-views/mcp`) got bounds it cannot keep results with (`ContinuationStoreOptionsError`). */
  continuation_store_options_invalid: { thrownBy: 'ContinuationStoreOptionsError', subject: 'continuation store options' },
  /** `canonicalJson`, `schemaDigest` or `inputDigest` got a value that is not plain JSON (`JsonValueError`). */
  non_json_value: { thrownBy: 'JsonValueError' },
  /** `inputDigest` got options it does not know (an unknown `origin`). */
  digest_options_invalid: { thrownBy: 'UsageError' },
  /** `compileProjector` or `proveViewSubset` got something that is not a schema they can read. */
  schema_argument_invalid: { thrownBy: 'UsageError' },
  /** A `result-views/testing` generator got a schema it cannot generate values for (`SchemaArbitraryError`). */
  schema_arbitrary_unsupported: { thrownBy: 'SchemaArbitraryError' },
  /** `invokeTool` got a dispatcher `createDispatcher` did not return, or a tool `defineTool` did not return. */
  invoke_tool_argument_invalid: { thrownBy: 'UsageError' },
  /** A `result-views/testing` function got an argument or option it cannot run with (not a viewed tool, a bad run count). */
  testing_argument_invalid: { thrownBy: 'UsageError' },
  /** A `result-views/testing` generator or `assertViewsConsistent` ran, and the optional peer `fast-check` cannot be loaded. */
  fast_check_unavailable: { thrownBy: 'UsageError' },
  /** A Loop definition (object or YAML) does not have the Loop shape (`LoopError`). */
  loop_definition_invalid: { thrownBy: 'LoopError' },
  /** A Loop could not start because lint reported errors (`LoopError`). */
  loop_lint_failed: { thrownBy: 'LoopError' },
  /** A Loop run snapshot is malformed or does not match its definition (`LoopError`). */
  loop_snapshot_invalid: { thrownBy: 'LoopError' },
  /** A Loop function got a bad catalog or runner options (`LoopError`). */
  loop_options_invalid: { thrownBy: 'LoopError' },
  /** `createHttpHandler` or `createFetchHandler` got a dispatcher that is not one or bad options (`HttpOptionsError`). */
  http_options_invalid: { thrownBy: 'HttpOptionsError', subject: 'http handler configuration' },
  /** `createOtelTelemetry` got options it cannot use (`OtelOptionsError`). */
  otel_options_invalid: { thrownBy: 'OtelOptionsError', subject: 'OpenTelemetry options' },
  /** A `result-views/contracts` function (or `assertViewBudget`) got an argument, lock or option it cannot use (`ContractsError`). */
  contracts_invalid: { thrownBy: 'ContractsError' },
  /** Tokens had to be counted, no `countTokens` was given and the optional peer `gpt-tokenizer` cannot be loaded (`TokenizerUnavailableError`). */
  tokenizer_unavailable: { thrownBy: 'TokenizerUnavailableError' },
} as const satisfies Record<string, { thrownBy: string; subject?: string }>

/** Every stable misuse code (`keyof typeof UsageErrorCodes`). */
export type UsageErrorCode = keyof typeof UsageErrorCodes
