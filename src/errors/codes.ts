/**
 * The one registry of tool error codes. Every `ToolError` carries one of these `code`s; each entry
 * says which class of failure it is, which decides how `ToolError.forSurface` redacts the message
 * (spec 000 "Errors": input errors become "invalid tool request", denials "tool invocation denied").
 *
 * `docs/errors.md` documents every code (when it fires, its reasons, what `details` holds); a test
 * keeps the two in sync in both directions.
 */
export const ToolErrorCodes = {
  /** The input failed validation (schema, `result_view` selector). Default input-error code. */
  tool_invalid_input: { kind: 'input' },
  /** Same as `tool_invalid_input`, for tools defined with `inputErrorCode: 'invalid_request'`. */
  invalid_request: { kind: 'input' },
  /** No tool with the requested ID is registered with the dispatcher. */
  tool_not_found: { kind: 'input' },
  /** A policy, hook or caller constraint refused the call. */
  tool_denied: { kind: 'denial' },
  /** The handler threw or rejected. */
  tool_execution_failed: { kind: 'failure' },
  /** A pre-call hook threw or returned a patch it may not (another tool ID or scope, a non-JSON input). */
  tool_hook_failed: { kind: 'failure' },
  /** The handler returned a record that the tool's full output schema rejects. */
  tool_output_invalid: { kind: 'failure' },
  /** A supplied approval token is unknown, replayed, expired, or minted for another tool, scope or input. */
  approval_invalid: { kind: 'denial' },
  /** An approval store, the prompt callback or the owner check failed or timed out: nothing that needs approval runs. */
  approval_unavailable: { kind: 'failure' },
  /** No pending approval (or, on the HTTP and CLI surfaces, no remembered grant of the workspace) has the given ID. */
  approval_not_found: { kind: 'input' },
  /** A pending approval was shown, resolved or canceled by another profile, or its owner is no longer available. */
  approval_forbidden: { kind: 'denial' },
  /** A pending approval is no longer pending (expired, resolved or canceled): it never runs again. */
  approval_state: { kind: 'denial' },
  /** A management call (`dispatcher.approvals`) got bad arguments. */
  approval_request_invalid: { kind: 'input' },
  /** A Loop node's pinned contract (schema digest of its view) no longer matches the tool's. */
  loop_contract_stale: { kind: 'failure' },
  /** A Loop node failed outside a tool call: its host action threw, or its call awaits an approval. */
  loop_node_failed: { kind: 'failure' },
  /** `result-views/http`: a request the routes cannot serve (malformed JSON, a wrong content type, a body over the limit, cut short or too slow, a bad query parameter, an unknown route or method). */
  http_request_invalid: { kind: 'input' },
  /** `result-views/http`: the host's `authenticate` callback refused the request (HTTP 401). */
  http_unauthenticated: { kind: 'denial' },
  /** `result-views/http`: the handler itself failed (the host's `authenticate` callback threw, hung or answered nonsense; an unexpected exception). */
  http_handler_failed: { kind: 'failure' },
  /** The `result-views` command could not reach its target or could not read its answer. */
  cli_target_unavailable: { kind: 'failure' },
} as const satisfies Record<string, { kind: ToolErrorKind }>

/** How a code is treated on redacting surfaces. */
export type ToolErrorKind = 'input' | 'denial' | 'failure'

/** Every stable error code (`keyof typeof ToolErrorCodes`). */
export type ToolErrorCode = keyof typeof ToolErrorCodes

/** Input-error codes a tool may choose with `inputErrorCode` (spec 000 "Errors", last paragraph). */
export type InputErrorCode = 'tool_invalid_input' | 'invalid_request'

/**
 * The registry of misuse codes: the `code` of every `UsageError` (and subclass) this library
 * throws. `docs/errors.md` "Misuse errors" documents each; a test keeps the two in sync in both
 * directions.
 */
export const UsageErrorCodes = {
  /** `defineTool` got a definition that must never reach a catalog (`ToolDefinitionError`). */
  tool_definition_invalid: { thrownBy: 'ToolDefinitionError' },
  /** A policy builder or `createDispatcher({ policy })` got a policy that cannot decide a call (`PolicyDefinitionError`). */
  policy_definition_invalid: { thrownBy: 'PolicyDefinitionError' },
  /** `createDispatcher({ approvals })` got stores or options that cannot serve approvals (`ApprovalConfigError`). */
  approval_config_invalid: { thrownBy: 'ApprovalConfigError' },
  /** `dispatcher.hook` or `createDispatcher({ hooks })` got an unknown event or a handler that is not a function. */
  hook_registration_invalid: { thrownBy: 'HookRegistrationError' },
  /** `createMcpServer` or another MCP entry function got bad options (`McpOptionsError`). */
  mcp_options_invalid: { thrownBy: 'McpOptionsError' },
  /** `toAiSdkTools` (`result-views/ai`) got a dispatcher that is not one or bad options (`AiSdkOptionsError`). */
  ai_sdk_options_invalid: { thrownBy: 'AiSdkOptionsError' },
  /** `toAgentsTools` (`result-views/openai-agents`) got a dispatcher that is not one, bad options, or tools whose names collide (`AgentsOptionsError`). */
  openai_agents_options_invalid: { thrownBy: 'AgentsOptionsError' },
  /** `result-views/postgres` (`createPostgresApprovalStores`, `migrate`) got bad options, or tables of a newer schema (`PostgresOptionsError`). */
  postgres_options_invalid: { thrownBy: 'PostgresOptionsError' },
  /** `canonicalJson`, `schemaDigest` or `inputDigest` got a value that is not plain JSON (`JsonValueError`). */
  non_json_value: { thrownBy: 'JsonValueError' },
  /** A `result-views/testing` generator got a schema it cannot generate values for (`SchemaArbitraryError`). */
  schema_arbitrary_unsupported: { thrownBy: 'SchemaArbitraryError' },
  /** `createHttpHandler` or `createFetchHandler` got a dispatcher that is not one or bad options (`HttpOptionsError`). */
  http_options_invalid: { thrownBy: 'HttpOptionsError' },
  /** A `result-views/contracts` function (or `assertViewBudget`) got an argument, lock or option it cannot use (`ContractsError`). */
  contracts_invalid: { thrownBy: 'ContractsError' },
  /** Tokens had to be counted, no `countTokens` was given and the optional peer `gpt-tokenizer` cannot be loaded (`TokenizerUnavailableError`). */
  tokenizer_unavailable: { thrownBy: 'TokenizerUnavailableError' },
} as const satisfies Record<string, { thrownBy: string }>

/** Every stable misuse code (`keyof typeof UsageErrorCodes`). */
export type UsageErrorCode = keyof typeof UsageErrorCodes
