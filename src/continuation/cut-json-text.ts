/**
 * Where to cut the JSON text of a result into parts: each part at most a number of UTF-8 bytes,
 * never inside a UTF-16 surrogate pair or a JSON escape (`\n`, `\"`, `\u00e9`), so that every
 * part is well-formed text and the parts joined are exactly the text.
 */

/** UTF-8 bytes of `text` (a well-formed string: the output of `JSON.stringify`). */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}

/** The unit at `at`: how many UTF-16 code units it spans and how many UTF-8 bytes it weighs. */
function unitAt(text: string, at: number): { readonly units: number; readonly bytes: number } {
  const code = text.charCodeAt(at)
  // A backslash only occurs in JSON text as the start of an escape: `\uXXXX` or `\x`.
  if (code === 0x5c) return text.charCodeAt(at + 1) === 0x75 ? { units: 6, bytes: 6 } : { units: 2, bytes: 2 }
  if (code < 0x80) return { units: 1, bytes: 1 }
  if (code < 0x800) return { units: 1, bytes: 2 }
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = text.charCodeAt(at + 1)
    if (next >= 0xdc00 && next <= 0xdfff) return { units: 2, bytes: 4 }
  }
  // Other BMP code points; a lone surrogate (never in `JSON.stringify` output) weighs what U+FFFD does.
  return { units: 1, bytes: 3 }
}

/**
 * The end (exclusive code-unit index) of the part that starts at `start`: as many whole units
 * (characters, surrogate pairs, escapes) as fit in `maxBytes` UTF-8 bytes, at least one, so that
 * every call makes progress. `start` must itself be a cut point (0 or an end this returned).
 *
 * @returns `{ end, bytes }`: the index and the part's UTF-8 bytes.
 */
export function nextCut(text: string, start: number, maxBytes: number): { readonly end: number; readonly bytes: number } {
  let at = start
  let bytes = 0
  while (at < text.length) {
    const unit = unitAt(text, at)
    if (bytes + unit.bytes > maxBytes && at > start) break
    at += unit.units
    bytes += unit.bytes
  }
  return { end: Math.min(at, text.length), bytes }
}
