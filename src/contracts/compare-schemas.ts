import { isUsageError, schemaDigest, type JsonSchema } from 'result-views'
import { isSchemaObject } from '../schema/schema-document.js'
import { parsePointer, toPointer } from '../json/pointer.js'
import { proveContainment } from '../schema/containment.js'
import type { ViewViolation, ViewViolationCode } from '../schema/view-violation.js'
import { ContractsError } from './contracts-error.js'
import { fieldPathOfPointer } from './field-paths.js'
import { findUnsafePatterns } from './unsafe-patterns.js'

/**
 * Which way a schema is read, which decides the containment that makes a change compatible:
 * - `output` (a view, or a single-result tool's output): readers of the old schema get values of
 *   the new one, so every value the new schema accepts must be accepted by the old one, as its
 *   readers see it (they ignore fields they do not know, and rely on every field it declares);
 * - `input`: callers written against the old schema keep sending what it accepted, so every input
 *   the old schema accepts must be accepted by the new one (a closed object matters here).
 */
export type SchemaRole = 'input' | 'output'

/** How a changed schema compares with the one it replaces. */
export type SchemaVerdictKind = 'compatible' | 'breaking' | 'unproven'

/**
 * Why a change is not (provably) compatible. Output schemas: `field_removed`,
 * `field_made_optional`, `type_widened`, `nullable_added`, `enum_grown`, `variant_added`,
 * `constraint_loosened`, `items_widened`. Input schemas: `field_made_required`, `field_rejected`,
 * `type_narrowed`, `null_refused`, `enum_shrunk`, `variant_removed`, `constraint_tightened`,
 * `items_narrowed`. Either: `unsupported_keyword`, `unresolved_ref`, `union_ambiguous`,
 * `unsafe_pattern` (a regular expression that could backtrack exponentially, not run), `too_deep`
 * (nested deeper than the proof can follow) (always `unproven`: the proof cannot decide).
 */
export type ContractReasonCode =
  | 'field_removed' | 'field_made_optional' | 'type_widened' | 'nullable_added' | 'enum_grown' | 'variant_added'
  | 'constraint_loosened' | 'items_widened'
  | 'field_made_required' | 'field_rejected' | 'type_narrowed' | 'null_refused' | 'enum_shrunk' | 'variant_removed'
  | 'constraint_tightened' | 'items_narrowed'
  | 'unsupported_keyword' | 'unresolved_ref' | 'union_ambiguous' | 'unsafe_pattern' | 'too_deep'

/** One reason a changed schema is breaking or unproven. */
export interface ContractReason {
  /** `breaking`: the proof found this difference; `unproven`: it could not decide this position. */
  readonly kind: 'breaking' | 'unproven'
  /** What kind of difference (see {@link ContractReasonCode}). */
  readonly code: ContractReasonCode
  /** What differs, in a sentence that speaks of the old and the new schema. */
  readonly message: string
  /**
   * JSON Pointer into the old schema: always a position it has (for a position it lacks, such as
   * a property it never declared, the nearest enclosing one: the object, or `""`, the document).
   */
  readonly old_path: string
  /** JSON Pointer into the new schema (where the position would be, if it is missing there). */
  readonly new_path: string
  /** The field the reason is about, as a path (`session.runtime.generation`, `items[].id`; `""` is the record itself), when the pointer names one. */
  readonly field?: string
}

/** The verdict on one changed schema. */
export interface SchemaVerdict {
  /** `compatible`, `breaking` (a reason is breaking) or `unproven` (every reason is unproven). */
  readonly verdict: SchemaVerdictKind
  /** Every reason found (empty when compatible), in canonical order: breaking ones first, then by `old_path`, `new_path`, `code`, `message`. */
  readonly reasons: readonly ContractReason[]
}

/** Per proof code: the reason code when reading an output, when reading an input, and whether the proof decides it. */
const REASONS: Readonly<Record<ViewViolationCode, readonly [output: ContractReasonCode, input: ContractReasonCode, decided: boolean]>> = {
  missing_in_full: ['field_removed', 'field_rejected', true],
  required_optional_in_full: ['field_made_optional', 'field_made_required', true],
  type_wider: ['type_widened', 'type_narrowed', true],
  nullable_wider: ['nullable_added', 'null_refused', true],
  enum_wider: ['enum_grown', 'enum_shrunk', true],
  const_mismatch: ['enum_grown', 'enum_shrunk', true],
  union_branch_unmatched: ['variant_added', 'variant_removed', true],
  constraint_not_implied: ['constraint_loosened', 'constraint_tightened', true],
  items_wider: ['items_widened', 'items_narrowed', true],
  properties_wider: ['field_rejected', 'field_rejected', true],
  unsupported_keyword: ['unsupported_keyword', 'unsupported_keyword', false],
  unresolved_ref: ['unresolved_ref', 'unresolved_ref', false],
  union_not_discriminated: ['union_ambiguous', 'union_ambiguous', false],
  union_tag_ambiguous: ['union_ambiguous', 'union_ambiguous', false],
}

