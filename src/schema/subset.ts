import type { TSchema } from 'typebox'
import { ownJsonCopy } from '../json/own-copy.js'
import { isJsonValueError } from '../json/json-value-error.js'
import type { JsonSchema } from './json-schema.js'
import { copiedWholeCleanly, readCompactSchema, shapeIssues, type CompactShape, type ShapeIssue, type ValueShape } from './compact-shape.js'
import { expandFull, type FullBranch, type FullIssue } from './full-facts.js'
import { includesJson } from './json-equal.js'
import type { ContainmentMode, ProofContext } from './proof-context.js'
import { proveArray } from './prove-array.js'
import { proveObject } from './prove-object.js'
import { proveUnion } from './prove-union.js'
import { schemaArgumentInvalid } from './schema-argument-error.js'
import { SchemaDocument, type SchemaLoc } from './schema-document.js'
import { ALL_TYPES, ARRAY, atomOf, BOOLEAN, describeTypes, FRACTION, INTEGER, NULL, OBJECT, SCALAR_TYPES, STRING } from './type-mask.js'
import { scalarAtomsMisfit, scalarMisfit, typeMisfits } from './value-rules.js'
import type { ViewProof, ViewViolation, ViewViolationCode } from './view-violation.js'

export { ViewViolationCodes } from './view-violation.js'
export type { ViewProof, ViewViolation, ViewViolationCode } from './view-violation.js'

/**
 * Proves that a compact view schema is a subset of its full view schema (`docs/views.md` "The
 * subset proof": every field of a compact result is in the full result at the same path with the
 * same value).
 *
 * The proof is **sound**: `{ ok: true }` means that for every value valid under `full`, the
 * projection `compileProjector(compact)` makes of it is valid under `compact`, and every compact
 * property exists in `full` at the same path (so it carries the full value). It is incomplete:
 * when it cannot establish that, it rejects with a reason rather than guess. Rules, position by
 * position:
 * - types: every JSON type full allows, compact allows (`integer` ⊂ `number`; `null` counts);
 * - `enum`/`const`: every value full allows is listed by compact;
 * - value keywords (`minLength`, `pattern`, `format`, `minimum`, `multipleOf`, ...): implied by
 *   the full keywords (or checked on each full literal);
 * - objects: each compact property is declared in full, required in full if required in compact,
 *   and proven recursively; undeclared keys are dropped by projection, so an open compact object
 *   (`additionalProperties` not `false`) is accepted;
 * - arrays: full elements project into compact elements position by position; `minItems`,
 *   `maxItems` implied; `uniqueItems` only where projection copies elements whole;
 * - unions: each full branch (or full scalar) fits a compact branch; object branches of a compact
 *   union need a required literal tag that maps one-to-one onto the full branches;
 * - `$ref`/`$defs` (`#/$defs/Name`, and `Name` as TypeBox `Cyclic` emits): resolved; recursion is
 *   proven coinductively (a pair of positions is assumed to hold while it is being proven).
 * Compact keywords outside this list (`allOf`, `not`, `if`, `prefixItems`, `minProperties`,
 * `$ref` beside other keywords, more than one `patternProperties` entry, ...) give
 * `unsupported_keyword`; `x-` extensions and annotations are ignored. Full keywords the proof
 * does not use (`not`, `if`, `$ref` siblings, ...) are ignored, which only widens the full side,
 * and full `allOf` members are read together. Validity is ajv's (draft-07, as the dispatcher
 * validates): `nullable: true` adds `null`, `multipleOf` uses ajv's float check, and lengths
 * count code points.
 *
 * @param compact - the compact view schema (plain JSON, or a TypeBox schema).
 * @param full - the full view schema.
 * @returns `{ ok: true }`, or `{ ok: false, violations }` with every violation found (duplicates
 *   merged), each with a code (see `ViewViolationCodes`) and JSON Pointers into both schemas.
 *   Never throws for plain JSON schemas (no cycles of JavaScript objects).
 * @throws UsageError (`code: 'schema_argument_invalid'`, a `TypeError`) when `compact` or `full` is
 *   not a schema (a plain object or a boolean, problem `not_a_schema`), is not plain JSON (a hole
 *   in an array, a Date, a getter that throws, a cycle of JavaScript objects, nesting past 5,000
 *   levels: `schema_not_json`, at the pointer into that schema, as `compileProjector` says), or is
 *   nested deeper than the call stack allows (`too_deep`; `defineTool` refuses those before proving).
 */
export function proveViewSubset(compact: JsonSchema | TSchema, full: JsonSchema | TSchema): ViewProof {
  return runProof('proveViewSubset', compact, full, undefined)
}

