import { appendPointer } from '../json/pointer.js'
import type { CompactShape, ObjectShape } from './compact-shape.js'
import { fullProperty, type FullBranch } from './full-facts.js'
import type { ContainmentMode, ProofContext } from './proof-context.js'
import { proveProperty } from './prove-property.js'
import { isSchemaObject, type SchemaLoc } from './schema-document.js'

/**
 * Object part of the containment proof: every object the full branch allows must be accepted by
 * the compact object itself (no projection drops its undeclared keys). Keys are checked in three
 * groups, each against the compact schema ajv applies to it:
 * - the keys the compact object declares: present in full if required in compact, and each
 *   value proven against the compact property schema (with `declaredInFull`, a compact key the
 *   full branch does not declare is `missing_in_full`);
 * - the other keys the full branch declares (`properties`, `required`): against the compact
 *   pattern if the key matches it, else against the compact `additionalProperties`;
 * - keys the full branch does not declare, when it allows any: against the compact pattern and
 *   the compact `additionalProperties`, with what the full side guarantees for every such key.
 * A compact `additionalProperties: false` refuses keys (`properties_wider`) unless
 * `ignoreClosed`, which reads it as absent.
 */
export function containObject(ctx: ProofContext, object: ObjectShape, branch: FullBranch, mode: ContainmentMode): void {
  const compactKeys = new Set<string>()
  for (const property of object.properties) {
    compactKeys.add(property.key)
    proveProperty(ctx, property, branch, mode.declaredInFull)
  }
  const additional = mode.ignoreClosed && object.additional?.kind === 'never' ? undefined : object.additional
  const pattern = object.pattern
  for (const key of fullDeclaredKeys(branch)) {
    if (compactKeys.has(key)) continue
    const full = fullProperty(ctx.full, branch, key)
    if (pattern !== undefined && pattern.regex.test(key)) ctx.prove(pattern.shape, full.locs, full.pointer)
    else if (additional !== undefined) proveExtra(ctx, additional, object, full.locs, full.pointer, `property "${key}"`)
  }
  const undeclared = undeclaredKeys(branch)
  if (undeclared === 'none') return
  if (pattern !== undefined) {
    const locs = undeclaredLocs(ctx, branch, pattern.source)
    ctx.prove(pattern.shape, locs, locs[0]?.pointer ?? appendPointer(branch.pointer, 'additionalProperties'))
  }
  if (additional !== undefined && !(pattern !== undefined && undeclared === pattern.source)) {
    // Keys a closed full object admits through its one pattern hold that pattern's schema.
    const locs = undeclaredLocs(ctx, branch, undeclared === 'any' ? undefined : undeclared)
    const where = locs[0]?.pointer ?? appendPointer(branch.pointer, 'additionalProperties')
    proveExtra(ctx, additional, object, locs, where, undeclared === 'any' ? 'properties it does not declare' : `properties matching ${JSON.stringify(undeclared)}`)
  }
}

/** Proves full values of keys the compact object does not declare against its `additionalProperties`. */
function proveExtra(ctx: ProofContext, additional: CompactShape, object: ObjectShape, locs: readonly SchemaLoc[], fullPointer: string, what: string): void {
  if (additional.kind !== 'never') {
    ctx.prove(additional, locs, fullPointer)
    return
  }
  // A key whose full schema allows no value (`false`) can never be present.
  if (ctx.branches(locs, fullPointer, additional.pointer).length === 0) return
  ctx.report('properties_wider', object.pointer, fullPointer, `the full view allows ${what}; the compact object allows no property it does not declare`)
}

/** Every key the full branch names: in a conjunct's `properties`, or in `required`. */
function fullDeclaredKeys(branch: FullBranch): Set<string> {
  const keys = new Set<string>(branch.required)
  for (const { schema } of branch.conjuncts) {
    const properties = (schema as { readonly [k: string]: unknown }).properties
    if (isSchemaObject(properties)) for (const key of Object.keys(properties)) keys.add(key)
  }
  return keys
}

/**
 * Whether the full branch allows keys it does not name: `'none'` when a conjunct closes the
 * object (`additionalProperties: false`, no `patternProperties`), the one pattern source such keys
 * must match when a conjunct closes it around exactly one pattern, `'any'` otherwise.
 */
function undeclaredKeys(branch: FullBranch): 'none' | 'any' | string {
  let restricted: 'any' | string = 'any'
  for (const { schema } of branch.conjuncts) {
    const s = schema as { readonly [k: string]: unknown }
    if (s.additionalProperties !== false) continue
    const patterns = isSchemaObject(s.patternProperties) ? Object.keys(s.patternProperties) : []
    if (patterns.length === 0) return 'none'
    if (patterns.length === 1) restricted = patterns[0]!
  }
  return restricted
}

/**
 * What the full branch guarantees for the value of any key it does not name (and, with `source`,
 * that matches that pattern): a conjunct without `patternProperties` applies its
 * `additionalProperties`; one with the very `source` pattern applies that entry; one with other
 * patterns may apply any of them, so it is left out (a widening, still sound).
 */
function undeclaredLocs(ctx: ProofContext, branch: FullBranch, source: string | undefined): SchemaLoc[] {
  const locs: SchemaLoc[] = []
  for (const loc of branch.conjuncts) {
    const s = loc.schema as { readonly [k: string]: unknown }
    const patterns = isSchemaObject(s.patternProperties) ? s.patternProperties : undefined
    if (patterns !== undefined && Object.keys(patterns).length > 0) {
      if (source !== undefined && Object.hasOwn(patterns, source)) locs.push(ctx.full.entry(loc, 'patternProperties', source)!)
      continue
    }
    if (s.additionalProperties !== undefined) locs.push(ctx.full.at(loc, 'additionalProperties')!)
  }
  return locs
}
