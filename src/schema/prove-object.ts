import { appendPointer } from '../json/pointer.js'
import type { ObjectShape } from './compact-shape.js'
import { containObject } from './contain-object.js'
import { proveProperty } from './prove-property.js'
import { fullPattern, type FullBranch } from './full-facts.js'
import type { ProofContext } from './proof-context.js'

/**
 * Object part of the proof. Projection copies the declared properties only (and keys matching
 * the one compact pattern), so undeclared keys never matter and an open compact object is as
 * good as a closed one. For each declared property: it must exist in the full branch at the same
 * path, be required there if required in compact, and its full schema must project into the
 * compact one. A compact pattern needs the very same pattern in the full branch, whose schema
 * then covers every full key it matches (full `patternProperties` apply to declared keys too).
 */
export function proveObject(ctx: ProofContext, object: ObjectShape, branch: FullBranch): void {
  if (ctx.containment !== undefined) return containObject(ctx, object, branch, ctx.containment)
  for (const property of object.properties) proveProperty(ctx, property, branch, true)
  const pattern = object.pattern
  if (pattern !== undefined) {
    const locs = fullPattern(ctx.full, branch, pattern.source)
    if (locs.length === 0) {
      ctx.report('missing_in_full', pattern.pointer, appendPointer(branch.pointer, 'patternProperties', pattern.source),
        `the full view has no "patternProperties" entry ${JSON.stringify(pattern.source)}, so keys the compact pattern copies are not proven`)
    } else {
      ctx.prove(pattern.shape, locs, locs[0]!.pointer)
    }
  }
}
