import type { UnionDispatch, UnionShape, ValueShape } from './compact-shape.js'
import { containMembers } from './contain-union.js'
import { fullProperty, type FullBranch } from './full-facts.js'
import type { ProofContext } from './proof-context.js'
import { ARRAY, atomOf, BOOLEAN, describeTypes, FRACTION, INTEGER, NULL, OBJECT, SCALAR_TYPES, STRING } from './type-mask.js'
import { scalarAtomsMisfit, scalarMisfit, type Misfit } from './value-rules.js'

/**
 * Proof against a compact union (`anyOf`/`oneOf`, nullable unions included). Scalars are copied
 * as they are, so each full scalar value (or each scalar type of a full branch) needs one compact
 * branch that accepts it. Objects and arrays are projected by one branch, chosen the way the
 * projector chooses it: the only branch of that JSON type, or, for objects, the branch whose
 * required literal tag the full branch carries. The tag must map one-to-one: each full branch
 * carries tags of exactly one compact branch, no two full branches carry the same tag, and every
 * compact tag is carried by some full branch. The containment proof decides objects and arrays
 * in `contain-union.ts` instead, since it projects nothing.
 */
export function proveUnion(ctx: ProofContext, union: UnionShape, branches: readonly FullBranch[]): void {
  const carriers = new Map<unknown, string>()
  for (const branch of branches) {
    proveScalars(ctx, union, branch)
    if (branch.types & OBJECT) proveObjects(ctx, union, branch, carriers)
    if (branch.types & ARRAY) proveArrays(ctx, union, branch)
  }
  const objects = union.objects
  // Containment needs no full counterpart of each compact branch: a union may accept more.
  if (objects.mode === 'tag' && carriers.size > 0 && ctx.containment === undefined) {
    for (const [tag, branch] of objects.byTag) {
      if (!carriers.has(tag)) {
        ctx.report('missing_in_full', branch.pointer, branches[0]?.pointer ?? '',
          `no full branch carries the tag "${objects.key}" = ${JSON.stringify(tag)} of this compact branch (the tag must map one-to-one)`)
      }
    }
  }
}

function unionTypes(union: UnionShape): number {
  let types = 0
  for (const branch of union.branches) types |= branch.types
  return types
}

/** The misfit to report when no branch accepts a value or type: from a branch of the right type if any. */
function reportNoBranch(ctx: ProofContext, union: UnionShape, branch: FullBranch, atom: number, misfits: ReadonlyArray<Misfit | undefined>, what: string): void {
  const typed = union.branches.filter((b) => (b.types & atom) !== 0)
  if (typed.length > 1 && typed.every((b) => b.values !== undefined)) {
    // A union of literals (TypeBox `Union([Literal, ...])`) reads as one enum.
    const listed = typed.flatMap((b) => b.values!).map((v) => JSON.stringify(v)).join(', ')
    ctx.report('enum_wider', union.pointer, branch.pointer, `the full view allows ${what}; the compact union allows only ${listed}`)
    return
  }
  const index = union.branches.findIndex((b, i) => (b.types & atom) !== 0 && misfits[i] !== undefined)
  if (index !== -1) {
    const misfit = misfits[index]!
    ctx.report(misfit.code, union.branches[index]!.pointer, branch.pointer, misfit.message)
    return
  }
  const integral = atom === FRACTION ? union.branches.find((b) => (b.types & INTEGER) !== 0) : undefined
  if (integral !== undefined) {
    ctx.report('type_wider', integral.pointer, branch.pointer, 'the full view allows any number; this branch of the compact union requires an integer')
    return
  }
  if (atom === NULL) {
    ctx.report('nullable_wider', union.pointer, branch.pointer, `the full view allows null; no branch of the compact union does`)
    return
  }
  ctx.report('type_wider', union.pointer, branch.pointer, `the full view allows ${what}; the compact union allows ${describeTypes(unionTypes(union))}`)
}

const SCALAR_ATOMS: readonly number[] = [STRING, INTEGER, FRACTION]

function proveScalars(ctx: ProofContext, union: UnionShape, branch: FullBranch): void {
  const literals: unknown[] = []
  const atoms: number[] = []
  if (branch.values !== undefined) {
    for (const value of branch.values) if (atomOf(value) & SCALAR_TYPES) literals.push(value)
  } else {
    if (branch.types & NULL) literals.push(null)
    if (branch.types & BOOLEAN) literals.push(true, false)
    for (const atom of SCALAR_ATOMS) if (branch.types & atom) atoms.push(atom)
  }
  for (const value of literals) {
    // Most values fit the branch of their type: look for it before collecting every misfit.
    if (union.branches.some((b) => (atomOf(value) & b.types) !== 0 && scalarMisfit(b, value, branch) === undefined)) continue
    const misfits = union.branches.map((b) => scalarMisfit(b, value, branch))
    reportNoBranch(ctx, union, branch, atomOf(value), misfits, JSON.stringify(value))
  }
  for (const atom of atoms) {
    if (union.branches.some((b) => (b.types & atom) !== 0 && scalarAtomsMisfit(b, branch, atom) === undefined)) continue
    const misfits = union.branches.map((b) => ((b.types & atom) === 0 ? typeGap(b, atom) : scalarAtomsMisfit(b, branch, atom)))
    reportNoBranch(ctx, union, branch, atom, misfits, `any ${describeTypes(atom)}`)
  }
}

