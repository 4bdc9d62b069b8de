// Soundness of the contract verdicts, the way test/schema/ proves the view proof sound: random
// schema pairs, values generated from the schema whose values must be accepted, and ajv as the
// judge. Whenever compareSchemas says "compatible", no generated value may contradict it.
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { JsonSchema } from 'result-views'
import { compareContracts, compareSchemas, type SchemaRole } from 'result-views/contracts'
import { isSchemaArbitraryError, jsonSchemaArbitrary } from 'result-views/testing'
import { contractSchemaArb, editedPairArb, editedPairsOf, recursiveContractSchemaArb, unionRootSchemaArb } from '../support/contract-schema-pairs.js'
import { asReaderSees } from '../support/reader-sees.js'
import { singleResultLock } from '../support/single-result-lock.js'
import { recursiveUnionPairArb, schemaPairArb } from '../support/view-schema-pairs.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 300)
const TIMEOUT_MS = Math.max(60_000, RUNS * 60)
/** The generators' coverage is counted on this seed and this many draws. */
const COVERAGE_SEED = 20_261_201
const COVERAGE_RUNS = 150

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv

/**
 * A validator in a fresh ajv (schemas may share an `$id`) that reads own properties only, as the
 * dispatcher does, and enforces `required: [""]` as the dispatcher does (ajv's default unrolled
 * check does not: ajv-validator/ajv#2077).
 */
function validator(schema: unknown): ValidateFunction {
  return addFormats(new Ajv({ strict: false, ownProperties: true, loopRequired: 0 })).compile(schema as JsonSchema)
}

/** Values of `schema`, or none when the generator cannot make them (a `not`, say). */
function valuesOf(schema: JsonSchema): fc.Arbitrary<unknown[]> {
  try {
    return fc.array(jsonSchemaArbitrary(schema, { maxDepth: 3, maxArrayLength: 3 }), { minLength: 1, maxLength: 4 })
  } catch (error) {
    if (isSchemaArbitraryError(error)) return fc.constant([])
    throw error
  }
}

/**
 * One case: a pair, which side is old, the role, and values of the schema whose values must be
 * accepted (the new schema for outputs, the old one for inputs).
 */
interface Case {
  readonly before: JsonSchema
  readonly after: JsonSchema
  readonly role: SchemaRole
  readonly values: unknown[]
}

/** A case from a pair whose `wide` side usually accepts more: oriented so it must accept, or swapped. */
function caseOf(wide: JsonSchema, narrow: JsonSchema): fc.Arbitrary<Case> {
  return fc.tuple(fc.constantFrom<SchemaRole>('output', 'input'), fc.boolean()).chain(([role, swap]) => {
    const [a, b] = swap ? [narrow, wide] : [wide, narrow]
    // The side that must accept is the old one for outputs and the new one for inputs.
    const before = role === 'output' ? a : b
    const after = role === 'output' ? b : a
    return valuesOf(role === 'output' ? after : before).map((values) => ({ before, after, role, values }))
  })
}

/** View-proof pairs: the derived compact schema is usually the wider one. */
const viewPairCases = schemaPairArb.chain((pair) => caseOf(pair.compact, pair.full))
/** Edited pairs: closed objects, `additionalProperties` schemas, patterns, untagged unions. */
const editedCases = editedPairArb.chain(({ a, b }) => caseOf(a, b))
/** Recursive unions referenced through a property or the items of their own branch, as view pairs and as edited pairs. */
const recursiveCases = fc.oneof(
  recursiveUnionPairArb.chain((pair) => caseOf(pair.compact, pair.full)),
  editedPairsOf(recursiveContractSchemaArb).chain(({ a, b }) => caseOf(a, b)),
)
/** Union roots: `anyOf` of objects, scalars and `{}`. */
const unionRootCases = editedPairsOf(unionRootSchemaArb).chain(({ a, b }) => caseOf(a, b))

const caseFamilies = [
  ['view-proof pairs', viewPairCases],
  ['edited pairs (closed objects, additionalProperties, patterns, untagged unions)', editedCases],
  ['recursive unions through properties and items', recursiveCases],
  ['union roots', unionRootCases],
] as const

const show = (c: Case): string => `role ${c.role}\nbefore ${JSON.stringify(c.before)}\nafter ${JSON.stringify(c.after)}`

