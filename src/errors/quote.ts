/** Longest text (a pointer, a property name, an ID) a message quotes whole. */
export const MAX_QUOTED_LENGTH = 128

/**
 * `text` as a JSON string literal for a message, cut to `limit` UTF-16 code units (never between
 * the two halves of a surrogate pair) when it is longer, and then saying so:
 * `"/a/a/a/…" (cut to 128 of 10001 characters)`. No message of this library quotes a caller's or
 * a host's text without it, so a message stays short whatever it names.
 */
export function quoted(text: string, limit: number = MAX_QUOTED_LENGTH): string {
  if (text.length <= limit) return JSON.stringify(text)
  let end = limit
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end -= 1
  return `${JSON.stringify(text.slice(0, end) + '…')} (cut to ${end} of ${text.length} characters)`
}
