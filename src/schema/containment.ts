import type { ContainmentMode } from './proof-context.js'
import { runProof } from './subset.js'
import type { ViewProof } from './view-violation.js'

export type { ContainmentMode } from './proof-context.js'

/**
 * Proves that every value `inner` accepts is accepted by `outer` (`inner` ⊆ `outer`), with the
 * view proof's machinery read without projection: `outer` plays the compact side and `inner` the
 * full side, but no value is projected, so `outer`'s closed objects, its `additionalProperties`
 * schemas and its unions apply to each value as ajv applies them. `mode` picks how `outer`'s
 * objects are read:
 * - `{ declaredInFull: false, ignoreClosed: false }`: plain containment (inputs: every input the
 *   old schema accepted is still accepted);
 * - `{ declaredInFull: true, ignoreClosed: true }`: containment as a reader of `outer` sees it
 *   (outputs: a reader ignores keys `outer` does not know, so its `additionalProperties: false` is
 *   read as absent, and every property it declares must still be declared by `inner`).
 *
 * Sound in the direction that says yes, like the view proof: `{ ok: true }` means every value
 * ajv accepts under `inner` is accepted under `outer` (relaxed as `mode` says); a violation means
 * the proof could not show it (its code and both JSON Pointers say where and why). The view
 * proof's limits apply: `outer` may use only the keywords a compact view may
 * (`unsupported_keyword` otherwise), and `inner`'s keywords the proof does not read only widen it.
 *
 * @throws TypeError when a schema is not a JSON Schema or is nested deeper than the call stack allows.
 */
export function proveContainment(outer: unknown, inner: unknown, mode: ContainmentMode): ViewProof {
  return runProof('proveContainment', outer, inner, mode)
}
