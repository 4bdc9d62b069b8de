/**
 * A structured logger, the shape pino and `console` share: each method takes a fields object and
 * a message. The dispatcher logs through it (failed calls, retired-ID warnings, hook failures); it is silent
 * unless the host passes one. Fields never hold secrets: sensitive input fields are redacted and
 * approval tokens are never logged.
 */
export interface Logger {
/** Logs at debug level (unused by the library today). */
  debug(fields: Record<string, unknown>, message: string): void
/** Logs at info level. */
  info(fields: Record<string, unknown>, message: string): void
/** Logs at warn level (`tools.retired_ids_ignored`, a failed token purge). */
  warn(fields: Record<string, unknown>, message: string): void
/** Logs at error level (`tool.call_failed`: a call that failed; a failed hook or observer, a failed store, an outcome not recorded; `docs/hooks.md` "Logging"). */
  error(fields: Record<string, unknown>, message: string): void
}

const noop = (): void => {}

/** The default logger: drops everything. */
export const silentLogger: Logger = Object.freeze({ debug: noop, info: noop, warn: noop, error: noop })

/** Log levels, as the {@link Logger} methods name them. */
export type LogLevel = keyof Logger

/**
 * Logs without ever failing the caller: a logger that throws is ignored (a broken logger must not
 * change the outcome of a call).
 */
export function safeLog(logger: Logger, level: LogLevel, fields: Record<string, unknown>, message: string): void {
  try {
    logger[level](fields, message)
  } catch {
    // A logger's own failure has nowhere safer to go.
  }
}

/**
 * The `name` of a thrown value, for a log line (never its message, which may quote a caller's
 * data), read inside a guard: `'unreadable'` when a getter or Proxy trap throws.
 */
export function thrownName(thrown: unknown): string {
  try {
    if (typeof thrown === 'object' && thrown !== null && typeof (thrown as Error).name === 'string') return (thrown as Error).name.slice(0, 64)
    return typeof thrown
  } catch {
    return 'unreadable'
  }
}
