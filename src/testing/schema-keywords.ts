import type { JsonSchema } from 'result-views'
import { appendPointer } from '../json/pointer.js'
import { SchemaArbitraryError } from './schema-arbitrary-error.js'

/** Keywords `jsonSchemaArbitrary` generates for (see its doc comment for the supported subset). */
export const SUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
  'type', 'enum', 'const', 'anyOf', 'oneOf', '$ref', '$defs', 'definitions', '$id', '$schema',
  'properties', 'required', 'additionalProperties', 'patternProperties',
  'items', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems',
  'minLength', 'maxLength', 'pattern', 'format',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
])

/** Annotation keywords: they constrain nothing, so they are ignored. */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set([
  'title', 'description', 'default', 'examples', '$comment', 'readOnly', 'writeOnly', 'deprecated',
  'contentEncoding', 'contentMediaType', '$vocabulary',
])

/**
 * Validation keywords of JSON Schema (draft-07 to 2020-12, plus ajv's `nullable`) that the
 * generator does not support: any of them throws. `prefixItems` is among them because this
 * library validates with ajv's default (draft-07) dialect, which ignores it; TypeBox tuples use
 * the draft-07 `items` array with `additionalItems`. Keys that are no JSON Schema keyword at all
 * (`x-foo`, a library's own annotations) are ignored, as ajv with `strict: false` ignores them.
 */
export const UNSUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
  'allOf', 'not', 'if', 'then', 'else', 'dependentSchemas', 'dependentRequired', 'dependencies',
  'propertyNames', 'minProperties', 'maxProperties', 'contains', 'minContains', 'maxContains',
  'unevaluatedProperties', 'unevaluatedItems', '$anchor', '$dynamicRef', '$dynamicAnchor',
  '$recursiveRef', '$recursiveAnchor', 'contentSchema', 'nullable', 'prefixItems',
])

/** Keywords that may sit beside `$ref`, `anyOf`, `oneOf`, `enum` or `const` without changing what is valid. */
const NEUTRAL_KEYWORDS: ReadonlySet<string> = new Set(['$defs', 'definitions', '$id', '$schema'])

/** Throws `unsupported_keyword` for the first unsupported keyword of `schema`. */
export function rejectUnsupportedKeywords(schema: JsonSchema, pointer: string): void {
  for (const keyword of Object.keys(schema)) {
    if (UNSUPPORTED_KEYWORDS.has(keyword)) {
      throw new SchemaArbitraryError('unsupported_keyword', keyword, appendPointer(pointer, keyword),
        `unsupported JSON Schema keyword "${keyword}"`)
    }
  }
}

/** The keywords of `schema` that constrain values, other than `except` (annotations and neutral keys left out). */
export function validationSiblings(schema: JsonSchema, except: readonly string[]): string[] {
  return Object.keys(schema).filter(
    (keyword) => SUPPORTED_KEYWORDS.has(keyword) && !NEUTRAL_KEYWORDS.has(keyword) && !except.includes(keyword),
  )
}

/** Reads a non-negative integer keyword (`minLength`, `maxItems`, ...); `undefined` when absent. */
export function readCount(schema: JsonSchema, keyword: string, pointer: string): number | undefined {
  const value = schema[keyword]
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new SchemaArbitraryError('invalid_keyword_value', keyword, appendPointer(pointer, keyword),
      `"${keyword}" must be a non-negative integer, got ${JSON.stringify(value)}`)
  }
  return value
}

/** Reads a finite number keyword (`minimum`, `exclusiveMaximum`, ...); `undefined` when absent. */
export function readNumber(schema: JsonSchema, keyword: string, pointer: string): number | undefined {
  const value = schema[keyword]
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new SchemaArbitraryError('invalid_keyword_value', keyword, appendPointer(pointer, keyword),
      `"${keyword}" must be a finite number (draft-04 boolean forms are not supported), got ${JSON.stringify(value)}`)
  }
  return value
}

/** True for a plain schema object (not an array, not null). */
export function isSchemaObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
