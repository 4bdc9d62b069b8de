// Soundness of the contract verdicts, the way test/schema/ proves the view proof sound: random
// schema pairs, values generated from the schema whose values must be accepted, and ajv as the
// judge. Whenever compareSchemas says "compatible", no generated value may contradict it.
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { JsonSchema } from 'result-views'
import { compareSchemas, type SchemaRole } from 'result-views/contracts'
import { isSchemaArbitraryError, jsonSchemaArbitrary } from 'result-views/testing'
import { editedPairArb } from '../support/contract-schema-pairs.js'
import { schemaPairArb } from '../support/view-schema-pairs.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 300)
const TIMEOUT_MS = Math.max(60_000, RUNS * 60)

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv

/** A validator in a fresh ajv (schemas may share an `$id`) that reads own properties only, as the dispatcher does. */
function validator(schema: unknown): ValidateFunction {
  return addFormats(new Ajv({ strict: false, ownProperties: true })).compile(schema as JsonSchema)
}

/**
 * The old output schema as its readers see it: a reader ignores fields it does not know, so an
 * `additionalProperties: false` is read as absent, except inside a union branch that shares its
 * JSON type (object or array) with another branch: there the closed object may be what keeps a
 * value out of that branch, so it and everything below it are read as written.
 */
function asReaderSees(schema: unknown, asWritten = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => asReaderSees(s, asWritten))
  if (typeof schema !== 'object' || schema === null) return schema
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && value === false && !asWritten) continue
    const read = (key === 'anyOf' || key === 'oneOf') && Array.isArray(value) ? unionAsReaderSees(value, asWritten) : asReaderSees(value, asWritten)
    Object.defineProperty(out, key, { value: read, enumerable: true, writable: true, configurable: true })
  }
  return out
}

function unionAsReaderSees(branches: readonly unknown[], asWritten: boolean): unknown[] {
  const objects = branches.filter((b) => mayBe(b, 'object')).length
  const arrays = branches.filter((b) => mayBe(b, 'array')).length
  return branches.map((b) => asReaderSees(b, asWritten || (objects > 1 && mayBe(b, 'object')) || (arrays > 1 && mayBe(b, 'array'))))
}

/** Whether a schema may accept a value of JSON type `type` (read generously: unsure means yes). */
function mayBe(schema: unknown, type: 'object' | 'array'): boolean {
  if (typeof schema === 'boolean') return schema
  if (typeof schema !== 'object' || schema === null) return true
  const s = schema as { type?: unknown; const?: unknown; enum?: unknown }
  const isType = (v: unknown): boolean => (type === 'array' ? Array.isArray(v) : typeof v === 'object' && v !== null && !Array.isArray(v))
  if ('const' in s) return isType(s.const)
  if (Array.isArray(s.enum)) return s.enum.some(isType)
  if (typeof s.type === 'string') return s.type === type
  if (Array.isArray(s.type)) return s.type.includes(type)
  return true
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

const show = (c: Case): string => `role ${c.role}\nbefore ${JSON.stringify(c.before)}\nafter ${JSON.stringify(c.after)}`

describe('compareSchemas is sound (property, judged by ajv)', () => {
  it.each([
    ['view-proof pairs', viewPairCases],
    ['edited pairs (closed objects, additionalProperties, patterns, untagged unions)', editedCases],
  ] as const)('never says compatible when a generated value contradicts it: %s', (_, caseArb) => {
    let compatible = 0
    let refused = 0
    let checked = 0
    fc.assert(
      fc.property(caseArb, (c) => {
        const { verdict, reasons } = compareSchemas(c.before, c.after, c.role)
        if (verdict !== 'compatible') {
          refused++
          expect(reasons.length).toBeGreaterThan(0)
          return
        }
        compatible++
        const [source, target] = c.role === 'output' ? [c.after, asReaderSees(c.before)] : [c.before, c.after]
        const accepts = validator(source)
        const mustAccept = validator(target)
        for (const value of c.values) {
          if (!accepts(value)) continue
          checked++
          if (!mustAccept(value)) {
            throw new Error(`unsound: ${show(c)}\nvalue ${JSON.stringify(value)}\n${JSON.stringify(mustAccept.errors)}`)
          }
        }
      }),
      { numRuns: RUNS, endOnFailure: true },
    )
    if (process.env.SHOW_COUNTS) console.log({ compatible, refused, checked })
    // Both outcomes must be exercised, or the property proves little.
    expect(compatible).toBeGreaterThan(RUNS / 10)
    expect(refused).toBeGreaterThan(RUNS / 10)
    expect(checked).toBeGreaterThan(RUNS / 10)
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
})
