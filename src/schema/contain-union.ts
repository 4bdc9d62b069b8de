import type { UnionShape, ValueShape } from './compact-shape.js'
import { fullProperty, type FullBranch } from './full-facts.js'
import type { ProofContext } from './proof-context.js'
import { describeTypes, OBJECT } from './type-mask.js'

/**
 * The full branch's objects (or arrays, by `atom`) against a compact union, in the containment
 * proof: no value is projected, so it suffices that one compact branch accepts every such value
 * of the full branch (a union accepts what any branch accepts). The branch a required literal tag
 * selects is proven alone (its violations are real: no other branch accepts that tag); otherwise
 * each branch of that JSON type is tried in turn, and when none holds alone the union is reported
 * as undecided (`union_tag_ambiguous`), since values may still spread over several branches.
 * Where several branches share the value's JSON type, closed objects are read as written (see
 * `ProofContext.discriminating`): a reader of such a union cannot ignore keys it does not know.
 */
export function containMembers(ctx: ProofContext, union: UnionShape, branch: FullBranch, atom: number): void {
  const candidates = union.branches.filter((b) => (b.types & atom) !== 0)
  if (candidates.length === 0) {
    let types = 0
    for (const b of union.branches) types |= b.types
    ctx.report('type_wider', union.pointer, branch.pointer,
      `the full view allows ${atom === OBJECT ? 'objects' : 'arrays'}; the compact union allows ${describeTypes(types)}`)
    return
  }
  const tagged = atom === OBJECT ? taggedBranch(ctx, union, branch) : undefined
  if (tagged === 'unmatched') return
  if (candidates.length === 1) {
    ctx.proveValue(candidates[0]!, branch, atom)
    return
  }
  // Several branches of this type: a closed object may be what keeps a value out of one of them.
  if (tagged !== undefined) {
    ctx.discriminating(() => ctx.proveValue(tagged, branch, atom))
    return
  }
  for (const candidate of candidates) {
    if (ctx.attempt(() => ctx.discriminating(() => ctx.proveValue(candidate, branch, atom)))) return
  }
  // The branches together may still accept every value (one branch each): undecided, not a difference.
  ctx.report('union_tag_ambiguous', union.pointer, branch.pointer,
    `no single branch of the compact union accepts every ${atom === OBJECT ? 'object' : 'array'} the full view allows here (the proof tries one branch at a time)`)
}

/**
 * The compact branch the full branch's tag selects: when the compact union is tagged and the full
 * branch requires the tag with literal values that all select one compact branch. `'unmatched'`
 * (reported) when a full tag value selects no compact branch; `undefined` when the tag does not
 * decide (the caller then tries every branch).
 */
function taggedBranch(ctx: ProofContext, union: UnionShape, branch: FullBranch): ValueShape | 'unmatched' | undefined {
  const objects = union.objects
  if (objects.mode !== 'tag') return undefined
  const tag = fullProperty(ctx.full, branch, objects.key)
  if (!tag.declared || !branch.required.has(objects.key)) return undefined
  const selected = new Set<ValueShape>()
  for (const tagBranch of ctx.branches(tag.locs, tag.pointer, union.pointer)) {
    if (tagBranch.values === undefined) return undefined
    for (const value of tagBranch.values) {
      const compact = objects.byTag.get(value)
      if (compact === undefined) {
        ctx.report('union_branch_unmatched', union.pointer, tag.pointer,
          `the full view allows "${objects.key}" = ${JSON.stringify(value)}, which selects no branch of the compact union`)
        return 'unmatched'
      }
      selected.add(compact)
    }
  }
  if (selected.size !== 1) return undefined
  const [only] = selected
  return only
}
