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
 * @param selected - the record the caller receives: plain JSON (the dispatcher has checked it).
 */
export function defaultPreview(selected: unknown): string {
  const parts: string[] = []
  const written = write(selected, parts, 0)
  const text = written === NOT_PLAIN ? (JSON.stringify(selected) ?? '') : parts.join('')
  return text.length <= DEFAULT_PREVIEW_LENGTH ? text : text.slice(0, DEFAULT_PREVIEW_LENGTH) + '…'
}

/** Enough text: past the cut, so nothing more is needed. */
const DONE = DEFAULT_PREVIEW_LENGTH + 1

/** What the writer answers for a value it leaves to `JSON.stringify` (not plain JSON). */
const NOT_PLAIN = -1

/**
 * Appends the JSON text of `value` to `parts`, which hold `length` characters so far, stopping
 * once they hold at least {@link DONE}.
 *
 * @returns the new length, or {@link NOT_PLAIN} for a value that is not plain JSON (an instance,
 *   `toJSON`, `undefined`, a non-finite number...): the caller then lets `JSON.stringify`, which
 *   knows every such rule, write the whole value.
 */
function write(value: unknown, parts: string[], length: number): number {
  let text: string
  switch (typeof value) {
    case 'string':
      text = quote(value, DONE - length)
      break
    case 'number':
      if (!Number.isFinite(value)) return NOT_PLAIN
      text = String(value)
      break
    case 'boolean':
      text = value ? 'true' : 'false'
      break
    case 'object':
      if (value === null) {
        text = 'null'
        break
      }
      return Array.isArray(value) ? writeArray(value, parts, length) : writeObject(value, parts, length)
    default:
      return NOT_PLAIN
  }
  parts.push(text)
  return length + text.length
}

function writeArray(items: readonly unknown[], parts: string[], length: number): number {
  if (hasToJson(items)) return NOT_PLAIN
  parts.push('[')
  let written = length + 1
  for (let i = 0; i < items.length; i++) {
    if (written >= DONE) return written
    if (i > 0) {
      parts.push(',')
      written++
    }
    written = write(items[i], parts, written)
    if (written === NOT_PLAIN) return NOT_PLAIN
  }
  parts.push(']')
  return written + 1
}

function writeObject(record: object, parts: string[], length: number): number {
  const proto = Object.getPrototypeOf(record)
  if ((proto !== Object.prototype && proto !== null) || hasToJson(record)) return NOT_PLAIN
  const keys = Object.keys(record)
  let written = length
  for (let i = 0; i < keys.length; i++) {
    if (written >= DONE) return written
    const key = keys[i]!
    const member = (record as Record<string, unknown>)[key]
    // JSON.stringify leaves such members out; that rule is left to it.
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') return NOT_PLAIN
    const head = (i === 0 ? '{' : ',') + quote(key, DONE - written) + ':'
    parts.push(head)
    written = write(member, parts, written + head.length)
    if (written === NOT_PLAIN) return NOT_PLAIN
  }
  parts.push(keys.length === 0 ? '{}' : '}')
  return written + (keys.length === 0 ? 2 : 1)
}

function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function'
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
