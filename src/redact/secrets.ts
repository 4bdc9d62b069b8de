import { cloneJson } from '../json/clone.js'
import { isOverlongProxy } from '../json/guards.js'
import { escapePointerToken } from '../json/pointer.js'
import { forEachLocation, type Container } from './locations.js'
import { REDACTED, type SensitivePath } from './sensitive-paths.js'

/** Shortest secret scrubbed from free text (messages, previews); shorter ones are redacted only by path. */
export const MIN_SCRUBBED_SECRET_LENGTH = 4

/** What `JSON.stringify` escapes inside a string literal: `"`, `\`, controls and surrogates (lone ones are escaped; a pair is left to it). */
const NEEDS_JSON_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/

/** JSON-escaped text, as inside a JSON string literal (`"` → `\"`, `\` → `\\`, controls, lone surrogates). */
const jsonEscaped = (text: string): string => (NEEDS_JSON_ESCAPE.test(text) ? JSON.stringify(text).slice(1, -1) : text)

/**
 * Every form a secret can take in text the library writes (`docs/hooks.md` "Sensitive input
 * fields"): as it is, JSON-escaped (a message quoting JSON of the input), JSON-Pointer-escaped
 * (`~` → `~0`, `/` → `~1`: a key in a pointer), a pointer inside JSON text, JSON inside JSON (a
 * message that quotes a JSON message; each once more, as the default preview writes a record string
 * holding one), and in a URL, of the secret itself and of each JSON-escaped
 * form (JSON a handler put in a URL): percent-encoded (`encodeURIComponent`), form-encoded (as
 * `URLSearchParams` and `url.searchParams` write a query: space → `+`, `!'()~` escaped too) and
 * as `encodeURI` writes it (`;,/?:@&=+$#` left as they are), each also with lower-case hex digits
 * (`%2f`). Pointer forms are not URL-encoded (nothing puts a pointer in a URL). Distinct forms
 * only; a secret of characters no encoder changes (ASCII letters, digits, `-_.*`) has one.
 */
export function secretForms(secret: string): string[] {
  // The common secret: nothing escapes or encodes any of its characters, so every form is itself.
  if (UNCHANGED_BY_EVERY_ENCODING.test(secret)) return [secret]
  const json = jsonEscaped(secret)
  const pointer = escapePointerToken(secret)
  // A secret JSON leaves as it is: its pointer form has nothing for JSON to escape either (`~0`
  // and `~1` add none), so the forms are the secret, its pointer form and its URL forms.
  if (json === secret) {
    const forms = new Set([secret, pointer])
    addUrlForms(forms, secret)
    return [...forms]
  }
  // The two escapings commute (JSON writes no `~` or `/`, a pointer no `"`, `\` or control), so
  // the pointer form of the JSON form is the JSON form of the pointer form.
  const jsonInJson = jsonEscaped(json)
  const pointerInJson = jsonEscaped(pointer)
  // The default preview is JSON text of the record: a record string holding JSON-in-JSON text
  // (or a pointer in it) reaches the preview escaped once more.
  const forms = new Set([secret, json, pointer, pointerInJson, jsonInJson, jsonEscaped(jsonInJson), jsonEscaped(pointerInJson)])
  addUrlForms(forms, secret)
  // JSON text holds no lone surrogate (JSON escapes it), so every encoder can encode it.
  addUrlForms(forms, json)
  addUrlForms(forms, jsonInJson)
  return [...forms]
}

/** Text that JSON, JSON Pointer, `encodeURIComponent`, `encodeURI` and `URLSearchParams` all write as it is. */
const UNCHANGED_BY_EVERY_ENCODING = /^[A-Za-z0-9\-_.*]*$/

/**
 * Adds the forms a URL carries `text` in: `encodeURIComponent`, `URLSearchParams` (form encoding)
 * and `encodeURI`, each also with its hex digits in lower case. An encoder that refuses the text
 * (`encodeURIComponent` and `encodeURI` throw on a lone surrogate) adds none; form encoding writes
 * a lone surrogate as U+FFFD, as `URLSearchParams` does.
 */
