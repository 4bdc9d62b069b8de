import type { REDACTED } from '../redact/sensitive-paths.js'
import type { ToolInput } from '../tool/static-types.js'
import type { Tool } from '../tool/types.js'
import type { PostCallHandler, PostErrorHandler, PreCallHandler } from './events.js'

/**
 * A value as a hook payload shows it (`docs/hooks.md` "Typed hooks"): deep-readonly, and any
 * property or array element may read `"[REDACTED]"` instead, since the tool's
 * `sensitiveInputFields` and a call's `sensitive_input_fields` may name any path. A string field
 * stays `string`; a field of any other type is that type or `"[REDACTED]"`.
 */
export type Redacted<T> = T extends object ? { readonly [K in keyof T]: Redacted<T[K]> | typeof REDACTED } : T

/**
 * The handler type of each event for one tool's calls (`hookTool`, `docs/hooks.md` "Typed hooks"):
 * `tool_input` of `tool.pre_call` and `tool.post_call` is the tool's input (`ToolInput`), redacted;
 * that of `tool.post_error` stays `unknown`, since an input error fires it with the input as sent.
 */
export interface ToolHookHandlers<T extends Tool> {
  /** Runs before policy, approval and the handler; may patch the input or deny. */
  'tool.pre_call': PreCallHandler<Redacted<ToolInput<T>>>
  /** Observes a successful call. */
  'tool.post_call': PostCallHandler<Redacted<ToolInput<T>>>
  /** Observes a failed or refused call. */
  'tool.post_error': PostErrorHandler
}
