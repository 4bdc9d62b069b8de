import { canonicalJson, type JsonValue } from '../json/canonical.js'
import { toPointer } from '../json/pointer.js'
import { cloneJson } from '../json/clone.js'
import { REDACTED, type SensitivePath } from './sensitive-paths.js'

/** Shortest secret scrubbed from free text (messages, previews); shorter ones are redacted only by path. */
export const MIN_SCRUBBED_SECRET_LENGTH = 4

type Container = Record<string, unknown> | unknown[]

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null
const own = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key)

/** Defines `key` as a plain data property (a `__proto__` key stays a key). */
function put(target: Container, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

/**
 * Calls `visit(container, key, tokens)` for every location of `path` that exists in `root`: the
 * last step's property (or, for `name[]`, each element of that array). `tokens` are the location's
 * JSON Pointer tokens from the root.
 */
function forEachLocation(
  root: unknown,
  path: SensitivePath,
  visit: (container: Container, key: string | number, tokens: ReadonlyArray<string | number>) => void,
): void {
  const walk = (node: unknown, index: number, tokens: Array<string | number>): void => {
    const step = path[index]
    if (step === undefined || !isContainer(node) || Array.isArray(node) || !own(node, step.key)) return
    const last = index === path.length - 1
    const at = [...tokens, step.key]
    const child = node[step.key]
    if (!step.each || !Array.isArray(child)) {
      if (last) visit(node, step.key, at)
      else if (!step.each) walk(child, index + 1, at)
      return
    }
    child.forEach((item, i) => (last ? visit(child, i, [...at, i]) : walk(item, index + 1, [...at, i])))
  }
  walk(root, 0, [])
}

/** The value at JSON Pointer tokens, if every step exists as an own property. */
function lookup(root: unknown, tokens: ReadonlyArray<string | number>): { found: boolean; value?: unknown } {
  let node = root
  for (const token of tokens) {
    if (!isContainer(node) || !own(node, String(token))) return { found: false }
    node = (node as Record<string, unknown>)[token as string]
  }
  return { found: true, value: node }
}

/**
 * A deep copy of a plain JSON input with the value at every sensitive path replaced by
 * `"[REDACTED]"` (`docs/hooks.md` "Sensitive input fields"). Paths that are absent stay absent; the
 * input itself is never changed.
 */
export function redactInput(input: unknown, paths: readonly SensitivePath[]): unknown {
  const copy = cloneJson(input)
  for (const path of paths) forEachLocation(copy, path, (container, key) => put(container, key, REDACTED))
  return copy
}

/**
 * The secret texts under the sensitive paths of an input: every string and number leaf and every
 * object key at or below each location, at least {@link MIN_SCRUBBED_SECRET_LENGTH} long, longest
 * first.
 */
export function collectSecrets(input: unknown, paths: readonly SensitivePath[]): string[] {
  if (paths.length === 0) return []
  const secrets = new Set<string>()
  const leaves = (value: unknown): void => {
    if (typeof value === 'string' || typeof value === 'number') {
      const text = String(value)
      if (text.length >= MIN_SCRUBBED_SECRET_LENGTH) secrets.add(text)
    } else if (isContainer(value)) {
      // Keys inside a sensitive object are part of the secret too (`{ "sk-live-…": true }`).
      if (!Array.isArray(value)) for (const key of Object.keys(value)) if (key.length >= MIN_SCRUBBED_SECRET_LENGTH) secrets.add(key)
      for (const child of Object.values(value)) leaves(child)
    }
  }
  for (const path of paths) forEachLocation(input, path, (container, key) => leaves((container as Record<string, unknown>)[key]))
  return [...secrets].sort((a, b) => b.length - a.length)
}

/** `text` with every occurrence of every secret replaced by `"[REDACTED]"`. */
export function scrubText(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED)
  return out
}

/** A deep copy of plain JSON with {@link scrubText} applied to every string value and key (a plain copy when there are no secrets). */
export function scrubJson(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return cloneJson(value)
  const scrubbed = cloneJson(value, (text) => scrubText(text, secrets))
  return scrubKeys(scrubbed, secrets)
}

function scrubKeys(value: unknown, secrets: readonly string[]): unknown {
  if (!isContainer(value)) return value
  if (Array.isArray(value)) return value.map((item) => scrubKeys(item, secrets))
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) put(out, scrubText(key, secrets), scrubKeys(value[key], secrets))
  return out
}

/**
 * Puts the real values back where a pre-call hook returned the redacted marker for a sensitive
 * field (a patch that sends back `"[REDACTED]"` does not overwrite the real value). A
 * marker takes the original value at the same JSON Pointer, and only where that is unambiguous:
 *
 * - the original had a value there (a marker never stands for a value the call did not have);
 * - inside arrays (`items[].token`), the patched item equals the original item apart from its
 *   redacted fields, so reordering, dropping or editing items never hands one item's secret to
 *   another.
 *
 * `patched` is a fresh copy owned by the caller and is changed in place only when every marker
 * qualifies.
 *
 * @returns `undefined` on success, or the problem (naming the JSON Pointer) when a marker cannot
 *   be resolved; nothing is changed then.
 */
export function restoreRedacted(patched: unknown, original: unknown, paths: readonly SensitivePath[]): string | undefined {
  let redactedOriginal: unknown
  const restores: Array<() => void> = []
  for (const path of paths) {
    let problem: string | undefined
    forEachLocation(patched, path, (container, key, tokens) => {
      if (problem !== undefined || (container as Record<string | number, unknown>)[key] !== REDACTED) return
      const real = lookup(original, tokens)
      if (!real.found) {
        problem = `the redacted marker at "${toPointer(tokens)}" stands for no value this call had`
        return
      }
      redactedOriginal ??= redactInput(original, paths)
      for (let k = 0; k < tokens.length; k++) {
        if (typeof tokens[k] !== 'number') continue
        const prefix = tokens.slice(0, k + 1)
        if (!sameJson(lookup(patched, prefix), lookup(redactedOriginal, prefix))) {
          problem = `the item at "${toPointer(prefix)}" holds a redacted value but was moved or changed; send it back unchanged or give it a new value`
          return
        }
      }
      restores.push(() => put(container, key, real.value))
    })
    if (problem !== undefined) return problem
  }
  for (const restore of restores) restore()
  return undefined
}

function sameJson(a: { found: boolean; value?: unknown }, b: { found: boolean; value?: unknown }): boolean {
  return a.found && b.found && canonicalJson(a.value as JsonValue) === canonicalJson(b.value as JsonValue)
}
