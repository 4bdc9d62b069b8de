/**
 * Which JSON Schema keywords a compact view may use. The view proof reasons about exactly these;
 * any other validation keyword in a compact schema is rejected (`unsupported_keyword`) rather
 * than guessed at. Keys starting with `x-` are extensions and are ignored, like annotations.
 */

/** Keywords that assert nothing about a value (annotations, identifiers, definitions). */
export const NEUTRAL_KEYWORDS: ReadonlySet<string> = new Set([
  '$schema', '$id', '$anchor', '$defs', 'definitions', '$comment', '$vocabulary',
  'title', 'description', 'default', 'examples', 'readOnly', 'writeOnly', 'deprecated',
  'contentEncoding', 'contentMediaType',
])

/** Keywords a compact schema may use besides the neutral ones. */
export const COMPACT_KEYWORDS: ReadonlySet<string> = new Set([
  'type', 'nullable', 'enum', 'const', 'anyOf', 'oneOf', '$ref',
  'properties', 'required', 'additionalProperties', 'patternProperties',
  'items', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems',
  'minLength', 'maxLength', 'pattern', 'format',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
])

/** Why a keyword is not supported in a compact schema, for the violation message. */
const UNSUPPORTED_REASONS: Readonly<Record<string, string>> = {
  allOf: 'an intersection cannot be projected field by field; merge the members into one object schema',
  not: 'negation cannot be proven preserved by projection',
  if: 'conditional schemas cannot be proven preserved by projection',
  then: 'conditional schemas cannot be proven preserved by projection',
  else: 'conditional schemas cannot be proven preserved by projection',
  prefixItems: 'draft-07 validators ignore "prefixItems" and 2020-12 ones do not; use "items" as a list (TypeBox Tuple)',
  minProperties: 'projection drops undeclared properties, so property counts change',
  maxProperties: 'projection drops undeclared properties, so property counts change',
  propertyNames: 'projection changes which property names are present',
  dependentRequired: 'dependencies between properties are not supported',
  dependentSchemas: 'dependencies between properties are not supported',
  dependencies: 'dependencies between properties are not supported',
  contains: 'projection can change which items match "contains"',
  minContains: 'projection can change which items match "contains"',
  maxContains: 'projection can change which items match "contains"',
  unevaluatedProperties: 'unevaluated keywords are not supported',
  unevaluatedItems: 'unevaluated keywords are not supported',
  $dynamicRef: 'dynamic references are not supported',
  $dynamicAnchor: 'dynamic references are not supported',
  $recursiveRef: 'recursive references are not supported; use "$ref" (TypeBox Cyclic)',
  $recursiveAnchor: 'recursive references are not supported; use "$ref" (TypeBox Cyclic)',
  discriminator: 'validators may or may not enforce "discriminator"; use a required literal tag property',
  contentSchema: 'content schemas are not supported',
}

/**
 * Why a keyword is not supported on the accepting side of a containment proof, where the reason
 * of a compact view (projection) plays no part: only those that differ.
 */
const UNSUPPORTED_CONTAINMENT_REASONS: Readonly<Record<string, string>> = {
  allOf: 'an intersection is not read on this side; merge the members into one object schema',
  not: 'the proof does not reason about negation',
  if: 'the proof does not reason about conditional schemas',
  then: 'the proof does not reason about conditional schemas',
  else: 'the proof does not reason about conditional schemas',
  minProperties: 'the proof does not reason about property counts',
  maxProperties: 'the proof does not reason about property counts',
  propertyNames: 'the proof does not reason about property names',
  contains: 'the proof does not reason about "contains"',
  minContains: 'the proof does not reason about "contains"',
  maxContains: 'the proof does not reason about "contains"',
}

/** What a compact-side schema is read for: a view (projected) or the accepting side of a containment proof (not projected). */
export type ShapePurpose = 'view' | 'containment'

/**
 * The keywords of a compact schema that the proof cannot reason about, each with the reason
 * (worded for `purpose`). Neutral keywords and `x-` extensions are skipped.
 */
export function unsupportedCompactKeywords(schema: { readonly [keyword: string]: unknown }, purpose: ShapePurpose = 'view'): Array<{ keyword: string; reason: string }> {
  const found: Array<{ keyword: string; reason: string }> = []
  for (const keyword of Object.keys(schema)) {
    if (NEUTRAL_KEYWORDS.has(keyword) || COMPACT_KEYWORDS.has(keyword) || keyword.startsWith('x-')) continue
    const reasons = purpose === 'containment' && Object.hasOwn(UNSUPPORTED_CONTAINMENT_REASONS, keyword) ? UNSUPPORTED_CONTAINMENT_REASONS : UNSUPPORTED_REASONS
    const reason = Object.hasOwn(reasons, keyword) ? reasons[keyword]! : 'unknown keyword'
    found.push({ keyword, reason })
  }
  return found
}

/** True if `schema` has no keyword that constrains values (only neutral keywords and extensions). */
export function isUnconstrained(schema: { readonly [keyword: string]: unknown }): boolean {
  for (const keyword of Object.keys(schema)) {
    if (!NEUTRAL_KEYWORDS.has(keyword) && !keyword.startsWith('x-')) return false
  }
  return true
}
