import type { ToolErrorPayload } from '../errors/tool-error.js'
import type { CallScope } from '../tool/types.js'
import type { View } from '../views/view.js'

/** The hook events (`docs/hooks.md` "Payloads"). */
export type HookEvent = 'tool.pre_call' | 'tool.post_call' | 'tool.post_error'

/**
 * Fields every hook payload carries (`docs/hooks.md` "Payloads"). Payloads are deep-frozen plain JSON;
 * sensitive input fields read `"[REDACTED]"`. `Input` types `tool_input`: `unknown` for
 * `dispatcher.hook`, the tool's redacted input type for `hookTool` (`docs/hooks.md` "Typed hooks").
 */
export interface HookPayloadBase<Input = unknown> {
/** The called tool's ID. */
  readonly tool_id: string
/** The call's `tool_call_id` (the caller's, or generated). */
  readonly tool_call_id: string
/** The call's scope. */
  readonly scope: Readonly<CallScope>
  /** `true` on tools with views; absent otherwise. */
  readonly has_result_views?: true
  /** The input as sent (with `result_view` when the caller or a hook set one), redacted. */
  readonly tool_input: Input
  /** The selected view; present only for tools with views. */
  readonly result_view?: View
  /** The view a Loop node pinned; present only on such calls. */
  readonly pinned_result_view?: View
}

/** Payload of `tool.pre_call`: before policy, approval and the handler (its input has passed the input rules). */
export interface PreCallPayload<Input = unknown> extends HookPayloadBase<Input> {
/** The event name. */
  readonly event: 'tool.pre_call'
}

/** Payload of `tool.post_call`: `tool_result` is the envelope the caller receives (`structured` + `preview`). */
export interface PostCallPayload<Input = unknown> extends HookPayloadBase<Input> {
/** The event name. */
  readonly event: 'tool.post_call'
/** The result envelope as the caller receives it, sensitive values scrubbed. */
  readonly tool_result: { readonly structured: unknown; readonly preview: string }
}

/** Payload of `tool.post_error`: the typed error as its dispatch payload (`code`, `reason`, `message`, `details?`). */
export interface PostErrorPayload extends HookPayloadBase {
/** The event name. */
  readonly event: 'tool.post_error'
/** The error's dispatch payload (`code`, `reason`, `message`, `details?`), sensitive values scrubbed. */
  readonly error: ToolErrorPayload
}

/**
 * What a `tool.pre_call` handler may return: nothing (go on), a patch carrying the whole new
 * `tool_input`, or a denial. A patch may not carry `tool_id` or `scope`.
 */
export type PreCallDecision = void | undefined | { readonly tool_input: unknown } | { readonly deny: true; readonly deny_reason?: string }

/** A `tool.pre_call` handler (sync or async). Handlers run in registration order, each seeing the previous patch. */
export type PreCallHandler<Input = unknown> = (payload: PreCallPayload<Input>) => PreCallDecision | Promise<PreCallDecision>
/** A `tool.post_call` observer. Its failure is logged and never changes the outcome. */
export type PostCallHandler<Input = unknown> = (payload: PostCallPayload<Input>) => void | Promise<void>
/** A `tool.post_error` observer. Its failure is logged and never changes the outcome. */
export type PostErrorHandler = (payload: PostErrorPayload) => void | Promise<void>

/** The handler type of each event (`docs/hooks.md` "Registering"). */
export interface HookHandlers {
/** Runs before policy, approval and the handler; may patch the input or deny. */
  'tool.pre_call': PreCallHandler
/** Observes a successful call. */
  'tool.post_call': PostCallHandler
/** Observes a failed or refused call. */
  'tool.post_error': PostErrorHandler
}
