// The reasons of one comparison come in one order whether the old side is a catalog (properties in
// declaration order) or a lock file (keys sorted): breaking first, then by old_path, new_path,
// code and message.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { defineTool } from 'result-views'
import { compareContracts, compareSchemas, contractLock, formatContractLock, parseContractLock, type ContractReason } from 'result-views/contracts'

const tool = (output: object) =>
  defineTool({ id: 'notes__read', description: 'Read a note.', input: Type.Object({}), output: output as never, handler: () => ({}) as never })

const reasonsOf = (before: Parameters<typeof compareContracts>[0], after: Parameters<typeof compareContracts>[1]): readonly ContractReason[] =>
  compareContracts(before, after).tools[0]!.schemas[0]!.reasons

describe('reason order', () => {
  it('is the same from a catalog and from its lock file (regression: declaration order against sorted keys)', () => {
    const old = () => [tool(Type.Object({ zeta: Type.String(), alpha: Type.String(), mid: Type.Optional(Type.Number()) }))]
    const now = [tool(Type.Object({ mid: Type.Optional(Type.Union([Type.Number(), Type.Null()])) }))]
    const fromCatalog = reasonsOf(old(), now)
    const fromLock = reasonsOf(parseContractLock(formatContractLock(contractLock(old()))), now)
    expect(fromCatalog.length).toBeGreaterThan(2)
    expect(fromLock).toEqual(fromCatalog)
    expect(fromCatalog.map((r) => r.field)).toEqual(['alpha', 'mid', 'zeta'])
  })

  it('puts breaking reasons first, then sorts by old_path, new_path, code and message', () => {
    const { reasons } = compareSchemas(
      { type: 'object', properties: { b: { type: 'string' }, a: { type: 'string', pattern: '^x' } } },
      { type: 'object', properties: { a: { type: 'string' } } },
      'output',
    )
    const kinds = reasons.map((r) => r.kind)
    expect(kinds).toEqual([...kinds].sort((x, y) => (x === y ? 0 : x === 'breaking' ? -1 : 1)))
    for (let i = 1; i < reasons.length; i++) {
      const [p, q] = [reasons[i - 1]!, reasons[i]!]
      if (p.kind !== q.kind) continue
      const key = (r: ContractReason) => [r.old_path, r.new_path, r.code, r.message]
      expect(key(p).join('\u0000') <= key(q).join('\u0000')).toBe(true)
    }
  })
})
