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
export function defaultPreview(selected: unknown): string {
  const parts: string[] = []
  write(selected, parts, 0)
  const text = parts.join('')
  return text.length <= DEFAULT_PREVIEW_LENGTH ? text : text.slice(0, DEFAULT_PREVIEW_LENGTH) + '…'
}

/** Enough text: past the cut, so nothing more is needed. */
const DONE = DEFAULT_PREVIEW_LENGTH + 1

/**
 * Appends the JSON text of the plain JSON `value` to `parts`, which hold `length` characters so
 * far, stopping once they hold at least {@link DONE}.
 *
 * @returns the new length.
 */
function write(value: unknown, parts: string[], length: number): number {
  let text: string
  if (typeof value === 'string') text = quote(value, DONE - length)
  else if (typeof value !== 'object') text = String(value)
  else if (value === null) text = 'null'
  else return Array.isArray(value) ? writeArray(value, parts, length) : writeObject(value as Record<string, unknown>, parts, length)
  parts.push(text)
  return length + text.length
}

function writeArray(items: readonly unknown[], parts: string[], length: number): number {
  parts.push('[')
  let written = length + 1
  for (let i = 0; i < items.length; i++) {
    if (written >= DONE) return written
    if (i > 0) {
      parts.push(',')
      written++
    }
    written = write(items[i], parts, written)
  }
  parts.push(']')
  return written + 1
}

function writeObject(record: Record<string, unknown>, parts: string[], length: number): number {
  const keys = Object.keys(record)
  if (keys.length === 0) {
    parts.push('{}')
    return length + 2
  }
  let written = length
  for (let i = 0; i < keys.length; i++) {
    if (written >= DONE) return written
    const key = keys[i]!
    const head = (i === 0 ? '{' : ',') + quote(key, DONE - written) + ':'
    parts.push(head)
    written = write(record[key], parts, written + head.length)
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
