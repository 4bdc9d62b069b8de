/**
 * JSON Pointer (RFC 6901) helpers. Paths everywhere in this library, into schemas and into
 * instances, are JSON Pointers: `""` is the root, `/a/0/b~1c` is `a` → `0` → `b/c`.
 */

/** Escapes one reference token (`~` → `~0`, `/` → `~1`). */
export function escapePointerToken(token: string | number): string {
  const text = String(token)
  // Most tokens hold neither character: no replacement pass for them.
  if (!text.includes('~') && !text.includes('/')) return text
  // One pass over the text (two `replaceAll` passes cost several times more on short tokens).
  let out = ''
  let from = 0
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit !== TILDE && unit !== SLASH) continue
    out += text.slice(from, i) + (unit === TILDE ? '~0' : '~1')
    from = i + 1
  }
  return out + text.slice(from)
}

const TILDE = 0x7e
const SLASH = 0x2f

/** Unescapes one reference token (`~1` → `/`, then `~0` → `~`, in that order as RFC 6901 says). */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~')
}

/** Appends reference tokens to a pointer: `appendPointer('/a', 'b/c', 0)` → `/a/b~1c/0`. */
export function appendPointer(pointer: string, ...tokens: Array<string | number>): string {
  let out = pointer
  for (const token of tokens) out += '/' + escapePointerToken(token)
  return out
}

/** Builds a pointer from tokens: `toPointer(['a', 0])` → `/a/0`. */
export function toPointer(tokens: ReadonlyArray<string | number>): string {
  return appendPointer('', ...tokens)
}

/**
 * Splits a pointer into its unescaped reference tokens: `parsePointer('/a/b~1c/0')` →
 * `['a', 'b/c', '0']`; `''` (the root) → `[]`. Array indices stay strings, as RFC 6901 reads them.
 */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return []
  return pointer
    .slice(1)
    .split('/')
    .map(unescapePointerToken)
}
