import type { Logger } from 'result-views'

/** Logs through the host's logger, if any, without ever failing the request (a throwing logger is ignored). */
export function log(logger: Logger | undefined, level: keyof Logger, fields: Record<string, unknown>, message: string): void {
  if (logger === undefined) return
  try {
    logger[level](fields, message)
  } catch {
    // A broken logger must not change the answer.
  }
}

/** The `name` of a thrown value, for a log line (never its message, which may quote a caller's data). */
export function errorName(error: unknown): string {
  try {
    if (typeof error === 'object' && error !== null && typeof (error as Error).name === 'string') return (error as Error).name.slice(0, 64)
    return typeof error
  } catch {
    return 'unreadable'
  }
}
