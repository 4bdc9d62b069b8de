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

/** The `name` of a thrown value, for a log line (never its message): the root's guarded reader. */
export { thrownName as errorName } from '../log/logger.js'
