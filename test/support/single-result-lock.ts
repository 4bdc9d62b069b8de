// A contract lock of one native single-result tool `t`, with the input schema a test gives it (a
// lock may hold any input schema, a union root included, where defineTool takes objects only).
import Type from 'typebox'
import { defineTool, schemaDigest, type JsonSchema } from 'result-views'
import { contractLock, type ContractLock } from 'result-views/contracts'

const base = contractLock([defineTool({ id: 't', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })])

/** The lock of tool `t` with this input schema (and its digest). */
export function singleResultLock(input: unknown): ContractLock {
  return { ...base, tools: { t: { ...base.tools.t!, input: { schema: input as JsonSchema, digest: schemaDigest(input) } } } }
}
