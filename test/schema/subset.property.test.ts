import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileProjector, proveViewSubset, type JsonSchema } from 'result-views'
import { jsonSchemaArbitrary } from 'result-views/testing'
import { recursiveUnionPairArb, schemaPairArb, type SchemaPair } from '../support/view-schema-pairs.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 400)
/** Per-test timeout: about 40 ms a run, at least the default minute. */
const TIMEOUT_MS = Math.max(60_000, RUNS * 40)
/** The generator's coverage is counted on this seed and this many draws. */
const COVERAGE_SEED = 20_261_201
const COVERAGE_RUNS = 100

// ajv-formats is CommonJS: its function may sit on `default` under ESM interop.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv

/**
 * A validator in a fresh ajv instance (schemas may carry the same `$id`), formats included.
 * loopRequired 0: ajv's default unrolled `required` check never enforces `required: [""]`
 * (ajv-validator/ajv#2077), so the judge would miss a missing empty-string key.
 */
function validator(schema: JsonSchema): ValidateFunction {
  return addFormats(new Ajv({ strict: false, loopRequired: 0 })).compile(schema)
}

/** The path of the first place `compact` is not `full` restricted to some keys (undefined: none). */
function notSubValue(compact: unknown, full: unknown, path = ''): string | undefined {
  if (typeof compact !== 'object' || compact === null) return Object.is(compact, full) || compact === full ? undefined : path
  if (typeof full !== 'object' || full === null || Array.isArray(compact) !== Array.isArray(full)) return path
  if (Array.isArray(compact)) {
    const items = full as unknown[]
    if (compact.length !== items.length) return path
    for (let i = 0; i < compact.length; i++) {
      const at = notSubValue(compact[i], items[i], `${path}/${i}`)
      if (at !== undefined) return at
    }
    return undefined
  }
  for (const key of Object.keys(compact)) {
    if (!Object.prototype.hasOwnProperty.call(full, key)) return `${path}/${key}`
    const at = notSubValue((compact as Record<string, unknown>)[key], (full as Record<string, unknown>)[key], `${path}/${key}`)
    if (at !== undefined) return at
  }
  return undefined
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key])
    Object.freeze(value)
  }
  return value
}

/** A pair with full-valid values generated from its full schema. */
const withValues = (pairs: fc.Arbitrary<SchemaPair>) => pairs.chain((pair) =>
  fc.tuple(fc.constant(pair), fc.array(jsonSchemaArbitrary(pair.full, { maxDepth: 3, maxArrayLength: 3 }), { minLength: 1, maxLength: 4 })),
)

/** The pair families: every node kind, and recursive unions referenced through a property or the items of their own branch. */
const families = [
  ['generated pairs', withValues(schemaPairArb), RUNS],
  // Values of a recursive tree cost more to generate and judge: fewer runs keep the time alike.
  ['recursive unions through properties and items', withValues(recursiveUnionPairArb), Math.ceil(RUNS / 4)],
] as const

const show = (pair: SchemaPair): string => `compact ${JSON.stringify(pair.compact)}\nfull ${JSON.stringify(pair.full)}`

describe('proveViewSubset is sound (property)', () => {
  it.each(families)('projects every full-valid value of an accepted pair into a compact-valid value holding full values at the same paths: %s', (_, pairWithValues, runs) => {
    fc.assert(
      fc.property(pairWithValues, ([pair, values]) => {
        const proof = proveViewSubset(pair.compact, pair.full)
        if (!proof.ok) {
          expect(proof.violations.length).toBeGreaterThan(0)
          return
        }
        const validFull = validator(pair.full)
        const validCompact = validator(pair.compact)
        const project = compileProjector(pair.compact)
        for (const value of values) {
          // ajv reads an absent optional `constructor` or `toString` through the prototype chain,
          // so a few generated values are not full-valid: the property is about those that are.
          if (!validFull(value)) continue
          const projected = project(value)
          if (!validCompact(projected)) {
            throw new Error(`unsound: ${show(pair)}\nvalue ${JSON.stringify(value)}\nprojected ${JSON.stringify(projected)}\n${JSON.stringify(validCompact.errors)}`)
          }
          const at = notSubValue(projected, value)
          if (at !== undefined) throw new Error(`projection changed or invented ${at}: ${show(pair)}\nvalue ${JSON.stringify(value)}`)
        }
      }),
      { numRuns: runs, endOnFailure: true },
    )
  }, TIMEOUT_MS)

  it.each(families)('draws accepted and rejected pairs and full-valid values, so the properties above prove something (fixed seed): %s', (_, pairWithValues) => {
    // Counted on a fixed seed: the share of accepted pairs is a fact about the generator, and a
    // random seed would make its bound a coin toss. The properties themselves run on random seeds.
    const drawn = fc.sample(pairWithValues, { seed: COVERAGE_SEED, numRuns: COVERAGE_RUNS })
    let accepted = 0
    let checked = 0
    for (const [pair, values] of drawn) {
      if (!proveViewSubset(pair.compact, pair.full).ok) continue
      accepted++
      const validFull = validator(pair.full)
      checked += values.filter((value) => validFull(value)).length
    }
    expect(accepted).toBeGreaterThan(COVERAGE_RUNS / 10)
    expect(COVERAGE_RUNS - accepted).toBeGreaterThan(COVERAGE_RUNS / 20)
    expect(checked).toBeGreaterThan(COVERAGE_RUNS / 10)
  }, TIMEOUT_MS)

  it.each(families)('rejects every pair for which some full-valid value projects to a compact-invalid one: %s', (_, pairWithValues, runs) => {
    // The contrapositive, stated on the values: finding a counterexample means the proof said no.
    fc.assert(
      fc.property(pairWithValues, ([pair, values]) => {
        const validCompact = validator(pair.compact)
        let project: ((v: unknown) => unknown) | undefined
        try {
          project = compileProjector(pair.compact)
        } catch {
          expect(proveViewSubset(pair.compact, pair.full).ok).toBe(false)
          return
        }
        const validFull = validator(pair.full)
        const counterexample = values.some((value) => validFull(value) && !validCompact(project!(value)))
        if (counterexample) expect(proveViewSubset(pair.compact, pair.full).ok).toBe(false)
      }),
      { numRuns: runs, endOnFailure: true },
    )
  }, TIMEOUT_MS)
})

describe('compileProjector (property)', () => {
  const projectable = schemaPairArb.filter((pair) => {
    try {
      compileProjector(pair.compact)
      return true
    } catch {
      return false
    }
  })
  const inputs = (pair: SchemaPair) => fc.oneof(jsonSchemaArbitrary(pair.full, { maxDepth: 3, maxArrayLength: 3 }), fc.jsonValue({ maxDepth: 3 }))

  it('is idempotent and never mutates its input, for valid and invalid inputs alike', () => {
    fc.assert(
      fc.property(projectable.chain((pair) => fc.tuple(fc.constant(pair), inputs(pair))), ([pair, input]) => {
        const project = compileProjector(pair.compact)
        const snapshot = structuredClone(input)
        const once = project(deepFreeze(input))
        expect(input).toEqual(snapshot)
        expect(project(deepFreeze(structuredClone(once)))).toEqual(once)
      }),
      { numRuns: RUNS, endOnFailure: true },
    )
  }, TIMEOUT_MS)
})
