import type { ApprovalsApi } from '../approval/approvals-api.js'
import type { ApprovalOptions } from '../approval/options.js'
import type { HookEvent, HookHandlers } from '../hooks/events.js'
import type { HookOptions } from '../hooks/registry.js'
import type { Logger } from '../log/logger.js'
import type { ToolPolicy } from '../policy/policy.js'
import type { CallScope, Tool } from '../tool/types.js'
import type { ToolDescriptor } from '../tool/descriptor.js'
import type { ScopedToolDescription } from './diagnostics.js'
import type { InvokeOutcome, InvokeRequest } from '../call/call.js'
import type { DispatchTelemetry } from '../telemetry/telemetry.js'

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
   * How long one run of a handler may take, in milliseconds, for tools that set no
   * `handlerTimeoutMs` of their own. Default 60,000. Past it the call fails with
   * `tool_execution_failed` / `handler_timeout`, `tool.post_error` fires, and the handler's
   * `context.signal` is aborted; a late answer is dropped (`docs/views.md` "Time budgets and
   * cancellation"). A positive number up to 2,147,483,647, or `Infinity` (no limit).
   */
  handlerTimeoutMs?: number
  /**
   * The current time in epoch milliseconds (token expiry, pending approval lifetimes, timestamps).
   * Default `Date.now`. Tests pass a fake clock; `approvals.now`, if given, wins.
   */
  clock?: () => number
  /** Decides every call after the pre-call hooks (`docs/policy.md`). Default `defaultToolPolicy`: allow, approval for tools that declare it. */
  policy?: ToolPolicy
  /** Approval stores, prompt callback and time budgets. Default: in-memory stores, no prompt (pending approvals). */
  approvals?: ApprovalOptions
  /**
   * Traces and metrics of every call: a recorder such as `createOtelTelemetry({ tracer, meter })`
   * of `result-views/otel` (`docs/telemetry.md`). Default: none, and nothing is recorded or loaded.
   */
  telemetry?: DispatchTelemetry
}

/** The dispatch engine (`docs/architecture.md` "The invocation lifecycle"). */
export interface Dispatcher {
  /**
   * Runs one call through the lifecycle: resolve tool → check `result_view` → validate input →
   * handler → validate the full record → project to the selected view → outcome.
   * Never rejects for anything a caller or tool can do wrong: those are `{ status: 'error' }`.
   * Never hangs: every host callback and the handler run within their time budgets, and
   * `request.signal` cancels the call at once.
   */
  invoke(request: InvokeRequest): Promise<InvokeOutcome>
  /**
   * Registers a hook handler (`docs/hooks.md` "Payloads"); returns a function that unregisters it.
   * `tool.pre_call` handlers run in registration order as a pipeline; post-call and post-error
   * observers run after the outcome is known and cannot change it.
   *
   * @throws HookRegistrationError for an unknown event or a non-function handler.
   */
  hook<E extends HookEvent>(event: E, handler: HookHandlers[E]): () => void
  /** Approval tokens, remembered grants and pending approvals (`docs/approvals.md` "`dispatcher.approvals`"). */
  readonly approvals: ApprovalsApi
  /**
   * The descriptor of one tool (`docs/views.md` "Descriptors"), or `undefined` for an
   * unknown ID. Synchronous; computed once per tool.
   */
  describe(tool_id: string): ToolDescriptor | undefined
  /**
   * With a scope: the descriptor and the diagnostics a managed session in that scope would get
   * (`docs/policy.md` "Scoped diagnostics"): whether the tool is callable there and, if not, why (denied
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
