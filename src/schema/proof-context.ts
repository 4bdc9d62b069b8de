import type { CompactShape, ValueShape } from './compact-shape.js'
import type { FullBranch } from './full-facts.js'
import type { SchemaDocument, SchemaLoc } from './schema-document.js'
import type { ViewViolationCode } from './view-violation.js'

/**
 * How the containment proof reads the compact side (see `containment.ts`): every value the full
 * schema accepts must be accepted by the compact schema itself, with no projection in between.
 */
export interface ContainmentMode {
  /** Also require every property the compact side declares to be declared on the full side (`missing_in_full`), as the view proof does. */
  readonly declaredInFull: boolean
  /** Read a compact `additionalProperties: false` as absent: the compact side's readers ignore keys they do not know. */
  readonly ignoreClosed: boolean
}

/** What the parts of the view proof (objects, arrays, unions) share while checking one pair. */
export interface ProofContext {
  /** The full schema document (`$ref`s of the full side resolve here). */
  readonly full: SchemaDocument
  /** `undefined` for the view proof (the full value is projected by the compact schema); the mode of the containment proof otherwise. */
  readonly containment: ContainmentMode | undefined
  /** Records a violation (duplicates are merged). */
  report(code: ViewViolationCode, compactPath: string, fullPath: string, message: string): void
  /**
   * Proves that every value the conjunction of `locs` allows projects into `shape`.
   * `fullPointer` names the position when `locs` is empty (unconstrained).
   */
  prove(shape: CompactShape, locs: readonly SchemaLoc[], fullPointer: string): void
  /** The branches of the conjunction of `locs` (full-side `$ref` problems are reported against `compactPath`). */
  branches(locs: readonly SchemaLoc[], fullPointer: string, compactPath: string): FullBranch[]
  /** Proves the part of `branch` whose JSON type is in `atoms` against a non-union compact shape. */
  proveValue(shape: ValueShape, branch: FullBranch, atoms: number): void
  /**
   * Runs `check` as a branch of a union that has more than one branch of the value's JSON type:
   * there a closed object may be what tells the branches apart (ajv picks the branch that accepts
   * the value), so the containment proof reads every `additionalProperties: false` below as
   * written, whatever `ignoreClosed` says.
   */
  discriminating(check: () => void): void
  /** Runs `check` without recording its violations; true if it found none. */
  attempt(check: () => void): boolean
}