/**
 * {@link proveViewSubset} of two schemas already known to be plain JSON (a tool's own frozen
 * copies, checked as they were made): the proof without walking them once more to check them.
 */
export function proveCopiedViewSubset(compact: JsonSchema, full: JsonSchema): ViewProof {
  return runProof('proveViewSubset', compact, full, undefined, true)
}

/**
 * The proof behind {@link proveViewSubset} (`containment` undefined) and the containment proof
 * (`containment.ts`): one prover, two readings of the compact side. `caller` names the public
 * function in the TypeError messages.
 */
export function runProof(caller: string, compact: unknown, full: unknown, containment: ContainmentMode | undefined, copied = false): ViewProof {
  if (!isSchema(compact) || !isSchema(full)) {
    const problem = 'both arguments must be JSON Schemas (a plain object or a boolean)'
    throw schemaArgumentInvalid(`${caller}: ${problem}`, { path: '', code: 'not_a_schema', message: problem })
  }
  // Checked first, so that nothing below walks a sparse array index by index (a `required` of
  // 2 ** 32 - 1 holes fails at its first hole) or reads a getter. A copy made by
  // `frozenJsonCopy` was checked as it was made.
  if (!copied) {
    // Proven on checked copies, each read once: a getter or Proxy trap that would answer (or
    // throw) differently on a later read has nothing left to read.
    compact = schemaCopy(caller, compact, containment === undefined ? 'compact' : 'outer')
    full = schemaCopy(caller, full, containment === undefined ? 'full' : 'inner')
  }
  const prover = new Prover(full as JsonSchema, containment)
  try {
    const shape = readCompactSchema(compact, containment === undefined ? 'view' : 'containment').root
    prover.prove(shape, [prover.full.root], '')
    // A problem of the compact schema where the full view never leads (an empty full array, a
    // branch no full value reaches) is still a problem: the projector refuses such a schema.
    // Containment needs no projector: a position no full value reaches constrains nothing.
    if (containment === undefined) prover.reportUnseen(shapeIssues(shape))
    prover.reportExhausted()
  } catch (error) {
    if (error instanceof RangeError) {
      const problem = 'a schema is nested deeper than the call stack allows, or is a cycle of JavaScript objects'
      throw schemaArgumentInvalid(`${caller}: ${problem}`, { path: '', code: 'too_deep', message: problem }, error)
    }
    throw error
  }
  const violations = prover.violations()
  return violations.length === 0 ? { ok: true } : { ok: false, violations }
}

/** A checked plain JSON copy of a schema argument; throws `schema_not_json` (at the pointer into that schema) when it is not plain JSON. */
function schemaCopy(caller: string, schema: unknown, which: string): JsonSchema {
  try {
    return ownJsonCopy(schema) as JsonSchema
  } catch (error) {
    if (!isJsonValueError(error)) throw error
    const problem = `the ${which} schema is not plain JSON at "${error.pointer}": ${error.message}`
    throw schemaArgumentInvalid(`${caller}: ${problem}`, { path: error.pointer, code: 'schema_not_json', message: problem })
  }
}

/** A JSON Schema as the proof reads one: a boolean, or a plain object (not an array, a Date, a Map...). */
export function isSchema(value: unknown): boolean {
  if (typeof value === 'boolean') return true
  if (typeof value !== 'object' || value === null) return false
  try {
    if (Array.isArray(value)) return false
    const proto = Object.getPrototypeOf(value)
    return proto === Object.prototype || proto === null
  } catch {
    // A revoked Proxy, or one whose getPrototypeOf trap throws: not a schema anyone can read.
    return false
  }
}

/**
 * Whether the full position is the very schema object the compact shape was read from, and
 * projection copies its values whole with nothing to report: a full value valid there is then
 * the compact value, valid under the same schema (`defineTool` gives both views the same frozen
 * copy of a part they share). A union counts only when its branches are its own list's entries
 * (no `$ref` or nested union resolved into it), so that the schema means the same in both
 * documents.
 */
function isSameLeaf(shape: CompactShape, full: unknown): boolean {
  if (shape.kind === 'value') return shape.schema === full && copiedWholeCleanly(shape)
  if (shape.kind !== 'union' || shape.schema !== full) return false
  const schema = full as { readonly anyOf?: unknown; readonly oneOf?: unknown }
  const list = shape.exclusive ? schema.oneOf : schema.anyOf
  return Array.isArray(list) && list.length === shape.branches.length && shape.branches.every((branch, i) => branch.schema === list[i]) && copiedWholeCleanly(shape)
}

/** The memo key of a (compact position, full positions) pair: the full pointers in sorted order. */
function pairKey(compactPointer: string, locs: readonly SchemaLoc[]): string {
  if (locs.length === 0) return compactPointer + '\u0000'
  if (locs.length === 1) return compactPointer + '\u0000' + locs[0]!.pointer
  return `${compactPointer}\u0000${locs.map((l) => l.pointer).sort().join('\u0000')}`
}

