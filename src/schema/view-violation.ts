/**
 * Why a compact schema is not (provably) a subset of its full schema. Each code names one rule of
 * the proof could not establish: every field of a compact result is in the full result at the same
 * path with the same value (`docs/views.md` "The subset proof").
 */
export const ViewViolationCodes = {
  /** A compact property (or a tagged union branch) has no counterpart in the full view at the same path. */
  missing_in_full: 'missing_in_full',
  /** The full view allows a JSON type the compact view does not (`number` where compact says `integer`, ...). */
  type_wider: 'type_wider',
  /** The full view allows `null` where the compact view does not. */
  nullable_wider: 'nullable_wider',
  /** Required in the compact view, optional in the full view. */
  required_optional_in_full: 'required_optional_in_full',
  /** The full view allows a value the compact `enum` does not list. */
  enum_wider: 'enum_wider',
  /** The full view allows a value other than the compact `const`. */
  const_mismatch: 'const_mismatch',
  /** A compact value keyword (`minLength`, `pattern`, `format`, `minimum`, `minItems`, `uniqueItems`, ...) is not implied by the full view's keywords. */
  constraint_not_implied: 'constraint_not_implied',
  /** A full array may hold elements (more, or at positions) the compact array does not allow. */
  items_wider: 'items_wider',
  /** A full object may hold a property the compact object's `additionalProperties: false` refuses (the containment proof behind `result-views/contracts` only: projection drops such keys). */
  properties_wider: 'properties_wider',
  /** A compact union has several object (or array) branches and no required literal tag to choose one. */
  union_not_discriminated: 'union_not_discriminated',
  /** The compact union's tag does not map one-to-one onto the full view's branches. */
  union_tag_ambiguous: 'union_tag_ambiguous',
  /** A full branch (or tag value) matches no compact union branch. */
  union_branch_unmatched: 'union_branch_unmatched',
  /** The compact schema uses a keyword (or a form of one) the proof cannot reason about soundly. */
  unsupported_keyword: 'unsupported_keyword',
  /** A `$ref` that does not resolve, or a cycle of `$ref`s through no property or item. */
  unresolved_ref: 'unresolved_ref',
} as const

/** One of {@link ViewViolationCodes}. */
export type ViewViolationCode = (typeof ViewViolationCodes)[keyof typeof ViewViolationCodes]

/** One reason a compact schema is rejected, located in both schemas. */
export interface ViewViolation {
/** Which rule the pair breaks (`ViewViolationCodes`). */
  readonly code: ViewViolationCode
  /** What fails, in a sentence. */
  readonly message: string
  /** JSON Pointer into the compact schema, e.g. `/properties/session/properties/id` (`""` is the root). */
  readonly compactPath: string
  /** JSON Pointer into the full schema at the matching position (where it would be, if missing). */
  readonly fullPath: string
}

/** The outcome of `proveViewSubset`. `violations` is never empty when `ok` is false. */
export type ViewProof = { readonly ok: true } | { readonly ok: false; readonly violations: ViewViolation[] }
