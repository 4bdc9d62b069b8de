import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, describeTool, isUsageError, schemaDigest } from 'result-views'
import {
  CONTRACT_LOCK_FORMAT,
  CONTRACT_LOCK_VERSION,
  contractLock,
  formatContractLock,
  isContractsError,
  parseContractLock,
  type ContractLock,
} from 'result-views/contracts'
import { fixtures } from '../../examples/catalogs/current.js'
import { exampleTools } from '../../examples/tools/catalog.js'
import { thrown } from '../support/outcomes.js'

/** A token counter with exact, tokenizer-free figures: one token per character. */
const perCharacter = (text: string): number => text.length

/** The problems of a ContractsError thrown by `run`. */
function problemsOf(run: () => unknown): Array<{ path: string; code: string; message: string }> {
  try {
    run()
  } catch (error) {
    expect(isContractsError(error), String(error)).toBe(true)
    expect(isUsageError(error)).toBe(true)
    expect(error).toMatchObject({ code: 'contracts_invalid' })
    return [...(error as { problems: Array<{ path: string; code: string; message: string }> }).problems]
  }
  throw new Error('expected a ContractsError')
}

describe('contractLock', () => {
  it('records per tool, sorted by ID: kind, origin, the input schema callers see and every view, each with its schema digest', () => {
    const tools = exampleTools()
    const lock = contractLock(tools)
    expect(lock.format).toBe(CONTRACT_LOCK_FORMAT)
    expect(lock.version).toBe(CONTRACT_LOCK_VERSION)
    expect(Object.keys(lock.tools)).toEqual([
      'compozy__session_archive',
      'compozy__session_create',
      'compozy__session_spawn',
      'compozy__session_status',
      'compozy__skill_list',
      'compozy__skill_search',
      'compozy__skill_view',
    ])
    const status = describeTool(tools[0])
    expect(lock.tools.compozy__session_status).toEqual({
      kind: 'viewed',
      origin: 'native',
      input: { schema: status.input_schema, digest: schemaDigest(status.input_schema) },
      views: { compact: status.output_views!.compact, full: status.output_views!.full },
    })
    // The input callers see: a viewed tool's lists result_view.
    expect((lock.tools.compozy__session_status!.input.schema.properties as Record<string, unknown>).result_view).toBeDefined()
    const skill = describeTool(tools[4])
    expect(lock.tools.compozy__skill_view).toEqual({
      kind: 'single',
      origin: 'native',
      input: { schema: skill.input_schema, digest: schemaDigest(skill.input_schema) },
      views: { output: { schema: skill.output_schema, digest: skill.output_schema_digest } },
    })
  })

  it('records the paths of value-dependent compact rules as omit_when, and leaves every digest as the schema digest', () => {
    const tools = exampleTools()
    const lock = contractLock(tools)
    const list = lock.tools.compozy__skill_list!
    expect(list).toMatchObject({ kind: 'viewed', omit_when: ['/skills/*/diagnostics'] })
    expect(lock.tools.compozy__skill_search).toMatchObject({ omit_when: ['/skills/*/diagnostics'] })
    expect(lock.tools.compozy__session_status).not.toHaveProperty('omit_when')
    expect((list.views as { compact: unknown }).compact).toEqual({ schema: tools[5].output.compact, digest: schemaDigest(tools[5].output.compact) })
    expect(parseContractLock(formatContractLock(lock))).toEqual(lock)
  })

  it('writes identical bytes on two runs, whatever the catalog order (sorted keys, two-space indent, final newline)', () => {
    const first = formatContractLock(contractLock(exampleTools()))
    const second = formatContractLock(contractLock([...exampleTools()].reverse()))
    expect(second).toBe(first)
    expect(first.endsWith('}\n')).toBe(true)
    expect(first.startsWith('{\n  "format": "result-views/tool-contracts",\n  "tools": {\n    "compozy__session_archive": {\n')).toBe(true)
    // Every object's keys are in sorted order, at every depth.
    const check = (value: unknown): void => {
      if (typeof value !== 'object' || value === null) return
      if (!Array.isArray(value)) expect(Object.keys(value)).toEqual(Object.keys(value).sort())
      for (const child of Object.values(value)) check(child)
    }
    check(JSON.parse(first))
  })

  it('keeps array order: a required list stays as declared (so reordered fields change a digest, on purpose)', () => {
    const make = (required: string[]) => defineTool({
      id: 'notes__read', description: 'd', input: Type.Object({ id: Type.String() }),
      output: { type: 'object', properties: { b: { type: 'string' }, a: { type: 'string' } }, required } as never, handler: () => ({ a: '', b: '' }),
    })
    const text = formatContractLock(contractLock([make(['b', 'a'])]))
    expect(text).toMatch(/"required": \[\s*"b",\s*"a"\s*\]/)
    expect(contractLock([make(['a', 'b'])]).tools.notes__read!.views).not.toEqual(contractLock([make(['b', 'a'])]).tools.notes__read!.views)
  })

  it('gives the same lock from tools, their descriptors and a dispatcher (a single-result descriptor has no origin)', () => {
    const tools = exampleTools()
    const fromTools = contractLock(tools)
    const fromDispatcher = contractLock(createDispatcher({ tools }))
    const fromDescriptors = contractLock(tools.map(describeTool))
    expect(fromDescriptors).toEqual(fromDispatcher)
    const { origin, ...skillWithoutOrigin } = fromTools.tools.compozy__skill_view!
    expect(origin).toBe('native')
    expect(fromDispatcher.tools.compozy__skill_view).toEqual(skillWithoutOrigin)
    expect(fromDispatcher.tools.compozy__session_status).toEqual(fromTools.tools.compozy__session_status)
  })

  it('copies the schemas: changing the lock does not change the tools', () => {
    const tools = exampleTools()
    const lock = contractLock(tools) as { tools: Record<string, { input: { schema: Record<string, unknown> } }> }
    lock.tools.compozy__skill_view!.input.schema.type = 'array'
    expect(describeTool(tools[4]).input_schema.type).toBe('object')
  })

  it('records the compact budget measured on the fixtures of the tools it lists', () => {
    const lock = contractLock(exampleTools(), { fixtures, countTokens: perCharacter })
    const budget = lock.tools.compozy__session_status!.budget!
    expect(budget).toMatchObject({ tokenizer: 'custom', records: fixtures.compozy__session_status.length })
    // One token per character of canonical (ASCII) JSON: tokens equal bytes.
    expect(budget.compact_tokens).toBe(budget.compact_bytes)
    expect(budget.compact_bytes).toBeLessThan(budget.full_bytes)
    expect(lock.tools.compozy__session_create!.budget).toBeUndefined()
    expect(contractLock(exampleTools(), { fixtures }).tools.compozy__session_status!.budget!.tokenizer).toBe('o200k_base')
  })

  it('refuses a catalog that is none, holes, duplicates, and fixtures it cannot measure, every problem at once', () => {
    expect(problemsOf(() => contractLock('tools' as never))).toEqual([expect.objectContaining({ path: '/tools', code: 'invalid_catalog' })])
    const sparse: unknown[] = []
    sparse.length = 2 ** 32 - 1
    expect(problemsOf(() => contractLock(sparse as never))).toEqual([expect.objectContaining({ path: '/tools', code: 'sparse_catalog' })])
    const [status, , , , skill] = exampleTools()
    expect(problemsOf(() => contractLock([status, 42, status] as never)).map((p) => [p.path, p.code])).toEqual([
      ['/tools/1', 'not_a_tool'],
      ['/tools/2', 'duplicate_tool_id'],
    ])
    const problems = problemsOf(() => contractLock([status, skill, describeTool(exampleTools()[1])], {
      fixtures: { nope: [], compozy__skill_view: [], compozy__session_create: [] },
      countTokens: perCharacter,
    }))
    expect(problems.map((p) => [p.path, p.code])).toEqual([
      ['/fixtures/nope', 'unknown_tool'],
      ['/fixtures/compozy__skill_view', 'not_viewed'],
      ['/fixtures/compozy__session_create', 'descriptor_only'],
    ])
    const bad = problemsOf(() => contractLock([status], { fixtures: { compozy__session_status: [{ session: 1 }] }, countTokens: perCharacter }))
    expect(bad).toEqual([expect.objectContaining({ path: '/fixtures/compozy__session_status/0', code: 'not_full_valid' })])
  })

  it('refuses a catalog whose list() throws, naming the cause', () => {
    const problems = problemsOf(() => contractLock({ list: () => { throw new Error('db down') } } as never))
    expect(problems).toEqual([expect.objectContaining({ path: '/tools', code: 'unreadable_catalog', message: expect.stringContaining('db down') })])
  })
})

