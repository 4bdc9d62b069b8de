/**
 * The per-call context the AI SDK hands a tool callback, under either major: ai 7 passes the
 * tool's entry of `toolsContext` as `context` (to `execute` and tool-level `needsApproval`) and as
 * `toolContext` (to a call-level `toolApproval` function); ai 6 passes the call's
 * `experimental_context`. The first of those keys that holds a value other than `undefined` wins;
 * a getter that throws reads as no context (the scope resolver then decides what that means).
 */
export function sdkContextOf(options: unknown): unknown {
  if (typeof options !== 'object' || options === null) return undefined
  for (const key of CONTEXT_KEYS) {
    try {
      const value = (options as Record<string, unknown>)[key]
      if (value !== undefined) return value
    } catch {
      // An unreadable key is no context.
    }
  }
  return undefined
}

const CONTEXT_KEYS = ['context', 'toolContext', 'experimental_context'] as const