/**
 * Keywords the proof compares as written rather than by meaning (two different patterns may
 * accept the same strings): a `constraint_not_implied` about one of them is undecided.
 */
const AS_WRITTEN = /"(pattern|format|multipleOf)"|projecting the elements/

/**
 * Compares a changed schema with the one it replaces (`docs/contracts.md` "What is compatible, and why").
 * The decision is the view proof's machinery read as containment (no projection): sound when it
 * says `compatible`, so `compatible` means every value the direction of `role` requires is
 * accepted; `breaking` means the proof found a difference of a listed kind (a field removed, a
 * type widened, ...); `unproven` means it could not decide (a keyword it does not reason about,
 * an unresolved `$ref`, a union it cannot split, a pattern compared as written, a pattern that
 * could backtrack exponentially, which is never run: `unsafe_pattern`, a schema nested deeper
 * than the call stack allows: `too_deep`), and is to be
 * treated as breaking unless the author accepts it. Identical schemas (same digest) are compatible
 * without a proof.
 *
 * @param before - the old schema (plain JSON).
 * @param after - the new schema.
 * @param role - `output` for views and single outputs, `input` for input schemas.
 * @throws ContractsError (`contracts_invalid`) when a schema is not a JSON Schema or not plain
 *   JSON (nesting past 5,000 levels included), or `role` is neither.
 */
export function compareSchemas(before: unknown, after: unknown, role: SchemaRole): SchemaVerdict {
  if (role !== 'input' && role !== 'output') {
    throw new ContractsError('compareSchemas arguments', [{ path: '/role', code: 'invalid_role', message: 'role must be "input" or "output"' }])
  }
  if (sameDigest(before, after)) return { verdict: 'compatible', reasons: [] }
  const unsafe = unsafePatternReasons(before, after)
  if (unsafe.length > 0) return { verdict: 'unproven', reasons: unsafe }
  let proof
  try {
    proof = role === 'output'
      ? proveContainment(before, after, { declaredInFull: true, ignoreClosed: true })
      : proveContainment(after, before, { declaredInFull: false, ignoreClosed: false })
  } catch (error) {
    if (isUsageError(error) && error.problems.some((p) => p.code === 'too_deep')) {
      const message = 'a schema is nested deeper than the proof can follow (the call stack ran out), so the change is not proven'
      return { verdict: 'unproven', reasons: [{ kind: 'unproven', code: 'too_deep', message, old_path: '', new_path: '' }] }
    }
    throw new ContractsError('compareSchemas arguments', [{ path: '', code: 'invalid_schema', message: error instanceof Error ? error.message : 'not a JSON Schema' }], error)
  }
  if (proof.ok) return { verdict: 'compatible', reasons: [] }
  const reasons = proof.violations.map((v) => reasonOf(v, role, before, after))
  reasons.sort(compareReasons)
  return { verdict: reasons.some((r) => r.kind === 'breaking') ? 'breaking' : 'unproven', reasons }
}

/** True when both are schemas of plain JSON with one schema digest (identical schemas); false when either is not (the proof then says why). */
function sameDigest(before: unknown, after: unknown): boolean {
  // Only schemas (an object or a boolean): `null`, arrays and numbers go on to the proof, which refuses them.
  const schema = (value: unknown): boolean => typeof value === 'boolean' || isSchemaObject(value)
  if (!schema(before) || !schema(after)) return false
  try {
    return schemaDigest(before as JsonSchema) === schemaDigest(after as JsonSchema)
  } catch {
    return false
  }
}

/**
 * One `unsafe_pattern` reason per regular expression of either schema that could backtrack
 * exponentially: the proof runs patterns on property names and literals of the other schema,
 * so none is run and the comparison is unproven. Empty when a schema cannot be walked (the proof
 * then says why).
 */
function unsafePatternReasons(before: unknown, after: unknown): ContractReason[] {
  let found: { side: 'old' | 'new'; pointer: string; source: string }[]
  try {
    found = [
      ...findUnsafePatterns(before).map((p) => ({ side: 'old' as const, ...p })),
      ...findUnsafePatterns(after).map((p) => ({ side: 'new' as const, ...p })),
    ]
  } catch {
    return []
  }
  return found.map(({ side, pointer, source }) => ({
    kind: 'unproven',
    code: 'unsafe_pattern',
    message: `the ${side} schema's pattern ${JSON.stringify(source.slice(0, 200))} repeats a group that holds a quantifier or an alternative (or uses a backreference), so it could backtrack exponentially; the comparison does not run it`,
    old_path: side === 'old' ? pointer : '',
    new_path: side === 'new' ? pointer : '',
  }))
}