function typeGap(shape: ValueShape, atom: number): Misfit {
  return { code: 'type_wider', message: `the full view allows ${describeTypes(atom)}; this branch allows ${describeTypes(shape.types)}` }
}

/** For a union whose candidates copy whole: one candidate must accept every full value of that type. */
function proveCopy(ctx: ProofContext, union: UnionShape, branch: FullBranch, atom: number): void {
  const candidates = union.branches.filter((b) => (b.types & atom) !== 0)
  for (const candidate of candidates) {
    if (ctx.attempt(() => ctx.proveValue(candidate, branch, atom))) return
  }
  ctx.proveValue(candidates[0]!, branch, atom)
}

function proveObjects(ctx: ProofContext, union: UnionShape, branch: FullBranch, carriers: Map<unknown, string>): void {
  if (ctx.containment !== undefined) return containMembers(ctx, union, branch, OBJECT)
  const objects = union.objects
  if (objects.mode !== 'tag') return proveUntagged(ctx, union, branch, objects, OBJECT)
  const { key, byTag } = objects
  const tag = fullProperty(ctx.full, branch, key)
  if (!tag.declared || !branch.required.has(key)) {
    ctx.report('union_tag_ambiguous', union.pointer, tag.pointer,
      `the full branch does not require the tag "${key}", so projection could not choose a compact branch`)
    return
  }
  const values: unknown[] = []
  for (const tagBranch of ctx.branches(tag.locs, tag.pointer, union.pointer)) {
    if (tagBranch.values === undefined) {
      ctx.report('union_tag_ambiguous', union.pointer, tag.pointer, `the full view's tag "${key}" is not a literal, so projection could not choose a compact branch`)
      return
    }
    values.push(...tagBranch.values)
  }
  const matched = new Set<ValueShape>()
  for (const value of values) {
    const compact = byTag.get(value)
    if (compact === undefined) {
      ctx.report('union_branch_unmatched', union.pointer, tag.pointer,
        `the full view allows "${key}" = ${JSON.stringify(value)}, which selects no branch of the compact union`)
    } else matched.add(compact)
  }
  if (matched.size > 1) {
    ctx.report('union_tag_ambiguous', union.pointer, tag.pointer,
      `one full branch allows "${key}" values of ${matched.size} different compact branches; split it so each full branch maps to one`)
    return
  }
  const source = tag.declaredBy ?? branch.pointer
  for (const value of values) {
    const earlier = carriers.get(value)
    if (earlier !== undefined && earlier !== source) {
      ctx.report('union_tag_ambiguous', union.pointer, tag.pointer,
        `"${key}" = ${JSON.stringify(value)} is carried by two full branches (${earlier} and ${source}); the tag must map one-to-one`)
    }
    carriers.set(value, source)
  }
  const [compact] = matched
  if (compact !== undefined) ctx.proveValue(compact, branch, OBJECT)
}

function proveArrays(ctx: ProofContext, union: UnionShape, branch: FullBranch): void {
  if (ctx.containment !== undefined) containMembers(ctx, union, branch, ARRAY)
  else if (union.arrays.mode !== 'tag') proveUntagged(ctx, union, branch, union.arrays, ARRAY)
}

/**
 * The full branch's objects (or arrays, by `atom`) against a compact union that projects them
 * without a tag: no branch of that type (`type_wider`), the only branch, or a whole copy. An
 * ambiguous union was already reported when the compact schema was read.
 */
function proveUntagged(ctx: ProofContext, union: UnionShape, branch: FullBranch, dispatch: Exclude<UnionDispatch, { mode: 'tag' }>, atom: number): void {
  switch (dispatch.mode) {
    case 'none':
      ctx.report('type_wider', union.pointer, branch.pointer,
        `the full view allows ${atom === OBJECT ? 'objects' : 'arrays'}; the compact union allows ${describeTypes(unionTypes(union))}`)
      return
    case 'single':
      ctx.proveValue(dispatch.branch, branch, atom)
      return
    case 'copy':
      proveCopy(ctx, union, branch, atom)
      return
    case 'ambiguous':
      return
  }
}