/**
 * Most positions one containment proof visits. Untagged unions are proven by trying each compact
 * branch in turn, which multiplies across nested unions; past this budget every trial fails, no
 * further position is proven, and the proof says why at the root (a refusal, so still sound).
 */
const MAX_CONTAINMENT_STEPS = 100_000
const EXHAUSTED = `the unions here combine into more than ${MAX_CONTAINMENT_STEPS} positions to try; the proof stopped trying branches`

class Prover implements ProofContext {
  readonly full: SchemaDocument
  readonly #mode: ContainmentMode | undefined
  /** `#mode` with closed objects read as written: inside a union whose branches a closed object may tell apart. */
  readonly #strictMode: ContainmentMode | undefined
  /** How many enclosing union branches are tried where closedness may decide the branch. */
  #discriminating = 0
  #sink = new Map<string, ViewViolation>()
  #trial = 0
  #steps = 0
  /** Pairs being proven, with their depth: meeting one again assumes it (coinduction). */
  readonly #stack = new Map<string, number>()
  /** Pairs proven without leaning on an assumption still open: never proven twice. */
  readonly #done = new Set<string>()
  #lowest = Infinity

  constructor(full: JsonSchema, containment: ContainmentMode | undefined) {
    this.full = new SchemaDocument(full)
    this.#mode = containment
    this.#strictMode = containment?.ignoreClosed === true ? { ...containment, ignoreClosed: false } : containment
  }

  get containment(): ContainmentMode | undefined {
    return this.#discriminating > 0 ? this.#strictMode : this.#mode
  }

  discriminating(check: () => void): void {
    this.#discriminating++
    try {
      check()
    } finally {
      this.#discriminating--
    }
  }

