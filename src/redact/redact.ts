import { canonicalJson, type JsonValue } from '../json/canonical.js'
import { toPointer } from '../json/pointer.js'
import { cloneJson } from '../json/clone.js'
import { forEachLocation, lookup, type Container } from './locations.js'
import { REDACTED, type SensitivePath } from './sensitive-paths.js'

/**
 * Sets `key`, an own writable data property of a copy this module made, as a plain data property
 * (a `__proto__` key stays a key: it is defined, since assigning it could reach the prototype's
 * setter).
 */
function put(target: Container, key: string | number, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  else (target as Record<string | number, unknown>)[key] = value
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
