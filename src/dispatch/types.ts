import type { ApprovalsApi } from '../approval/approvals-api.js'
import type { ApprovalOptions } from '../approval/options.js'
import type { ToolError } from '../errors/tool-error.js'
import type { HookEvent, HookHandlers } from '../hooks/events.js'
import type { HookOptions } from '../hooks/registry.js'
import type { Logger } from '../log/logger.js'
import type { ToolPolicy } from '../policy/policy.js'
import type { Tool } from '../tool/types.js'
import type { ToolDescriptor } from '../tool/descriptor.js'
import type { View } from '../views/view.js'
import type { ScopedToolDescription } from './diagnostics.js'
import type { CallScope } from './scope.js'

/** One call, as `dispatcher.invoke` takes it (DESIGN.md "Public API"). */
export interface InvokeRequest {
  tool_id: string
  /** The tool input: a plain JSON object. For viewed tools it may carry `result_view`. */
  input: unknown
  scope?: CallScope
  /** Correlates events and results; generated (a random UUID) when absent. */
  tool_call_id?: string
  /** A single-use approval token (spec 001 "Approval-gated tools"). */
  approval_token?: string
  /** Dotted input paths to redact from every surface but the handler (spec 001 "Sensitive input fields"). */
  sensitive_input_fields?: readonly string[]
  /** The view a Loop node pinned; a call whose input selects another view is denied (spec 000 "Hooks"). */
  pinned_result_view?: View
}

/** The envelope of a successful result (spec 000 "Hooks": the record is under `structured`). */
export interface ToolResult {
  /** The selected view's record. */
  readonly structured: unknown
  /** A short label of the result. */
  readonly preview: string
}

/** A successful call. `result_view` is present only for tools with views. */
export interface InvokeOk {
  readonly status: 'ok'
  readonly tool_call_id: string
  readonly result: ToolResult
  readonly result_view?: View
}

/** A failed call: every caller or tool mistake ends here, never as a thrown exception. */
export interface InvokeError {
  readonly status: 'error'
  readonly tool_call_id: string
  readonly error: ToolError
}

/** A call waiting on an approval decision (spec 001 "Pending command-palette approvals"). */
export interface InvokePending {
  readonly status: 'approval_pending'
  readonly tool_call_id: string
  readonly approval_id: string
}

/** What `invoke` resolves to. */
export type InvokeOutcome = InvokeOk | InvokeError | InvokePending

/** Options of `createDispatcher`. */
export interface DispatcherOptions {
  /** The catalog: tools returned by `defineTool`, with distinct IDs. */
  tools: readonly Tool[]
  /** Initial hook handlers, per event (more can be added with `dispatcher.hook`). */
  hooks?: HookOptions
  /** Structured logger (pino- and console-compatible). Default: silent. */
  logger?: Logger
  /**
   * How long one hook handler may take, in milliseconds. Default 10,000. A pre-call handler past it
   * fails the call closed (`tool_hook_failed` / `hook_timeout`); an observer past it is logged and
   * the outcome is kept. `Infinity` waits forever.
   */
  hookTimeoutMs?: number
  /**
   * The current time in epoch milliseconds (token expiry, pending approval lifetimes, timestamps).
   * Default `Date.now`. Tests pass a fake clock; `approvals.now`, if given, wins.
   */
  clock?: () => number
  /** Decides every call after the pre-call hooks (spec 001). Default `defaultToolPolicy`: allow, approval for tools that declare it. */
  policy?: ToolPolicy
  /** Approval stores, prompt callback and time budgets. Default: in-memory stores, no prompt (pending approvals). */
  approvals?: ApprovalOptions
}

/** The dispatch engine (spec 001 "Invocation lifecycle"). */
export interface Dispatcher {
  /**
   * Runs one call through the lifecycle: resolve tool → check `result_view` → validate input →
   * handler → validate the full record → project to the selected view → outcome.
   * Never rejects for anything a caller or tool can do wrong: those are `{ status: 'error' }`.
   */
  invoke(request: InvokeRequest): Promise<InvokeOutcome>
  /**
   * Registers a hook handler (spec 000 "Hooks"); returns a function that unregisters it.
   * `tool.pre_call` handlers run in registration order as a pipeline; post-call and post-error
   * observers run after the outcome is known and cannot change it.
   *
   * @throws HookRegistrationError for an unknown event or a non-function handler.
   */
  hook<E extends HookEvent>(event: E, handler: HookHandlers[E]): () => void
  /** Approval tokens, remembered grants and pending approvals (spec 001). */
  readonly approvals: ApprovalsApi
  /**
   * The descriptor of one tool (spec 000 "Discovering both contracts"), or `undefined` for an
   * unknown ID. Synchronous; computed once per tool.
   */
  describe(tool_id: string): ToolDescriptor | undefined
  /**
   * With a scope: the descriptor and the diagnostics a managed session in that scope would get
   * (spec 001 "Scoped diagnostics"): whether the tool is callable there and, if not, why (denied
   * by which policy owner, needs approval, policy failed, unknown tool). Asks the policy with an
   * empty input. Never rejects for a caller mistake: an unknown tool is `status: 'unknown_tool'`.
   *
   * @throws ToolError `tool_invalid_input` / `request_invalid` (as a rejection) for a malformed scope.
   */
  describe(tool_id: string, scope: CallScope): Promise<ScopedToolDescription>
  /** The descriptors of every tool, in catalog order. */
  list(): readonly ToolDescriptor[]
  /** With a scope: `describe(tool_id, scope)` for every tool, in catalog order. */
  list(scope: CallScope): Promise<readonly ScopedToolDescription[]>
}