  /** Reports, once and at the roots, that the containment proof ran out of steps. */
  reportExhausted(): void {
    if (this.#steps > MAX_CONTAINMENT_STEPS) this.report('unsupported_keyword', '', '', EXHAUSTED)
  }

  violations(): ViewViolation[] {
    return [...this.#sink.values()]
  }

  /** Reports each compact issue no violation names yet (same code at the same compact path), at the full root. */
  reportUnseen(issues: readonly ShapeIssue[]): void {
    const seen = new Set<string>()
    for (const v of this.#sink.values()) seen.add(`${v.code}\u0000${v.compactPath}`)
    for (const issue of issues) {
      if (!seen.has(`${issue.code}\u0000${issue.pointer}`)) this.report(issue.code, issue.pointer, '', `${issue.message} (the full view never reaches this position)`)
    }
  }

  report(code: ViewViolationCode, compactPath: string, fullPath: string, message: string): void {
    // An untagged union only hinders projection: containment tries its branches instead.
    if (code === 'union_not_discriminated' && this.containment !== undefined) return
    const key = `${code}\u0000${compactPath}\u0000${fullPath}\u0000${message}`
    if (!this.#sink.has(key)) this.#sink.set(key, { code, message, compactPath, fullPath })
  }

  attempt(check: () => void): boolean {
    if (this.#steps > MAX_CONTAINMENT_STEPS) return false
    const sink = this.#sink
    this.#sink = new Map()
    this.#trial++
    try {
      check()
      return this.#sink.size === 0
    } finally {
      this.#sink = sink
      this.#trial--
    }
  }

  branches(locs: readonly SchemaLoc[], fullPointer: string, compactPath: string): FullBranch[] {
    const issues: FullIssue[] = []
    const branches = expandFull(this.full, locs, fullPointer, issues)
    for (const issue of issues) this.report(issue.code, compactPath, issue.pointer, `in the full view: ${issue.message}`)
    return branches
  }

  prove(shape: CompactShape, locs: readonly SchemaLoc[], fullPointer: string): void {
    if (shape.kind === 'any' && shape.issues.length === 0) return
    if (this.#mode === undefined && locs.length === 1 && isSameLeaf(shape, locs[0]!.schema)) return
    if (this.containment !== undefined && ++this.#steps > MAX_CONTAINMENT_STEPS) {
      // Out of budget: fail the trial under way; outside one, reportExhausted refuses the whole.
      if (this.#trial > 0) this.report('unsupported_keyword', '', '', EXHAUSTED)
      return
    }
    // The same pair reads closed objects differently inside a discriminating union.
    const key = (this.#discriminating > 0 && this.#mode !== this.#strictMode ? '\u0001' : '') + pairKey(shape.pointer, locs)
    const open = this.#stack.get(key)
    if (open !== undefined) {
      this.#lowest = Math.min(this.#lowest, open)
      return
    }
    if (this.#done.has(key)) return
    const depth = this.#stack.size
    const outer = this.#lowest
    this.#lowest = Infinity
    this.#stack.set(key, depth)
    try {
      this.#proveAt(shape, locs, fullPointer)
    } finally {
      this.#stack.delete(key)
      if (this.#lowest >= depth && this.#trial === 0) this.#done.add(key)
      this.#lowest = Math.min(outer, this.#lowest)
    }
  }

  #proveAt(shape: CompactShape, locs: readonly SchemaLoc[], fullPointer: string): void {
    const branches = this.branches(locs, fullPointer, shape.pointer)
    for (const issue of shape.issues) this.report(issue.code, issue.pointer, branches[0]?.pointer ?? fullPointer, issue.message)
    switch (shape.kind) {
      case 'any':
        return
      case 'never':
        for (const branch of branches) {
          this.report('type_wider', shape.pointer, branch.pointer, `the compact view allows no value here; the full view allows ${describeTypes(branch.types)}`)
        }
        return
      case 'union':
        // Branches are proven value by value below, not through prove(): report their own issues here.
        for (const branch of shape.branches) {
          for (const issue of branch.issues) this.report(issue.code, issue.pointer, branches[0]?.pointer ?? fullPointer, issue.message)
        }
        proveUnion(this, shape, branches)
        return
      case 'value':
        for (const branch of branches) this.proveValue(shape, branch, ALL_TYPES)
    }
  }

  proveValue(shape: ValueShape, branch: FullBranch, atoms: number): void {
    const mask = atoms & branch.types
    if (mask === 0) return
    if (branch.values !== undefined) {
      this.#proveLiterals(shape, branch, mask)
      return
    }
    for (const misfit of typeMisfits(shape.types, branch, mask)) this.report(misfit.code, shape.pointer, branch.pointer, misfit.message)
    const accepted = mask & shape.types
    if (accepted & NULL) this.#proveScalar(shape, null, branch)
    if (accepted & BOOLEAN) {
      this.#proveScalar(shape, true, branch)
      this.#proveScalar(shape, false, branch)
    }
    const scalars = accepted & (STRING | INTEGER | FRACTION)
    if (scalars !== 0) {
      const misfit = scalarAtomsMisfit(shape, branch, scalars)
      if (misfit !== undefined) this.report(misfit.code, shape.pointer, branch.pointer, misfit.message)
    }
    const structured = accepted & (OBJECT | ARRAY)
    if (structured !== 0 && shape.values !== undefined) {
      this.report(shape.valuesKeyword === 'const' ? 'const_mismatch' : 'enum_wider', shape.pointer, branch.pointer,
        `the full view allows any ${describeTypes(structured)}; the compact view allows only the literals of "${shape.valuesKeyword}"`)
    }
    if ((accepted & OBJECT) !== 0 && shape.object !== 'opaque') proveObject(this, shape.object, branch)
    if ((accepted & ARRAY) !== 0 && shape.array !== 'opaque') proveArray(this, shape.array, branch)
  }

  #proveScalar(shape: ValueShape, value: unknown, branch: FullBranch): void {
    const misfit = scalarMisfit(shape, value, branch)
    if (misfit !== undefined) this.report(misfit.code, shape.pointer, branch.pointer, misfit.message)
  }

  /** A full branch with finitely many values: check each one (objects and arrays also structurally). */
  #proveLiterals(shape: ValueShape, branch: FullBranch, mask: number): void {
    let structured = 0
    for (const value of branch.values!) {
      const atom = atomOf(value)
      if ((atom & mask) === 0) continue
      if (atom & SCALAR_TYPES) {
        const misfit = scalarMisfit(shape, value, branch)
        if (misfit !== undefined) this.report(misfit.code, shape.pointer, branch.pointer, misfit.message)
        continue
      }
      structured |= atom
      if ((atom & shape.types) === 0) {
        this.report('type_wider', shape.pointer, branch.pointer, `the full view allows ${JSON.stringify(value)} (${describeTypes(atom)}); the compact view allows ${describeTypes(shape.types)}`)
      } else if (shape.values !== undefined && !includesJson(shape.values, value)) {
        this.report(shape.valuesKeyword === 'const' ? 'const_mismatch' : 'enum_wider', shape.pointer, branch.pointer,
          `the full view allows ${JSON.stringify(value)}, which the compact "${shape.valuesKeyword}" does not allow`)
      }
    }
    if ((structured & OBJECT & shape.types) !== 0 && shape.object !== 'opaque') proveObject(this, shape.object, branch)
    if ((structured & ARRAY & shape.types) !== 0 && shape.array !== 'opaque') proveArray(this, shape.array, branch)
  }
}