describe('parseContractLock', () => {
  const lock = contractLock(exampleTools(), { fixtures, countTokens: perCharacter })
  const text = formatContractLock(lock)

  it('reads back what formatContractLock wrote, as text or as a value', () => {
    expect(parseContractLock(text)).toEqual(lock)
    expect(parseContractLock(JSON.parse(text))).toEqual(lock)
    expect(formatContractLock(parseContractLock(text))).toBe(text)
  })

  const edited = (edit: (lock: Record<string, any>) => void): unknown => {
    const copy = JSON.parse(text)
    edit(copy)
    return copy
  }

  it('refuses text that is not JSON and values that are not plain JSON', () => {
    expect(problemsOf(() => parseContractLock('{"format":'))).toEqual([expect.objectContaining({ path: '', code: 'not_json' })])
    expect(problemsOf(() => parseContractLock({ format: CONTRACT_LOCK_FORMAT, version: 1, tools: { x: new Date() } }))).toEqual([expect.objectContaining({ code: 'not_json' })])
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error('trap') } })
    expect(problemsOf(() => parseContractLock(hostile))).toEqual([expect.objectContaining({ code: 'not_json' })])
  })

  it('refuses another format, a newer version, unknown keys, bad kinds and hand-edited digests, at JSON Pointers', () => {
    expect(problemsOf(() => parseContractLock(edited((l) => { l.version = 2 })))).toEqual([
      expect.objectContaining({ path: '/version', code: 'unknown_version', message: expect.stringContaining('newer result-views') }),
    ])
    expect(problemsOf(() => parseContractLock(edited((l) => { l.format = 'npm-lock' }))).map((p) => p.path)).toEqual(['/format'])
    const problems = problemsOf(() => parseContractLock(edited((l) => {
      l.extra = true
      l.tools.compozy__skill_view.kind = 'multi'
      l.tools.compozy__session_status.views.compact.schema.properties.session.type = 'array'
      l.tools.compozy__session_status.budget.records = -1
      l.tools.compozy__session_spawn.origin = 'remote'
      l.tools['a/b~c'] = { kind: 'single', input: {}, views: { output: 1 } }
      l.tools.compozy__skill_list.omit_when = ['/z', '/a']
      l.tools.compozy__skill_search.omit_when = []
      l.tools.compozy__session_create.omit_when = ['/session/x', '/session/x']
      l.tools.compozy__skill_view.omit_when = ['/x']
    })))
    expect(problems.map((p) => [p.path, p.code])).toEqual([
      ['/extra', 'unknown_key'],
      ['/tools/a~1b~0c/input/schema', 'invalid_schema'],
      ['/tools/a~1b~0c/views/output', 'invalid_schema_contract'],
      ['/tools/compozy__session_create/omit_when', 'invalid_omit_when'],
      ['/tools/compozy__session_spawn/origin', 'invalid_origin'],
      ['/tools/compozy__session_status/budget/records', 'invalid_budget'],
      ['/tools/compozy__session_status/views/compact/digest', 'digest_mismatch'],
      ['/tools/compozy__skill_list/omit_when', 'invalid_omit_when'],
      ['/tools/compozy__skill_search/omit_when', 'invalid_omit_when'],
      ['/tools/compozy__skill_view/omit_when', 'invalid_omit_when'],
      ['/tools/compozy__skill_view/kind', 'invalid_kind'],
    ])
  })

  it('refuses what no contractLock writes: a budget on a single-result tool, a budget of 0 records, a viewed tool of origin mcp (regression: read as valid)', () => {
    const problems = problemsOf(() => parseContractLock(edited((l) => {
      l.tools.compozy__skill_view.budget = { ...l.tools.compozy__session_status.budget }
      l.tools.compozy__session_status.budget.records = 0
      l.tools.compozy__session_status.origin = 'mcp'
    })))
    expect(problems.map((p) => [p.path, p.code])).toEqual([
      ['/tools/compozy__session_status/budget/records', 'invalid_budget'],
      ['/tools/compozy__session_status/origin', 'invalid_origin'],
      ['/tools/compozy__skill_view/budget', 'invalid_budget'],
    ])
  })

  it('keeps a tool ID "__proto__" as data (regression: assignment would set the prototype)', () => {
    const withProto = text.replace('"compozy__skill_view"', '"__proto__"')
    const read = parseContractLock(withProto) as ContractLock
    expect(Object.getPrototypeOf(read.tools)).toBe(Object.prototype)
    expect(Object.keys(read.tools)).toContain('__proto__')
    expect(Object.hasOwn(read.tools, '__proto__')).toBe(true)
  })
})