function addUrlForms(forms: Set<string>, text: string): void {
  let percent: string
  try {
    percent = encodeURIComponent(text)
  } catch {
    // A lone surrogate: only form encoding writes it (as U+FFFD); the other two throw.
    addWithLowerHex(forms, formEncoded(encodeURIComponent(text.replace(LONE_SURROGATE, '\ufffd'))))
    return
  }
  addWithLowerHex(forms, percent)
  // Most texts come out of two or three encoders the same: each distinct form is added once.
  const form = formEncoded(percent)
  if (form !== percent) addWithLowerHex(forms, form)
  const uri = encodeURI(text)
  if (uri !== percent && uri !== form) addWithLowerHex(forms, uri)
}

/** A lone surrogate: a high one not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/**
 * `application/x-www-form-urlencoded` text, as `URLSearchParams` serializes a value, from the
 * `encodeURIComponent` form of the same text: form encoding leaves only `*-._` and ASCII letters
 * and digits as they are, so it also escapes the `!'()~` that `encodeURIComponent` leaves, and
 * writes a space as `+`.
 */
function formEncoded(percent: string): string {
  return FORM_ESCAPES_ANY.test(percent) ? percent.replace(FORM_ESCAPED, (found) => (found === '%20' ? '+' : FORM_ESCAPES[found]!)) : percent
}

