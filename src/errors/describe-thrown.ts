/**
 * The message of a thrown value, at most 500 characters. Reading it never throws: an Error whose
 * `message` is not a string or cannot be read, or a Proxy whose traps throw, is described as such.
 */
export function describeThrown(cause: unknown): string {
  let text: string
  try {
    const message = cause instanceof Error ? (cause.message as unknown) : cause
    text = typeof message === 'string' ? message : cause instanceof Error ? 'an Error without a readable message was thrown' : 'a non-Error value was thrown'
  } catch {
    text = 'an unreadable value was thrown'
  }
  return text.length > 500 ? text.slice(0, 500) + '…' : text
}
