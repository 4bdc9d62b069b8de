// A single-result tool whose input root is a union: the dispatcher refuses `result_view` beside the
// input schema at run time, which the comparison used to model by writing `properties` beside the
// new schema's `anyOf`, a keyword the proof refuses there. Union roots arrive from lock files (a
// hand-written lock, or another library's descriptors).
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { defineTool, schemaDigest, type JsonSchema } from 'result-views'
import { compareContracts, compareSchemas, contractLock, type ContractLock } from 'result-views/contracts'

const single = defineTool({ id: 't', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })
const viewed = defineTool({
  id: 't', description: 'd', input: Type.Object({}), handler: () => ({ id: 'a' }),
  output: { compact: Type.Object({ id: Type.String() }), full: Type.Object({ id: Type.String() }) },
})

/** A lock of tool `t` (single-result and native unless `base` says otherwise) with this input schema. */
function lockWith(input: JsonSchema, base: ContractLock = contractLock([single])): ContractLock {
  const contract = base.tools.t!
  return { ...base, tools: { t: { ...contract, input: { schema: input, digest: schemaDigest(input) } } } }
}

const inputVerdict = (before: ContractLock, after: ContractLock) => {
  const schema = compareContracts(before, after).tools[0]!.schemas.find((s) => s.schema === 'input')!
  return { verdict: schema.verdict, codes: schema.reasons.map((r) => `${r.kind} ${r.code}`) }
}

const closedName: JsonSchema = { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false }
const objectOrNumber: JsonSchema = { anyOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { type: 'number' }] }
const objectNumberOrString: JsonSchema = { anyOf: [...(objectOrNumber.anyOf as JsonSchema[]), { type: 'string' }] }

describe('compareContracts: a single-result tool with a union input root', () => {
  it('calls a closed object widened to a union that accepts it compatible, as compareSchemas does (regression: breaking)', () => {
    const after: JsonSchema = { anyOf: [{}, { type: 'number' }] }
    expect(compareSchemas(closedName, after, 'input').verdict).toBe('compatible')
    expect(inputVerdict(lockWith(closedName), lockWith(after))).toEqual({ verdict: 'compatible', codes: [] })
  })

  it('calls a widened union input compatible (regression: unproven, "properties" beside "anyOf")', () => {
    expect(inputVerdict(lockWith(objectOrNumber), lockWith(objectNumberOrString))).toEqual({ verdict: 'compatible', codes: [] })
  })

  it('calls a narrowed union input breaking, and only for what the old input accepted', () => {
    expect(inputVerdict(lockWith(objectNumberOrString), lockWith(objectOrNumber))).toEqual({ verdict: 'breaking', codes: ['breaking type_narrowed'] })
  })

  it('still says the selector is refused when a viewed tool becomes a single-result tool with a union input', () => {
    const before = contractLock([viewed])
    const after = lockWith({ anyOf: [{}, { type: 'number' }] })
    const schema = compareContracts(before, after).tools[0]!.schemas.find((s) => s.schema === 'input')!
    expect(schema.verdict).toBe('breaking')
    expect(schema.reasons.map((r) => [r.code, r.field])).toContainEqual(['field_rejected', 'result_view'])
  })
})
