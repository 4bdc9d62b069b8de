/** Longest part of a thrown value's message that an error message quotes, in UTF-16 code units before the `…`. */
export const MAX_THROWN_MESSAGE = 500

/**
 * The whole message of a thrown value, uncut. Reading it never throws: an Error whose `message` is
 * not a string or cannot be read, or a Proxy whose traps throw, is described as such. Callers
 * that quote it scrub it of secrets first, then cut it ({@link describeThrown}).
 */
export function thrownText(cause: unknown): string {
  try {
    const message = cause instanceof Error ? (cause.message as unknown) : cause
    return typeof message === 'string' ? message : cause instanceof Error ? 'an Error without a readable message was thrown' : 'a non-Error value was thrown'
  } catch {
    return 'an unreadable value was thrown'
  }
}

/** The message of a thrown value ({@link thrownText}), cut to {@link MAX_THROWN_MESSAGE} characters. */
export function describeThrown(cause: unknown): string {
  const text = thrownText(cause)
  return text.length > MAX_THROWN_MESSAGE ? text.slice(0, MAX_THROWN_MESSAGE) + '…' : text
}
