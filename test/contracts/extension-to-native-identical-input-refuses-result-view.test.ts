// An extension tool becomes native with the same open input schema: the input digest is unchanged,
// but the native single-result tool now refuses the `result_view` its old callers could send. The
// comparison skipped inputs of one digest, so it said `unchanged` for descriptors and locks (which
// carry no origin) and gave no reason when both origins were known.
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { compareContracts, contractLock, formatContractLock, parseContractLock } from 'result-views/contracts'

const output = { type: 'object', properties: { x: { type: 'number' } } }
const extension = defineTool({ id: 't', description: 'd', origin: 'extension', input: { type: 'object' }, output, handler: () => ({ x: 1 }) } as never)
const native = defineTool({ id: 't', description: 'd', input: { type: 'object' }, output, handler: () => ({ x: 1 }) } as never)

describe('an input of one digest read two ways', () => {
  it('really changes at run time: the old tool takes result_view, the new one refuses it', async () => {
    expect((await createDispatcher({ tools: [extension] }).invoke({ tool_id: 't', input: { result_view: 'full' } })).status).toBe('ok')
    const refused = await createDispatcher({ tools: [native] }).invoke({ tool_id: 't', input: { result_view: 'full' } })
    expect(refused).toMatchObject({ status: 'error', error: { code: 'tool_invalid_input' } })
  })

  const olds: ReadonlyArray<readonly [string, () => Parameters<typeof compareContracts>[0]]> = [
    ['descriptors', () => createDispatcher({ tools: [extension] }).list()],
    ['a lock read back from its file', () => parseContractLock(formatContractLock(contractLock(createDispatcher({ tools: [extension] }).list())))],
    ['tools', () => [extension]],
  ]
  for (const [label, old] of olds) {
    it(`is breaking with field_rejected at /properties/result_view, old side from ${label}`, () => {
      const comparison = compareContracts(old(), [native])
      const tool = comparison.tools[0]!
      expect(tool.breaking).toBe(true)
      const input = tool.schemas.find((s) => s.schema === 'input')
      expect(input?.verdict).toBe('breaking')
      expect(input?.reasons).toContainEqual(expect.objectContaining({ kind: 'breaking', code: 'field_rejected', new_path: '/properties/result_view' }))
    })
  }

  it('stays unchanged from native to native, from tools or a lock of tools (both record the origin)', () => {
    expect(compareContracts([native], [native]).tools[0]).toMatchObject({ status: 'unchanged', breaking: false })
    const lock = parseContractLock(formatContractLock(contractLock([native])))
    expect(compareContracts(lock, [native]).tools[0]).toMatchObject({ status: 'unchanged', breaking: false })
  })

  it('reads two sides of one input digest with no recorded origin (descriptors) as the same tool: unchanged', () => {
    const descriptors = createDispatcher({ tools: [native] }).list()
    expect(compareContracts(descriptors, descriptors).tools[0]).toMatchObject({ status: 'unchanged', breaking: false })
  })
})
