import type { PropertyShape } from './compact-shape.js'
import { fullProperty, type FullBranch } from './full-facts.js'
import type { ProofContext } from './proof-context.js'

/**
 * One declared compact property against a full branch: declared there (when `mustBeDeclared`;
 * otherwise an undeclared key is proven against what the full branch says of any key), required
 * there if required in compact, and its full schemas proven against the compact one.
 */
export function proveProperty(ctx: ProofContext, property: PropertyShape, branch: FullBranch, mustBeDeclared: boolean): void {
  const full = fullProperty(ctx.full, branch, property.key)
  if (!full.declared && mustBeDeclared) {
    ctx.report('missing_in_full', property.pointer, full.pointer, `property "${property.key}" is in the compact view but not in the full view`)
    return
  }
  if (property.required && !branch.required.has(property.key)) {
    ctx.report('required_optional_in_full', property.pointer, full.pointer,
      `property "${property.key}" is required in the compact view but optional in the full view`)
  }
  ctx.prove(property.shape, full.locs, full.pointer)
}
