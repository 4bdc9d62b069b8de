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
 * `"[REDACTED]"` (spec 001 "Sensitive input fields"). Paths that are absent stay absent; the
 * input itself is never changed.
 */
export function redactInput(input: unknown, paths: readonly SensitivePath[]): unknown {
  const copy = cloneJson(input)
  for (const path of paths) forEachLocation(copy, path, (container, key) => put(container, key, REDACTED))
  return copy
}

/**
 * The secret texts under the sensitive paths of an input: every string and number leaf at or
 * below each location, at least {@link MIN_SCRUBBED_SECRET_LENGTH} long, longest first.
 */
export function collectSecrets(input: unknown, paths: readonly SensitivePath[]): string[] {
  if (paths.length === 0) return []
  const secrets = new Set<string>()
  const leaves = (value: unknown): void => {
    if (typeof value === 'string' || typeof value === 'number') {
      const text = String(value)
      if (text.length >= MIN_SCRUBBED_SECRET_LENGTH) secrets.add(text)
    } else if (isContainer(value)) {
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

/** A deep copy of plain JSON with {@link scrubText} applied to every string value and key. */
export function scrubJson(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return value
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
 * field (issue 4: a patch that sends back `"[REDACTED]"` does not overwrite the real value): each
 * marker at a sensitive location takes the original value at the same JSON Pointer, if the
 * original had one. `patched` is a fresh copy owned by the caller and is changed in place.
 */
export function restoreRedacted(patched: unknown, original: unknown, paths: readonly SensitivePath[]): unknown {
  for (const path of paths) {
    forEachLocation(patched, path, (container, key, tokens) => {
      if ((container as Record<string | number, unknown>)[key] !== REDACTED) return
      const real = lookup(original, tokens)
      if (real.found) put(container, key, real.value)
    })
  }
  return patched
}
