// Completeness of the view proof and of the compatibility prover on the property tests' own pair
// generators (test/support): how many of N generated pairs, none refuted by ajv, each accepts.
//
//   npx tsx scripts/prover-completeness.ts write <file> [N]   generate pairs, judge them, save them
//   npx tsx scripts/prover-completeness.ts measure <file>     run both provers of this checkout on them
//
// Judging: a view pair is valid when every generated full-valid value projects (by this checkout's
// projector) to a compact-valid value; a contract case when no generated value the must-accept side
// should accept is refused (ajv, own properties, `required: [""]` enforced). Pairs are judged once,
// at `write`, so that `measure` can run another checkout's provers on exactly the same pairs.
import { readFileSync, writeFileSync } from 'node:fs'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import fc from 'fast-check'
import { compileProjector, proveViewSubset, type JsonSchema } from 'result-views'
import { compareContracts, compareSchemas, type SchemaRole } from 'result-views/contracts'
import { jsonSchemaArbitrary } from 'result-views/testing'
import { asReaderSees } from '../test/support/reader-sees.js'
import { singleResultLock } from '../test/support/single-result-lock.js'
import { contractSchemaArb, editedPairsOf, recursiveContractSchemaArb, unionRootSchemaArb } from '../test/support/contract-schema-pairs.js'
import { recursiveUnionPairs, validSubsetPairArb, type SchemaPair } from '../test/support/view-schema-pairs.js'

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv
const validator = (schema: unknown): ValidateFunction =>
  addFormats(new Ajv({ strict: false, ownProperties: true, loopRequired: 0 })).compile(schema as JsonSchema)
const SEED = 28

/** A saved case: which prover, the family, the two schemas (and the role for contracts). */
interface Case {
  readonly prover: 'view' | 'schemas' | 'inputs'
  readonly family: string
  readonly a: unknown
  readonly b: unknown
  readonly role?: SchemaRole
}

function valuesOf(schema: unknown): unknown[] {
  try {
    return fc.sample(jsonSchemaArbitrary(schema as JsonSchema, { maxDepth: 3, maxArrayLength: 3 }), { numRuns: 6, seed: SEED })
  } catch {
    return []
  }
}

/** A view pair is refuted when a full-valid value projects to a compact-invalid one. */
function viewRefuted(pair: SchemaPair): boolean {
  const full = validator(pair.full)
  const compact = validator(pair.compact)
  const project = compileProjector(pair.compact)
  return valuesOf(pair.full).some((v) => full(v) && !compact(project(v)))
}

/** A contract case is refuted when a value the accepted side allows is refused by the accepting side. */
function schemasRefuted(before: unknown, after: unknown, role: SchemaRole): boolean {
  const [source, target] = role === 'output' ? [after, asReaderSees(before)] : [before, after]
  const accepts = validator(source)
  const mustAccept = validator(target)
  return valuesOf(source).some((v) => accepts(v) && !mustAccept(v))
}

/** What the dispatcher accepts as the input of a native single-result tool. */
function runTime(schema: unknown): (value: unknown) => boolean {
  const valid = validator(schema)
  return (v) => valid(v) && !(typeof v === 'object' && v !== null && !Array.isArray(v) && Object.hasOwn(v, 'result_view'))
}

function inputsRefuted(before: unknown, after: unknown): boolean {
  const [old, now] = [runTime(before), runTime(after)]
  const values = valuesOf(before)
  const withSelector = values.map((v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...v, result_view: 'full' } : v))
  return [...values, ...withSelector].some((v) => old(v) && !now(v))
}