describe('compareSchemas is sound (property, judged by ajv)', () => {
  it.each(caseFamilies)('never says compatible when a generated value contradicts it: %s', (_, caseArb) => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { verdict, reasons } = compareSchemas(c.before, c.after, c.role)
        if (verdict !== 'compatible') {
          expect(reasons.length).toBeGreaterThan(0)
          return
        }
        const [source, target] = c.role === 'output' ? [c.after, asReaderSees(c.before)] : [c.before, c.after]
        const accepts = validator(source)
        const mustAccept = validator(target)
        for (const value of c.values) {
          if (!accepts(value)) continue
          if (!mustAccept(value)) {
            throw new Error(`unsound: ${show(c)}\nvalue ${JSON.stringify(value)}\n${JSON.stringify(mustAccept.errors)}`)
          }
        }
      }),
      { numRuns: RUNS, endOnFailure: true },
    )
  }, TIMEOUT_MS)

  it.each(caseFamilies)('draws compatible and refused pairs and accepted values, so the property above proves something (fixed seed): %s', (_, caseArb) => {
    // Counted on a fixed seed: the shares are facts about the generator, and a random seed would
    // make their bounds a coin toss. The property itself runs on random seeds.
    let compatible = 0
    let checked = 0
    for (const c of fc.sample(caseArb, { seed: COVERAGE_SEED, numRuns: COVERAGE_RUNS })) {
      if (compareSchemas(c.before, c.after, c.role).verdict !== 'compatible') continue
      compatible++
      const accepts = validator(c.role === 'output' ? c.after : c.before)
      checked += c.values.filter((value) => accepts(value)).length
    }
    expect(compatible).toBeGreaterThan(COVERAGE_RUNS / 10)
    expect(COVERAGE_RUNS - compatible).toBeGreaterThan(COVERAGE_RUNS / 10)
    expect(checked).toBeGreaterThan(COVERAGE_RUNS / 10)
  }, TIMEOUT_MS)

  it('says compatible for every schema compared with itself, in both roles', () => {
    fc.assert(
      fc.property(schemaPairArb, fc.constantFrom<SchemaRole>('output', 'input'), (pair, role) => {
        // Same digest: no proof needed. A structurally equal copy must not depend on identity.
        expect(compareSchemas(pair.full, structuredClone(pair.full), role).verdict).not.toBe('breaking')
      }),
      { numRuns: Math.min(RUNS, 100) },
    )
  })

  it('says compatible for every expression tree compared with itself, in both roles', () => {
    fc.assert(
      fc.property(fc.oneof(recursiveContractSchemaArb, recursiveUnionPairArb.map((p) => p.full)), fc.constantFrom<SchemaRole>('output', 'input'), (schema, role) => {
        expect(compareSchemas(schema, structuredClone(schema), role)).toEqual({ verdict: 'compatible', reasons: [] })
      }),
      { numRuns: Math.min(RUNS, 200) },
    )
  })
})

/** What the dispatcher accepts as the input of a native single-result tool: the schema, and no `result_view` key. */
function runTimeAccepts(schema: unknown): (value: unknown) => boolean {
  const valid = validator(schema)
  return (value) => valid(value) && !(typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, 'result_view'))
}

describe('compareContracts on the input of a single-result tool (property, judged by ajv and the run-time selector rule)', () => {
  const pairs = fc.oneof(editedPairsOf(unionRootSchemaArb), editedPairsOf(contractSchemaArb))
  const cases = pairs.chain(({ a, b }) => fc.tuple(fc.constant(a), fc.constant(b), valuesOf(a)))
  const inputVerdict = (before: JsonSchema, after: JsonSchema) =>
    compareContracts(singleResultLock(before), singleResultLock(after)).tools[0]!.schemas.find((s) => s.schema === 'input')

  it('never says compatible when an old input the dispatcher accepted is refused by the new one: union roots and other edited pairs', () => {
    fc.assert(
      fc.property(cases, ([before, after, values]) => {
        const schema = inputVerdict(before, after)
        if (schema !== undefined && schema.verdict !== 'compatible') {
          expect(schema.reasons.length).toBeGreaterThan(0)
          return
        }
        const oldAccepts = runTimeAccepts(before)
        const newAccepts = runTimeAccepts(after)
        // Each value also with the selector a caller might send: the old tool refused it too.
        const withSelector = values.map((v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...v, result_view: 'full' } : v))
        for (const value of [...values, ...withSelector]) {
          if (!oldAccepts(value)) continue
          if (!newAccepts(value)) throw new Error(`unsound: before ${JSON.stringify(before)}\nafter ${JSON.stringify(after)}\nvalue ${JSON.stringify(value)}`)
        }
      }),
      { numRuns: RUNS, endOnFailure: true },
    )
  }, TIMEOUT_MS)

  it('draws compatible and refused input pairs and accepted old inputs, so the property above proves something (fixed seed)', () => {
    let compatible = 0
    let checked = 0
    for (const [before, after, values] of fc.sample(cases, { seed: COVERAGE_SEED, numRuns: COVERAGE_RUNS })) {
      const schema = inputVerdict(before, after)
      if (schema !== undefined && schema.verdict !== 'compatible') continue
      compatible++
      const oldAccepts = runTimeAccepts(before)
      checked += values.filter((value) => oldAccepts(value)).length
    }
    expect(compatible).toBeGreaterThan(COVERAGE_RUNS / 10)
    expect(COVERAGE_RUNS - compatible).toBeGreaterThan(COVERAGE_RUNS / 10)
    expect(checked).toBeGreaterThan(COVERAGE_RUNS / 10)
  }, TIMEOUT_MS)
})
