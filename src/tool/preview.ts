/** Longest default preview, in UTF-16 code units before the ellipsis. */
export const DEFAULT_PREVIEW_LENGTH = 200

/**
 * The default `preview` of a result: the selected record's JSON text (`JSON.stringify`), cut after
 * {@link DEFAULT_PREVIEW_LENGTH} characters with a trailing `…`. It is computed from the record
 * the caller receives, so a compact result's preview never shows a full-only field.
 *
 * Only about the first {@link DEFAULT_PREVIEW_LENGTH} characters are written: a large record costs
 * what its first few fields cost, not what serializing it whole would. The text is the same as
 * cutting `JSON.stringify(selected)` (a property test checks this on arbitrary JSON values).
 *
 * @param selected - the record the caller receives, which the dispatcher has checked to be plain
 *   JSON (plain objects, dense arrays, finite numbers): the writer relies on it.
 */
export function defaultPreview(selected: unknown, keys?: QuotedKeys): string {
  const parts: string[] = []
  write(selected, parts, 0, keys)
  const text = parts.join('')
  return text.length <= DEFAULT_PREVIEW_LENGTH ? text : text.slice(0, DEFAULT_PREVIEW_LENGTH) + '…'
}

/**
 * The JSON string literals of the property names a tool's schemas declare, written once: most
 * keys of a result are declared names. A name's whole literal is safe to use at any cut, since
 * the text is cut at {@link DEFAULT_PREVIEW_LENGTH} afterwards and at least as much is written.
 */
export type QuotedKeys = ReadonlyMap<string, string>

/** {@link QuotedKeys} of every `properties` name in the schemas (public names, never record data). */
export function quotedPropertyNames(...schemas: readonly unknown[]): QuotedKeys {
  const quoted = new Map<string, string>()
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return
    if (Array.isArray(node)) return node.forEach(visit)
    for (const [keyword, child] of Object.entries(node)) {
      if (keyword === 'properties' && typeof child === 'object' && child !== null && !Array.isArray(child)) {
        for (const name of Object.keys(child)) quoted.set(name, JSON.stringify(name))
      }
      visit(child)
    }
  }
  schemas.forEach(visit)
  return quoted
}

/** Enough text: past the cut, so nothing more is needed. */
const DONE = DEFAULT_PREVIEW_LENGTH + 1

/**
 * Appends the JSON text of the plain JSON `value` to `parts`, which hold `length` characters so
 * far, stopping once they hold at least {@link DONE}.
 *
 * @returns the new length.
 */
function write(value: unknown, parts: string[], length: number, keys: QuotedKeys | undefined): number {
  let text: string
  if (typeof value === 'string') text = quote(value, DONE - length)
  else if (typeof value !== 'object') text = String(value)
  else if (value === null) text = 'null'
  else return Array.isArray(value) ? writeArray(value, parts, length, keys) : writeObject(value as Record<string, unknown>, parts, length, keys)
  parts.push(text)
  return length + text.length
}

function writeArray(items: readonly unknown[], parts: string[], length: number, keys: QuotedKeys | undefined): number {
  parts.push('[')
  let written = length + 1
  for (let i = 0; i < items.length; i++) {
    if (written >= DONE) return written
    if (i > 0) {
      parts.push(',')
      written++
    }
    written = write(items[i], parts, written, keys)
  }
  parts.push(']')
  return written + 1
}

function writeObject(record: Record<string, unknown>, parts: string[], length: number, quoted: QuotedKeys | undefined): number {
  const keys = Object.keys(record)
  if (keys.length === 0) {
    parts.push('{}')
    return length + 2
  }
  let written = length
  for (let i = 0; i < keys.length; i++) {
    if (written >= DONE) return written
    const key = keys[i]!
    const head = (i === 0 ? '{' : ',') + (quoted?.get(key) ?? quote(key, DONE - written)) + ':'
    parts.push(head)
    written = write(record[key], parts, written + head.length, quoted)
  }
  parts.push('}')
  return written + 1
}

/**
 * The JSON string literal of `text`, or of its first `budget` code units when the literal of the
 * whole would run past the cut. Every code unit encodes to one or more characters, so that
 * literal agrees with the whole one on its first `budget` characters (a surrogate pair cut in two
 * changes only what comes after them), and is at least that long.
 */
function quote(text: string, budget: number): string {
  const part = text.length > budget ? text.slice(0, Math.max(budget, 0)) : text
  return NEEDS_ESCAPE.test(part) ? JSON.stringify(part) : '"' + part + '"'
}

/** What JSON.stringify writes as an escape: quote, backslash, control characters, surrogates. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/