function write(file: string, n: number): void {
  const cases: Case[] = []
  let refuted = 0
  let unjudged = 0
  const left: Record<string, { refuted: number; unjudged: number }> = {}
  const keep = (c: Case, judge: () => boolean): void => {
    const tally = (left[caseKey(c)] ??= { refuted: 0, unjudged: 0 })
    let isRefuted: boolean
    try {
      isRefuted = judge()
    } catch {
      // ajv cannot compile it (an edit moved `$defs` away from its `$ref`s) or the projector refuses it.
      unjudged++
      tally.unjudged++
      return
    }
    if (isRefuted) {
      refuted++
      tally.refuted++
    } else cases.push(c)
  }
  const sample = <T>(arb: fc.Arbitrary<T>): T[] => fc.sample(arb, { numRuns: n, seed: SEED })
  for (const [family, pairs] of [['all node kinds', validSubsetPairArb], ['recursive unions', recursiveUnionPairs(0)]] as const) {
    for (const pair of sample(pairs)) {
      keep({ prover: 'view', family, a: pair.compact, b: pair.full }, () => viewRefuted(pair))
      // The same pairs as contract cases: the compact (wider) schema must accept.
      keep({ prover: 'schemas', family, a: pair.compact, b: pair.full, role: 'output' }, () => schemasRefuted(pair.compact, pair.full, 'output'))
      keep({ prover: 'schemas', family, a: pair.full, b: pair.compact, role: 'input' }, () => schemasRefuted(pair.full, pair.compact, 'input'))
    }
  }
  for (const [family, schemas] of [['edited', contractSchemaArb], ['recursive unions, edited', recursiveContractSchemaArb], ['union roots, edited', unionRootSchemaArb]] as const) {
    for (const [{ a, b }, role] of sample(fc.tuple(editedPairsOf(schemas), fc.constantFrom<SchemaRole>('output', 'input')))) {
      keep({ prover: 'schemas', family, a, b, role }, () => schemasRefuted(a, b, role))
    }
  }
  for (const { a, b } of sample(editedPairsOf(unionRootSchemaArb))) keep({ prover: 'inputs', family: 'union roots, single-result input', a, b }, () => inputsRefuted(a, b))
  writeFileSync(file, JSON.stringify({ n, seed: SEED, left, cases }))
  console.log(`${cases.length} unrefuted cases written to ${file} (left out: ${refuted} refuted by ajv, ${unjudged} not compilable)`)
}


function accepts(c: Case): boolean {
  switch (c.prover) {
    case 'view':
      return proveViewSubset(c.a as JsonSchema, c.b as JsonSchema).ok
    case 'schemas':
      return compareSchemas(c.a, c.b, c.role!).verdict === 'compatible'
    case 'inputs': {
      const input = compareContracts(singleResultLock(c.a), singleResultLock(c.b)).tools[0]!.schemas.find((s) => s.schema === 'input')
      return input === undefined || input.verdict === 'compatible'
    }
  }
}

/** The row a case is counted in: the prover (and role), then the pair family. */
function caseKey(c: Case): string {
  return `${c.prover === 'view' ? 'proveViewSubset' : c.prover === 'inputs' ? 'compareContracts (input)' : `compareSchemas (${c.role})`} · ${c.family}`
}

function measure(file: string): void {
  const { n, seed, left, cases } = JSON.parse(readFileSync(file, 'utf8')) as { n: number; seed: number; left: Record<string, { refuted: number; unjudged: number }>; cases: Case[] }
  const rows = new Map<string, { total: number; accepted: number }>()
  for (const c of cases) {
    const key = caseKey(c)
    const row = rows.get(key) ?? { total: 0, accepted: 0 }
    row.total++
    if (accepts(c)) row.accepted++
    rows.set(key, row)
  }
  console.log(`N = ${n} generated per family, seed ${seed}; accepted of the unrefuted:`)
  for (const [key, { total, accepted }] of [...rows].sort()) {
    const out = left[key] ?? { refuted: 0, unjudged: 0 }
    console.log(`  ${key}: ${accepted} / ${total} (${((100 * accepted) / total).toFixed(1)} %); left out: ${out.refuted} refuted by ajv, ${out.unjudged} not compilable`)
  }
}

const [command, file, count] = process.argv.slice(2)
if (command === 'write' && file !== undefined) write(file, Number(count ?? 1000))
else if (command === 'measure' && file !== undefined) measure(file)
else {
  console.error('usage: npx tsx scripts/prover-completeness.ts write <file> [N] | measure <file>')
  process.exitCode = 2
}