const FORM_ESCAPED = /%20|[!'()~]/g
const FORM_ESCAPES_ANY = /%20|[!'()~]/
const FORM_ESCAPES: Record<string, string> = { '!': '%21', "'": '%27', '(': '%28', ')': '%29', '~': '%7E' }

/** Adds `form`, and `form` with the hex digits of its percent-escapes in lower case when that differs (`%2F` → `%2f`). */
function addWithLowerHex(forms: Set<string>, form: string): void {
  forms.add(form)
  if (UPPER_HEX_ESCAPE.test(form)) forms.add(lowerHex(form))
}

/** A percent-escape with a hex letter (in upper case, as every encoder writes it). */
const UPPER_HEX_ESCAPE = /%(?:[A-F][0-9A-F]|[0-9][A-F])/

/** An upper-case ASCII letter that is not one of the two hex digits after a `%`. */
const UPPER_OUTSIDE_ESCAPE = /(?<!%[0-9A-F]?)[A-Z]/

/**
 * Encoded text with the two hex digits after each `%` in lower case. Every `%` in an encoder's
 * output starts an escape (a `%` of the text is written `%25`), so no other character changes; a
 * loop of slices, as a `replace` callback per escape costs more than twice as much.
 */
function lowerHex(form: string): string {
  // No upper-case letter outside an escape (most encoded secrets): lower-casing the whole text
  // changes the escapes only, at a fraction of the loop's cost.
  if (!UPPER_OUTSIDE_ESCAPE.test(form)) return form.toLowerCase()
  let out = ''
  let done = 0
  for (let at = form.indexOf('%'); at !== -1; at = form.indexOf('%', at + 3)) {
    out += form.slice(done, at + 1) + form.slice(at + 1, at + 3).toLowerCase()
    done = at + 3
  }
  return out + form.slice(done)
}

/**
 * The secret texts under the sensitive paths of an input, in every form they can take in text
 * ({@link secretForms}), longest first: every string and number leaf and every object key at or
 * below each location, at least {@link MIN_SCRUBBED_SECRET_LENGTH} long.
 *
 * Safe on a value nobody has checked (an input that turned out not to be plain JSON, so that its
 * error is scrubbed too): the walk is iterative (any depth), visits each object once (cycles end),
 * stops at an array's first hole, and skips what throws when read.
 */
export function collectSecrets(input: unknown, paths: readonly SensitivePath[]): string[] {
  if (paths.length === 0) return []
  const found: Found = { text: undefined, forms: undefined, secrets: undefined, texts: undefined, seen: undefined }
  for (const path of paths) {
    if (stepsIntoItems(path)) {
      forEachLocation(input, path, (container, key) => collectAt(container, key, found))
      continue
    }
    // A path of property names only (the common one): its one location, walked as
    // forEachLocation walks it (own keys of objects that are not arrays, reads guarded), without
    // the callbacks.
    let node: unknown = input
    for (let i = 0; i < path.length - 1 && node !== undefined; i++) node = ownMember(node, path[i]!.key)
    const value = node === undefined ? undefined : ownMember(node, path[path.length - 1]!.key)
    if (value !== undefined) collectValue(value, found)
  }
  return longestFirst(found.secrets === undefined ? found.forms ?? [] : [...found.secrets])
}

/**
 * Sorts `list` in place, longest first, equal lengths in their order (a stable sort): an insertion
 * sort for the few forms of one or two secrets (`Array.prototype.sort` with a comparator costs
 * more than the sorting there), `sort` past that.
 */
function longestFirst(list: string[]): string[] {
  if (list.length > 16) return list.sort((a, b) => b.length - a.length)
  for (let i = 1; i < list.length; i++) {
    const item = list[i]!
    let j = i - 1
    while (j >= 0 && list[j]!.length < item.length) {
      list[j + 1] = list[j]!
      j--
    }
    list[j + 1] = item
  }
  return list
}

/**
 * What {@link collectSecrets} has found: the first text and its forms (the common case: one
 * sensitive string, no set made), then from a second text on every form of every text and the
 * texts already taken apart into forms; the objects walked (made at the first).
 */
interface Found {
  text: string | undefined
  forms: string[] | undefined
  secrets: Set<string> | undefined
  texts: Set<string> | undefined
  seen: Set<object> | undefined
}

/** Whether a path steps into the items of an array (`name[]`) anywhere. */
function stepsIntoItems(path: SensitivePath): boolean {
  for (let i = 0; i < path.length; i++) if (path[i]!.each) return true
  return false
}

/** The own member `key` of a container that is not an array, or `undefined` when there is none or the read throws. */
function ownMember(node: unknown, key: string): unknown {
  try {
    if (typeof node !== 'object' || node === null || Array.isArray(node) || !Object.prototype.hasOwnProperty.call(node, key)) return undefined
    // A member whose value is `undefined` has nothing to collect: it ends the walk as an absent one does.
    return (node as Record<string, unknown>)[key]
  } catch {
    return undefined
  }
}

/** Collects what is at or below `container[key]`. */
function collectAt(container: Container, key: string | number, found: Found): void {
  let value: unknown
  try {
    value = (container as Record<string | number, unknown>)[key]
  } catch {
    // The value at the location could not be read: nothing of it reaches any text either.
    return
  }
  collectValue(value, found)
}

/** Collects what is at or below a value read at a location (a string leaf, the common one, without a walk). */
function collectValue(value: unknown, found: Found): void {
  if (typeof value === 'string') return addText(value, found)
  try {
    collectBelow(value, found, (found.seen ??= new Set()))
  } catch {
    // Nothing read below a read that threw reaches any text.
  }
}

/** Adds every form of a text long enough to be scrubbed (once per text). */
function addText(text: string, found: Found): void {
  if (text.length < MIN_SCRUBBED_SECRET_LENGTH || text === found.text) return
  if (found.text === undefined) {
    found.text = text
    found.forms = secretForms(text)
    return
  }
  if (found.texts === undefined) {
    found.texts = new Set([found.text])
    found.secrets = new Set(found.forms)
  }
  if (found.texts.has(text)) return
  found.texts.add(text)
  for (const form of secretForms(text)) found.secrets!.add(form)
}

/** Adds every string and number leaf and object key at or below `root` (iteratively, each object once). */
function collectBelow(root: unknown, found: Found, seen: Set<object>): void {
  const stack: unknown[] = [root]
  while (stack.length > 0) {
    const value = stack.pop()
    if (typeof value === 'string') addText(value, found)
    else if (typeof value === 'number') addText(String(value), found)
    if (typeof value !== 'object' || value === null || seen.has(value)) continue
    seen.add(value)
    try {
      if (Array.isArray(value)) {
        // A Proxy array longer than any the library reads is refused anyway: its elements are not walked.
        const length = value.length
        if (isOverlongProxy(value, length)) continue
        for (let i = 0; i < length; i++) {
          if (!(i in value)) break
          stack.push(value[i])
        }
      } else {
        // Keys inside a sensitive object are part of the secret too (`{ "sk-live-…": true }`).
        for (const key of Object.keys(value)) {
          addText(key, found)
          stack.push((value as Record<string, unknown>)[key])
        }
      }
    } catch {
      // A getter or Proxy trap threw: what it guards was never read, so it reaches no text.
    }
  }
}

/**
 * `text` with every occurrence of every secret replaced by `"[REDACTED]"`: occurrences that
 * overlap (one secret inside or across another) become one marker; an occurrence that lies inside
 * a marker already in the text is not one (a secret that is part of the marker, `REDA`, leaves it
 * whole), and one that overlaps a marker is merged with it (`[[RE` in `[[REDACTED]` gives one
 * marker, not `[REDACTED]DACTED]`). The text is scrubbed again while that changes it (a marker
 * written next to a `[` can complete a secret such as `[[RE`), up to 8 passes, after which the
 * whole text becomes one marker; so no secret is left between the markers, scrubbing the result
 * again changes nothing, and the time is linear in the text.
 */
export function scrubText(text: string, secrets: readonly string[]): string {
  let scrubbed = scrubOnce(text, secrets)
  if (scrubbed === text) return text
  for (let pass = 1; pass < MAX_SCRUB_PASSES; pass++) {
    const next = scrubOnce(scrubbed, secrets)
    if (next === scrubbed) return scrubbed
    scrubbed = next
  }
  // Still changing (a text built so that each marker completes another secret, `[[[[…[RE` for
  // `[[RE`, would take a pass per character): the whole text is one marker, at once.
  return REDACTED
}

/** Passes of {@link scrubText} before a text that keeps changing is replaced whole by one marker. */
const MAX_SCRUB_PASSES = 8

/** One pass of {@link scrubText} over the text as given; the text itself when nothing is found (the common case). */
function scrubOnce(text: string, secrets: readonly string[]): string {
  // Start and end of each occurrence, in pairs; none made when nothing is found (the common case).
  const state: Occurrences = { found: undefined, markers: undefined }
  for (const secret of secrets) {
    if (secret.length === 0) continue
    if (secret.length > NATIVE_SEARCH_MAX) {
      const stretches = stretchesOf(text, secret)
      for (let i = 0; i < stretches.length; i += 2) addOccurrence(state, text, stretches[i]!, stretches[i + 1]!)
      continue
    }
    // The secret's shortest period, worked out at its first occurrence (most texts have none).
    let period = 0
    for (let at = text.indexOf(secret); at !== -1; ) {
      period ||= shortestPeriod(secret)
      let to = at + secret.length
      // A secret with a period shorter than itself (`aaaa`, `abab`) occurs again at every period
      // for as long as the text repeats it: that run is one stretch of occurrences, found by
      // comparing characters, not by searching again at each position.
      if (period < secret.length) {
        let run = to
        while (run < text.length && text.charCodeAt(run) === text.charCodeAt(run - period)) run++
        // The last whole occurrence in the run ends a whole number of periods after the first.
        to += Math.floor((run - to) / period) * period
      }
      addOccurrence(state, text, at, to)
      // An occurrence starting before this stretch's end less the secret's length lies inside it.
      at = text.indexOf(secret, to - secret.length + 1)
    }
  }
  const found = state.found
  if (found === undefined) return text
  const order = Array.from({ length: found.length / 2 }, (_, i) => 2 * i).sort((a, b) => found[a]! - found[b]!)
  // Merge overlapping occurrences (touching ones stay two markers), writing the text between them.
  let out = ''
  let done = 0
  let start = found[order[0]!]!
  let end = found[order[0]! + 1]!
  for (let k = 1; k < order.length; k++) {
    const from = found[order[k]!]!
    const to = found[order[k]! + 1]!
    if (from < end) {
      if (to > end) end = to
      continue
    }
    out += text.slice(done, start) + REDACTED
    done = end
    start = from
    end = to
  }
  return out + text.slice(done, start) + REDACTED + text.slice(end)
}

/** The occurrences one pass has found (start and end in pairs) and the markers already in the text (their starts, ascending), both made when first needed. */
interface Occurrences {
  found: number[] | undefined
  markers: number[] | undefined
}

/** Records `text[at, to)`: skipped when it lies inside a marker, widened to cover a marker it overlaps. */
function addOccurrence(state: Occurrences, text: string, at: number, to: number): void {
  const markers = (state.markers ??= markerStarts(text))
  if (markers.length === 0) (state.found ??= []).push(at, to)
  else if (!insideMarker(markers, at, to)) (state.found ??= []).push(markerStartAround(markers, at), markerEndAround(markers, to))
}

/**
 * Longest secret searched with `String.prototype.indexOf`: it can take the secret's length per
 * position on a secret that repeats itself (`aaaa…`), so a longer one is searched by KMP, which is
 * linear in the text and the secret.
 */
const NATIVE_SEARCH_MAX = 256

/** The KMP failure function of `text`: for each prefix, the length of its longest proper border. */
function borders(text: string): Int32Array {
  const border = new Int32Array(text.length)
  for (let i = 1, k = 0; i < text.length; i++) {
    while (k > 0 && text.charCodeAt(i) !== text.charCodeAt(k)) k = border[k - 1]!
    if (text.charCodeAt(i) === text.charCodeAt(k)) k++
    border[i] = k
  }
  return border
}

/**
 * The stretches of overlapping occurrences of `secret` in `text`, start and end in pairs, in order
 * (occurrences that only touch are two stretches), by one KMP pass.
 */
function stretchesOf(text: string, secret: string): number[] {
  const border = borders(secret)
  const length = secret.length
  const stretches: number[] = []
  let end = -1
  for (let i = 0, k = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    while (k > 0 && code !== secret.charCodeAt(k)) k = border[k - 1]!
    if (code === secret.charCodeAt(k)) k++
    if (k < length) continue
    if (i - length + 1 < end) stretches[stretches.length - 1] = end = i + 1
    else stretches.push(i - length + 1, (end = i + 1))
    k = border[k - 1]!
  }
  return stretches
}

/** The shortest `p > 0` with `text[i] === text[i + p]` for every `i` (the length itself for a text that does not repeat), from the KMP failure function. */
function shortestPeriod(text: string): number {
  return text.length - borders(text)[text.length - 1]!
}

/** The start of every `"[REDACTED]"` marker in `text`, ascending (markers never overlap). */
function markerStarts(text: string): number[] {
  const starts: number[] = []
  for (let at = text.indexOf(REDACTED); at !== -1; at = text.indexOf(REDACTED, at + REDACTED.length)) starts.push(at)
  return starts
}

/** The start of the last marker starting at or before `at`, or -1: a binary search, so many occurrences after one marker cost no rescans. */
function lastMarkerAt(markers: readonly number[], at: number): number {
  let low = 0
  let high = markers.length - 1
  let last = -1
  while (low <= high) {
    const middle = (low + high) >>> 1
    if (markers[middle]! <= at) {
      last = markers[middle]!
      low = middle + 1
    } else high = middle - 1
  }
  return last
}

/**
 * Whether `[from, to)` lies inside a marker (a secret that is part of the marker's own letters,
 * `REDA`): the last marker starting at or before `from` is the only one that can hold it.
 */
function insideMarker(markers: readonly number[], from: number, to: number): boolean {
  const last = lastMarkerAt(markers, from)
  return last !== -1 && last + REDACTED.length >= to
}

/** `from`, or the start of the marker `from` falls inside of: an occurrence overlapping a marker's end covers the whole marker. */
function markerStartAround(markers: readonly number[], from: number): number {
  const last = lastMarkerAt(markers, from)
  return last !== -1 && last + REDACTED.length > from ? last : from
}

/** `to` (exclusive), or the end of the marker its last character falls inside of: an occurrence overlapping a marker's start covers the whole marker. */
function markerEndAround(markers: readonly number[], to: number): number {
  const last = lastMarkerAt(markers, to - 1)
  return last !== -1 && last + REDACTED.length > to ? last + REDACTED.length : to
}

/**
 * `text` scrubbed of every secret, then cut to `limit` UTF-16 code units with a trailing `…` when
 * it is longer: scrubbing first, so that no part of a secret that crossed the cut is left at its
 * end (see {@link cutScrubbed}).
 */
export function scrubbedCut(text: string, limit: number, secrets: readonly string[]): string {
  return cutScrubbed(scrubText(text, secrets), limit, secrets)
}

/**
 * Scrubbed text cut to `limit` UTF-16 code units with a trailing `…` when it is longer, and
 * scrubbed again when a secret ends in `…`: the ellipsis the cut adds could finish one.
 */
export function cutScrubbed(scrubbed: string, limit: number, secrets: readonly string[]): string {
  if (scrubbed.length <= limit) return scrubbed
  const cut = scrubbed.slice(0, limit) + ELLIPSIS
  return secrets.some((secret) => secret.includes(ELLIPSIS)) ? scrubText(cut, secrets) : cut
}

const ELLIPSIS = '…'

/** A deep copy of plain JSON with {@link scrubText} applied to every string value and key (a plain copy when there are no secrets). */
export function scrubJson(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return cloneJson(value)
  const scrubbed = cloneJson(value, (text) => scrubText(text, secrets))
  return scrubKeys(scrubbed, secrets)
}

function scrubKeys(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map((item) => scrubKeys(item, secrets))
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    Object.defineProperty(out, scrubText(key, secrets), { value: scrubKeys((value as Record<string, unknown>)[key], secrets), enumerable: true, writable: true, configurable: true })
  }
  return out
}
