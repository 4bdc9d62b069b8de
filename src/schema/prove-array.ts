import { copiesArrayWhole, type ArrayShape, type CompactShape } from './compact-shape.js'
import { fullElement, fullPrefixLength, type FullBranch } from './full-facts.js'
import type { ProofContext } from './proof-context.js'

/**
 * Array part of the proof: position by position over both tuple prefixes, then once for the
 * rest (past both prefixes every position has the same schemas). `minItems`/`maxItems` must be
 * implied by the full bounds. `uniqueItems` needs the full view to assert it and a projection
 * that keeps distinct elements distinct, i.e. elements copied whole (the containment proof
 * projects nothing, so there the full assertion suffices).
 */
export function proveArray(ctx: ProofContext, array: ArrayShape, branch: FullBranch): void {
  const positions = Math.max(array.prefix.length, fullPrefixLength(branch))
  for (let index = 0; index <= positions; index++) {
    const full = fullElement(ctx.full, branch, index)
    if (full === undefined) break
    const element = index < array.prefix.length ? array.prefix[index] : array.rest
    if (element === undefined) {
      ctx.report('items_wider', array.pointer, branch.pointer,
        `the full view allows an element at index ${index}; the compact view allows at most ${array.prefix.length}`)
      break
    }
    ctx.prove(element.shape, full.locs, full.pointer)
  }
  if (array.minItems !== undefined && array.minItems > branch.minItems) {
    ctx.report('constraint_not_implied', array.pointer, branch.pointer,
      `the compact "minItems" ${array.minItems} is not implied (the full view guarantees ${branch.minItems})`)
  }
  if (array.maxItems !== undefined && (branch.maxItems === undefined || branch.maxItems > array.maxItems)) {
    ctx.report('constraint_not_implied', array.pointer, branch.pointer,
      `the compact "maxItems" ${array.maxItems} is not implied (the full view guarantees ${branch.maxItems ?? 'no maximum'})`)
  }
  if (array.uniqueItems) {
    if (!branch.uniqueItems) {
      ctx.report('constraint_not_implied', array.pointer, branch.pointer, 'the compact "uniqueItems" is not implied: the full view does not assert it')
    } else if (ctx.containment === undefined && (!array.prefix.every((e) => copiesWhole(e.shape)) || (array.rest !== undefined && !copiesWhole(array.rest.shape)))) {
      // Containment compares the elements themselves: distinct full elements stay distinct.
      ctx.report('constraint_not_implied', array.pointer, branch.pointer,
        'the compact "uniqueItems" is not implied: projecting the elements can make distinct elements equal')
    }
  }
}

/** True if projection copies every value of this shape unchanged (so it keeps values distinct). */
function copiesWhole(shape: CompactShape): boolean {
  if (shape.kind === 'any' || shape.kind === 'never') return true
  if (shape.kind === 'union') return shape.branches.every((b) => b.object === 'opaque' && copiesArrayWhole(b.array))
  return shape.object === 'opaque' && copiesArrayWhole(shape.array)
}