describe('contractLock: descriptor catalogs are checked like defined tools', () => {
  const tool = defineTool({ id: 'notes__read', description: 'd', input: Type.Object({}), output: Type.Object({ id: Type.String() }), handler: () => ({ id: 'a' }) })
  const descriptor = describeTool(tool)
  const problemsOf = (catalog: readonly unknown[]): unknown => {
    const error = thrown(() => contractLock(catalog as never))
    expect(isContractsError(error)).toBe(true)
    return (error as { problems: unknown }).problems
  }

  it('descriptor catalog raw errors: a cyclic, a 100,000-deep or a lone-surrogate output_schema is invalid_schema, not a TypeError or RangeError', () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} }
    ;(cyclic.properties as Record<string, unknown>).self = cyclic
    let deep: unknown = {}
    for (let i = 0; i < 100_000; i++) deep = { items: deep }
    for (const schema of [cyclic, deep, { type: 'object', properties: { '\uD800': {} } }]) {
      expect(problemsOf([{ ...descriptor, output_schema: schema }])).toContainEqual(expect.objectContaining({ path: '/tools/0/output_schema', code: 'invalid_schema' }))
    }
    expect(problemsOf([{ ...descriptor, input_schema: cyclic }])).toContainEqual(expect.objectContaining({ path: '/tools/0/input_schema', code: 'invalid_schema' }))
  })

  it('descriptor catalog unreadable lock: a digest that is not its schema\'s is digest_mismatch, so every lock written reads back', () => {
    expect(problemsOf([{ ...descriptor, output_schema_digest: 'f'.repeat(64) }])).toEqual([expect.objectContaining({ path: '/tools/0/output_schema_digest', code: 'digest_mismatch' })])
    const lock = contractLock([descriptor])
    expect(parseContractLock(formatContractLock(lock))).toEqual(lock)
  })
})
