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
 * The keywords of a compact schema that the proof cannot reason about, each with the reason.
 * Neutral keywords and `x-` extensions are skipped.
 */
export function unsupportedCompactKeywords(schema: { readonly [keyword: string]: unknown }): Array<{ keyword: string; reason: string }> {
  const found: Array<{ keyword: string; reason: string }> = []
  for (const keyword of Object.keys(schema)) {
    if (NEUTRAL_KEYWORDS.has(keyword) || COMPACT_KEYWORDS.has(keyword) || keyword.startsWith('x-')) continue
    const reason = Object.hasOwn(UNSUPPORTED_REASONS, keyword) ? UNSUPPORTED_REASONS[keyword]! : 'unknown keyword'
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