/**
 * The canonical order of reasons: breaking ones first, then by `old_path`, `new_path`, `code` and
 * `message` (UTF-16 code units). The proof visits properties in the order a schema lists them, and
 * a lock file lists them sorted: the same two schemas give the same list either way.
 */
export function compareReasons(a: ContractReason, b: ContractReason): number {
  if (a.kind !== b.kind) return a.kind === 'breaking' ? -1 : 1
  for (const key of ['old_path', 'new_path', 'code', 'message'] as const) {
    if (a[key] !== b[key]) return a[key] < b[key] ? -1 : 1
  }
  return 0
}

/** Keywords whose value holds schemas by name or index, not a schema itself. */
const SCHEMA_CONTAINERS: ReadonlySet<string> = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'anyOf', 'oneOf', 'allOf', 'items', 'prefixItems'])

/**
 * `pointer` if it names a position of `schema`, else the nearest enclosing schema that it has
 * (`""`, the document, at least): the proof names where a missing property would be, and an old
 * path names what the old schema has (`/properties/b` of an object without `b` → the object).
 */
function existingPointer(schema: unknown, pointer: string): string {
  if (pointer === '' || !pointer.startsWith('/')) return ''
  const tokens = parsePointer(pointer)
  let at: unknown = schema
  let length = 0
  for (const token of tokens) {
    if (Array.isArray(at) ? !/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= at.length : !isSchemaObject(at) || !Object.hasOwn(at, token)) break
    at = (at as Record<string, unknown>)[token]
    length++
  }
  if (length === tokens.length) return pointer
  // Stop at a schema, not inside the list or map of schemas that lacks the entry.
  if (length > 0 && SCHEMA_CONTAINERS.has(tokens[length - 1]!) && (Array.isArray(at) || tokens[length - 1] !== 'items')) length--
  return toPointer(tokens.slice(0, length))
}

function reasonOf(violation: ViewViolation, role: SchemaRole, before: unknown, after: unknown): ContractReason {
  const [output, input, decided] = REASONS[violation.code]
  const asWritten = violation.code === 'constraint_not_implied' && AS_WRITTEN.test(violation.message)
  // The proof's compact side is the schema that must accept: the old one for outputs, the new one for inputs.
  const oldPath = role === 'output' ? violation.compactPath : violation.fullPath
  const newPath = role === 'output' ? violation.fullPath : violation.compactPath
  const field = fieldPathOfPointer(before, oldPath) ?? fieldPathOfPointer(after, newPath)
  const reason: ContractReason = {
    kind: decided && !asWritten ? 'breaking' : 'unproven',
    code: role === 'output' ? output : input,
    message: addedAsRequired(violation, role, before, newPath) ?? translate(violation.message, role) + (asWritten ? ' (compared as written: the two may still agree)' : ''),
    old_path: existingPointer(before, oldPath),
    new_path: newPath,
  }
  return field === undefined ? reason : { ...reason, field }
}

/**
 * The sentence for an input field the new schema requires and the old one never declared (a new
 * required field, not an optional one made required): `property "b" was added as required`.
 */
function addedAsRequired(violation: ViewViolation, role: SchemaRole, before: unknown, newPath: string): string | undefined {
  if (role !== 'input' || violation.code !== 'required_optional_in_full' || declaresAt(before, violation.fullPath)) return undefined
  const key = newPath === '' ? undefined : parsePointer(newPath).at(-1)
  return key === undefined ? undefined : `property ${JSON.stringify(key)} was added as required`
}

/** Whether a JSON Pointer leads to a member of a schema (own members only). */
function declaresAt(schema: unknown, pointer: string): boolean {
  if (pointer === '') return true
  let node: unknown = schema
  for (const token of parsePointer(pointer)) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, token)) return false
    node = (node as Record<string, unknown>)[token]
  }
  return true
}

/**
 * The proof's sentence with its sides named: "compact" is the side that must accept (old for
 * outputs, new for inputs) and "full" the other. Quoted text (property names, values) is kept.
 */
function translate(message: string, role: SchemaRole): string {
  const accepting = role === 'output' ? 'old' : 'new'
  const accepted = role === 'output' ? 'new' : 'old'
  return message
    .split(/("(?:[^"\\]|\\.)*")/)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part
            .replace(/\b(compact|full) view\b/g, (_, side: string) => `${side === 'compact' ? accepting : accepted} schema`)
            .replace(/\bcompact\b/g, accepting)
            .replace(/\bfull\b/g, accepted),
    )
    .join('')
}

/** True for a value the proof reads as a schema (a plain object or a boolean). */
export function isJsonSchema(value: unknown): boolean {
  return typeof value === 'boolean' || isSchemaObject(value)
}
