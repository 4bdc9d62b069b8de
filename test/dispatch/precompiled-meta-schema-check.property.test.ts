// The precompiled draft-07 meta-schema check answers what ajv's own `validateSchema` answers, on
// every option set that uses it (every error or the first, the `required` loop), for schemas that
// are valid and schemas that break the meta-schema anywhere: the dispatcher skips ajv's
// meta-schema compile on the strength of this answer alone.
import { Ajv, type Options } from 'ajv'
import addFormatsModule from 'ajv-formats'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FIRST_ERROR_OPTIONS, OPTIONS } from '../../src/dispatch/ajv-options.js'
import { isDraft07Schema } from '../../src/dispatch/draft-07-meta-schema.generated.js'
import { contractSchemaArb, recursiveContractSchemaArb, unionRootSchemaArb } from '../support/contract-schema-pairs.js'

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv
const OPTION_SETS: readonly Options[] = [OPTIONS, FIRST_ERROR_OPTIONS, { ...FIRST_ERROR_OPTIONS, loopRequired: 0 }]
const references = OPTION_SETS.map((options) => addFormats(new Ajv(options)))

/** ajv's own answers, one per option set (each compiles the meta-schema itself). */
const ajvAnswers = (schema: unknown): boolean[] => references.map((ajv) => ajv.validateSchema(schema as object) as boolean)

/** Valid schemas of every shape the property tests generate: nested objects, arrays, unions, recursion through `$ref`. */
const schemas = fc.oneof(contractSchemaArb, recursiveContractSchemaArb, unionRootSchemaArb)

/** Every draft-07 keyword, so that mutations land on what the meta-schema constrains. */
const KEYWORDS = [
  '$id', '$ref', '$comment', 'title', 'description', 'default', 'readOnly', 'examples', 'multipleOf', 'maximum',
  'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'additionalItems', 'items',
  'maxItems', 'minItems', 'uniqueItems', 'contains', 'maxProperties', 'minProperties', 'required', 'additionalProperties',
  'definitions', 'properties', 'patternProperties', 'dependencies', 'propertyNames', 'const', 'enum', 'type', 'format',
  'contentMediaType', 'contentEncoding', 'if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', 'not',
] as const

/** A value that often breaks a keyword: wrong types, negatives, fractions, duplicates, empty lists, unknown type names. */
const breaking = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(-1, 1.5, 0, '', 'strin', ['string', 'string'], [], ['a', 'a'], { type: 'strin' }, [{}], [true], null, true, false),
)

/** `schema` with `keyword: value` set at the object found by following `steps` (into objects and arrays). */
function mutate(schema: unknown, steps: readonly number[], keyword: string, value: unknown): unknown {
  const root = structuredClone(schema)
  let at: unknown = root
  for (const step of steps) {
    const children = typeof at === 'object' && at !== null ? Object.values(at) : []
    const next = children.filter((child) => typeof child === 'object' && child !== null)
    if (next.length === 0) break
    at = next[step % next.length]
  }
  if (typeof at === 'object' && at !== null && !Array.isArray(at)) (at as Record<string, unknown>)[keyword] = value
  return root
}

describe('the precompiled draft-07 meta-schema check', () => {
  it("agrees with ajv's validateSchema on generated schemas", () => {
    fc.assert(
      fc.property(schemas, (schema) => {
        const plain = JSON.parse(JSON.stringify(schema))
        for (const answer of ajvAnswers(plain)) expect(isDraft07Schema(plain)).toBe(answer)
      }),
      { numRuns: 200 },
    )
  })

  it("agrees with ajv's validateSchema on schemas broken at any depth", () => {
    let refused = 0
    fc.assert(
      fc.property(
        schemas,
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.constantFrom(...KEYWORDS),
        breaking,
        (schema, steps, keyword, value) => {
          const broken = mutate(JSON.parse(JSON.stringify(schema)), steps, keyword, value)
          const answers = ajvAnswers(broken)
          if (!answers[0]) refused++
          for (const answer of answers) expect(isDraft07Schema(broken)).toBe(answer)
        },
      ),
      { numRuns: 600 },
    )
    // The mutations must actually break schemas for the agreement to mean anything.
    expect(refused).toBeGreaterThan(100)
  })

  it("agrees with ajv's validateSchema on arbitrary JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        if (typeof value !== 'object' || value === null) return
        for (const answer of ajvAnswers(value)) expect(isDraft07Schema(value)).toBe(answer)
      }),
      { numRuns: 300 },
    )
  })

  it.each([
    [{ type: 'strin' }],
    [{ type: ['string', 'string'] }],
    [{ required: ['a', 'a'] }],
    [{ enum: [] }],
    [{ minLength: 1.5 }],
    [{ minLength: -1 }],
    [{ multipleOf: 0 }],
    [{ items: [] }],
    [{ properties: { a: { maximum: '1' } } }],
    [{ pattern: '[' }],
    [{ format: 'no-such-format' }],
    [{ $ref: 3 }],
    [{ definitions: { a: 1 } }],
    [{ dependencies: { a: ['b', 'b'] } }],
    [{ type: 'object', properties: { constructor: { type: 'string' } } }],
  ])('agrees with ajv on %j', (schema) => {
    for (const answer of ajvAnswers(schema)) expect(isDraft07Schema(schema)).toBe(answer)
  })
})
