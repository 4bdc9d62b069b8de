import { cutScrubbed, scrubText } from '../redact/secrets.js'

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
 * With `secrets` (the call's sensitive values in every form, `docs/hooks.md` "Sensitive input
 * fields"), the text is scrubbed of them **before** it is cut: enough of it is written that any
 * secret crossing the cut is replaced whole, so no part of one is left at the end; and again after
 * it, when a secret ends in `…` (the cut's ellipsis could finish it).
 *
 * @param selected - the record the caller receives, which the dispatcher has checked to be plain
 *   JSON (plain objects, dense arrays, finite numbers): the writer relies on it.
 * @param secrets - texts replaced by `"[REDACTED]"`, longest first; none by default.
 */
export function defaultPreview(selected: unknown, keys?: QuotedKeys, secrets: readonly string[] = []): string {
  if (secrets.length === 0) return cut(write(selected, '', keys, DONE))
  // A secret that crosses the end of what was written leaves at most its length less one
  // character there: write until the scrubbed text reaches past the cut by that much (or the
  // record ends), so that the cut never keeps part of one.
  const longest = secrets.reduce((max, secret) => Math.max(max, secret.length), 0)
  let budget = DONE + longest
  for (;;) {
    const text = write(selected, '', keys, budget)
    const scrubbed = scrubText(text, secrets)
    // Shorter than the budget: the whole record was written.
    if (text.length < budget || scrubbed.length >= DONE + longest) return cutScrubbed(scrubbed, DEFAULT_PREVIEW_LENGTH, secrets)
    budget *= 2
  }
}

function cut(text: string): string {
  return text.length <= DEFAULT_PREVIEW_LENGTH ? text : text.slice(0, DEFAULT_PREVIEW_LENGTH) + '…'
}

/**
 * The member heads (`{"name":` and `,"name":`) of the property names a tool's schemas declare,
 * written once: most keys of a result are declared names. A whole head is safe to use at any cut,
 * since the text is cut at {@link DEFAULT_PREVIEW_LENGTH} afterwards and at least as much is written.
 */
export type QuotedKeys = ReadonlyMap<string, KeyHeads>

/** What precedes a member's value: its key's literal after `{` (first member) or `,` (others), then `:`. */
interface KeyHeads {
  readonly first: string
  readonly next: string
}

/** {@link QuotedKeys} of every `properties` name in the schemas (public names, never record data). */
export function quotedPropertyNames(...schemas: readonly unknown[]): QuotedKeys {
  const quoted = new Map<string, KeyHeads>()
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return
    if (Array.isArray(node)) return node.forEach(visit)
    for (const [keyword, child] of Object.entries(node)) {
      if (keyword === 'properties' && typeof child === 'object' && child !== null && !Array.isArray(child)) {
        for (const name of Object.keys(child)) quoted.set(name, { first: `{${JSON.stringify(name)}:`, next: `,${JSON.stringify(name)}:` })
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
 * `text` followed by the JSON text of the plain JSON `value`, stopping once it is at least
 * `done` characters long (so a text shorter than `done` is the whole value's).
 */
function write(value: unknown, text: string, keys: QuotedKeys | undefined, done: number): string {
  if (typeof value === 'string') return text + quote(value, done - text.length)
  if (typeof value !== 'object') return text + String(value)
  if (value === null) return text + 'null'
  return Array.isArray(value) ? writeArray(value, text, keys, done) : writeObject(value as Record<string, unknown>, text, keys, done)
}

function writeArray(items: readonly unknown[], text: string, keys: QuotedKeys | undefined, done: number): string {
  let out = text + '['
  for (let i = 0; i < items.length; i++) {
    if (out.length >= done) return out
    out = write(items[i], i === 0 ? out : out + ',', keys, done)
  }
  return out + ']'
}

function writeObject(record: Record<string, unknown>, text: string, quoted: QuotedKeys | undefined, done: number): string {
  const keys = Object.keys(record)
  if (keys.length === 0) return text + '{}'
  let out = text
  for (let i = 0; i < keys.length; i++) {
    if (out.length >= done) return out
    const key = keys[i]!
    const heads = quoted?.get(key)
    const head = heads === undefined ? (i === 0 ? '{' : ',') + quote(key, done - out.length) + ':' : i === 0 ? heads.first : heads.next
    out = write(record[key], out + head, quoted, done)
  }
  return out + '}'
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
