/**
 * A structured logger, the shape pino and `console` share: each method takes a fields object and
 * a message. The dispatcher logs through it (retired-ID warnings, hook failures); it is silent
 * unless the host passes one. Fields never hold secrets: sensitive input fields are redacted and
 * approval tokens are never logged.
 */
export interface Logger {
  debug(fields: Record<string, unknown>, message: string): void
  info(fields: Record<string, unknown>, message: string): void
  warn(fields: Record<string, unknown>, message: string): void
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
