import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, type Tool } from 'result-views'
import { compareContracts, contractLock, formatComparisonTable, isContractsError, parseContractLock, formatContractLock } from 'result-views/contracts'
import { tools as carelessTools } from '../../examples/catalogs/careless-release.js'
import { fixtures } from '../../examples/catalogs/current.js'
import { tools as preViewTools } from '../../examples/catalogs/pre-view.js'
import { exampleTools } from '../../examples/tools/catalog.js'

const perCharacter = (text: string): number => text.length

const note = (output: object, options: { id?: string; origin?: 'native' | 'extension'; input?: object } = {}): Tool =>
  defineTool({
    id: options.id ?? 'notes__read', description: 'Read a note.', origin: options.origin ?? 'native',
    input: (options.input ?? Type.Object({ id: Type.String() }, { additionalProperties: false })) as never,
    output: output as never, handler: () => ({}) as never,
  })

describe('compareContracts', () => {
  it('finds nothing drifted between a catalog and its own lock (or the lock read back from its file)', () => {
    const tools = exampleTools()
    const lock = contractLock(tools)
    for (const before of [lock, parseContractLock(formatContractLock(lock)), tools]) {
      const comparison = compareContracts(before, exampleTools())
      expect(comparison).toMatchObject({ drifted: false, breaking: false, summary: { added: 0, removed: 0, changed: 0, unchanged: 7, breaking: 0 } })
      expect(comparison.tools.every((t) => t.status === 'unchanged' && t.schemas.length === 0)).toBe(true)
    }
  })

  it('classifies the careless release: runtime.generation removed from compact, state grown in both views', () => {
    const comparison = compareContracts(contractLock(exampleTools()), carelessTools)
    expect(comparison).toMatchObject({ drifted: true, breaking: true, summary: { changed: 1, unchanged: 6, breaking: 1 } })
    const status = comparison.tools.find((t) => t.tool_id === 'compozy__session_status')!
    expect(status).toMatchObject({ status: 'changed', breaking: true, default_view_changed: false })
    expect(status.schemas.map((s) => [s.schema, s.verdict, s.reasons.map((r) => `${r.code} ${r.field}`)])).toEqual([
      ['compact', 'breaking', ['field_removed session.runtime.generation', 'enum_grown session.state']],
      ['full', 'breaking', ['enum_grown session.state']],
    ])
  })

  it('lists added tools as compatible and removed tools as breaking', () => {
    const [status, ...rest] = exampleTools()
    const comparison = compareContracts(rest, [status, ...rest.slice(1)])
    const byId = Object.fromEntries(comparison.tools.map((t) => [t.tool_id, t]))
    expect(byId.compozy__session_status).toMatchObject({ status: 'added', breaking: false, after_kind: 'viewed' })
    expect(byId.compozy__session_create).toMatchObject({ status: 'removed', breaking: true, before_kind: 'viewed' })
    expect(comparison.summary).toMatchObject({ added: 1, removed: 1, breaking: 1 })
  })

  it('flags a tool that gained views as a default-view change and compares its old output with both views', () => {
    const comparison = compareContracts(preViewTools, exampleTools())
    const status = comparison.tools.find((t) => t.tool_id === 'compozy__session_status')!
    expect(status).toMatchObject({ status: 'changed', default_view_changed: true, before_kind: 'single', after_kind: 'viewed', breaking: true })
    const compact = status.schemas.find((s) => s.schema === 'compact')!
    expect(compact.compared_with).toBe('output')
    expect(compact.verdict).toBe('breaking')
    expect(compact.reasons.filter((r) => r.code === 'field_removed').map((r) => r.field)).toContain('session.lineage.permission_policy')
    // The full view accepts the same records as the pre-view output: compatible, only the digest moved.
    expect(status.schemas.find((s) => s.schema === 'full')).toMatchObject({ compared_with: 'output', verdict: 'compatible', reasons: [] })
  })

  it('compares input schemas as inputs: a new required input is breaking, a new optional one on a closed input is not', () => {
    const output = Type.Object({ id: Type.String() })
    const before = [note(output)]
    const optional = compareContracts(before, [note(output, { input: Type.Object({ id: Type.String(), verbose: Type.Optional(Type.Boolean()) }, { additionalProperties: false }) })])
    expect(optional.tools[0]!.schemas).toEqual([expect.objectContaining({ schema: 'input', verdict: 'compatible' })])
    expect(optional).toMatchObject({ drifted: true, breaking: false })
    const required = compareContracts(before, [note(output, { input: Type.Object({ id: Type.String(), mode: Type.String() }, { additionalProperties: false }) })])
    expect(required.tools[0]!.schemas[0]).toMatchObject({ schema: 'input', verdict: 'breaking', reasons: [expect.objectContaining({ code: 'field_made_required', field: 'mode' })] })
  })

  it('counts unproven as breaking unless the author accepts it, for all tools or by ID', () => {
    const before = [note(Type.Object({ id: Type.String({ pattern: '^[a-z]+$' }) }))]
    const after = [note(Type.Object({ id: Type.String({ pattern: '^[a-z]{1,9}$' }) }))]
    expect(compareContracts(before, after)).toMatchObject({ breaking: true, tools: [{ schemas: [{ verdict: 'unproven', accepted: false }] }] })
    expect(compareContracts(before, after, { acceptUnproven: true })).toMatchObject({ drifted: true, breaking: false, tools: [{ schemas: [{ verdict: 'unproven', accepted: true }] }] })
    expect(compareContracts(before, after, { acceptUnproven: ['notes__read'] }).breaking).toBe(false)
    expect(compareContracts(before, after, { acceptUnproven: ['other'] }).breaking).toBe(true)
  })

  it('calls an origin change breaking (a native tool gains or loses its result_view handling)', () => {
    const output = Type.Object({ id: Type.String() })
    const comparison = compareContracts([note(output)], [note(output, { origin: 'extension' })])
    expect(comparison.tools[0]).toMatchObject({ status: 'changed', breaking: true, origin_changed: { before: 'native', after: 'extension' } })
  })

  it('reports rules added or removed (omit_when) as a change that is not breaking', () => {
    const output = Type.Object({ id: Type.String(), note: Type.Optional(Type.String()) })
    const viewed = (omitWhen?: Record<string, () => boolean>) =>
      defineTool({ id: 'notes__read', description: 'd', input: Type.Object({}), output: { compact: output, full: output }, ...(omitWhen === undefined ? {} : { omitWhen }), handler: () => ({ id: 'n' }) })
    const added = compareContracts([viewed()], [viewed({ '/note': () => true })])
    expect(added).toMatchObject({ drifted: true, breaking: false, tools: [{ status: 'changed', breaking: false, omit_when_changed: { before: [], after: ['/note'] }, schemas: [] }] })
    const removed = compareContracts(contractLock([viewed({ '/note': () => true })]), [viewed()])
    expect(removed.tools[0]).toMatchObject({ status: 'changed', breaking: false, omit_when_changed: { before: ['/note'], after: [] } })
    const same = compareContracts([viewed({ '/note': () => true })], [viewed({ '/note': () => false })])
    expect(same.tools[0]).toMatchObject({ status: 'unchanged' })
    expect(same.tools[0]).not.toHaveProperty('omit_when_changed')
  })

  describe('compact budgets', () => {
    const lock = contractLock(exampleTools(), { fixtures, countTokens: perCharacter, tokenizer: 'per-character' })

    it('passes a budget within the tolerance and fails one grown past it, naming both figures', () => {
      expect(compareContracts(lock, exampleTools(), { fixtures, countTokens: perCharacter, tokenizer: 'per-character' })).toMatchObject({ drifted: false, breaking: false })
      // Inflate the recorded budget's inverse: record less than was measured, as if the view had grown.
      const recorded = lock.tools.compozy__session_status!.budget!
      const shrunk = structuredClone(lock) as unknown as { tools: Record<string, { budget: Record<string, number> }> }
      shrunk.tools.compozy__session_status!.budget.compact_tokens = Math.floor(recorded.compact_tokens / 1.1)
      const grown = compareContracts(shrunk as never, exampleTools(), { fixtures, countTokens: perCharacter, tokenizer: 'per-character' })
      expect(grown).toMatchObject({ drifted: true, breaking: true })
      const budget = grown.tools.find((t) => t.tool_id === 'compozy__session_status')!.budget!
      expect(budget.status).toBe('exceeded')
      expect(budget.message).toMatch(/compact_tokens grew from \d+ to \d+ \(\+10\.\d %, tolerance 5\.0 %\)/)
      expect(compareContracts(shrunk as never, exampleTools(), { fixtures, countTokens: perCharacter, tokenizer: 'per-character', budgetTolerance: 0.2 }).drifted).toBe(false)
    })

    it('reports a budget added, removed, or measured on other fixtures as a change, not as breaking', () => {
      const plain = contractLock(exampleTools())
      const added = compareContracts(plain, exampleTools(), { fixtures, countTokens: perCharacter, tokenizer: 'per-character' })
      expect(added).toMatchObject({ drifted: true, breaking: false })
      expect(added.tools.find((t) => t.tool_id === 'compozy__session_status')!.budget!.status).toBe('added')
      const removed = compareContracts(lock, exampleTools())
      expect(removed.tools.find((t) => t.tool_id === 'compozy__session_status')!.budget!.status).toBe('removed')
      const fewer = compareContracts(lock, exampleTools(), { fixtures: { compozy__session_status: fixtures.compozy__session_status.slice(1) }, countTokens: perCharacter, tokenizer: 'per-character' })
      expect(fewer.tools.find((t) => t.tool_id === 'compozy__session_status')!.budget).toMatchObject({ status: 'incomparable' })
      expect(fewer.breaking).toBe(false)
    })

    it('custom-tokenizers-compared-as-one: two unnamed countTokens budgets are incomparable, not compared as one counter', () => {
      const words = (text: string): number => text.split(/\W+/).length
      const before = contractLock(exampleTools(), { fixtures, countTokens: words })
      expect(before.tools.compozy__session_status!.budget!.tokenizer).toBe('custom')
      const after = compareContracts(before, exampleTools(), { fixtures, countTokens: perCharacter })
      const budget = after.tools.find((t) => t.tool_id === 'compozy__session_status')!.budget!
      expect(budget.status).toBe('incomparable')
      expect(budget.message).toMatch(/unnamed countTokens .*tokenizer option/)
      expect(after.drifted).toBe(true)
    })

    it('custom-tokenizers-compared-as-one: named counters compare when the names match, and are incomparable when they differ', () => {
      const words = (text: string): number => text.split(/\W+/).length
      const named = contractLock(exampleTools(), { fixtures, countTokens: words, tokenizer: 'words-v1' })
      expect(named.tools.compozy__session_status!.budget!.tokenizer).toBe('words-v1')
      expect(compareContracts(named, exampleTools(), { fixtures, countTokens: words, tokenizer: 'words-v1' }).drifted).toBe(false)
      const other = compareContracts(named, exampleTools(), { fixtures, countTokens: perCharacter, tokenizer: 'per-character' })
      expect(other.tools.find((t) => t.tool_id === 'compozy__session_status')!.budget).toMatchObject({ status: 'incomparable' })
    })

    it('refuses a tokenizer name without countTokens, or one that is not 1-64 printable ASCII characters', () => {
      const cases: unknown[] = [
        { fixtures, tokenizer: 'words-v1' },
        { fixtures, countTokens: perCharacter, tokenizer: '' },
        { fixtures, countTokens: perCharacter, tokenizer: 'x'.repeat(65) },
        { fixtures, countTokens: perCharacter, tokenizer: 'bad\u001bname' },
        { fixtures, countTokens: perCharacter, tokenizer: 7 },
      ]
      for (const options of cases) {
        let thrown: unknown
        try {
          contractLock(exampleTools(), options as never)
        } catch (error) {
          thrown = error
        }
        expect(isContractsError(thrown)).toBe(true)
        expect((thrown as { problems: { path: string; code: string }[] }).problems).toEqual([expect.objectContaining({ path: '/tokenizer', code: 'invalid_tokenizer' })])
      }
    })
  })

  it('refuses bad options and sides that are neither a lock nor a catalog (ContractsError)', () => {
    const tools = exampleTools()
    const bad = [
      () => compareContracts(tools, tools, { budgetTolerance: -1 }),
      () => compareContracts(tools, tools, { acceptUnproven: 'all' as never }),
      () => compareContracts({ format: 'other' } as never, tools),
      () => compareContracts(tools, 7 as never),
    ]
    for (const run of bad) {
      let thrown: unknown
      try {
        run()
      } catch (error) {
        thrown = error
      }
      expect(isContractsError(thrown), String(run)).toBe(true)
    }
  })

  it('refuses an acceptUnproven list of 2 ** 32 - 1 holes at once (regression: every walked all of its indices)', () => {
    const holes: string[] = []
    holes.length = 2 ** 32 - 1
    const tools = exampleTools()
    let thrown: unknown
    try {
      compareContracts(tools, tools, { acceptUnproven: holes })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toMatchObject({ code: 'contracts_invalid', problems: [{ path: '/acceptUnproven', code: 'invalid_accept' }] })
  })
})

describe('formatComparisonTable', () => {
  it('prints one row per reason with tool, schema, verdict, field and reason, then says which changes are breaking', () => {
    const table = formatComparisonTable(compareContracts(contractLock(exampleTools()), carelessTools))
    const lines = table.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^tool\s+schema\s+verdict\s+field\s+reason$/)
    expect(lines[1]).toMatch(/^-+( {2}-+){4}$/)
    expect(lines[2]).toMatch(/^compozy__session_status\s+compact\s+breaking\s+session\.runtime\.generation\s+field_removed: property "generation" is in the old schema but not in the new schema$/)
    expect(table).toContain('Breaking: compozy__session_status (1 tool')
    expect(table).toContain('--update')
    expect(formatComparisonTable(compareContracts(exampleTools(), exampleTools()))).toBe('No contract drifted.\n')
  })
})

describe('formatComparisonTable rows', () => {
  it('shows a compatible change, an added tool and a default-view change in words', () => {
    const output = Type.Object({ id: Type.String() })
    const wider = defineTool({ id: 'notes__read', description: 'Read a note.', input: Type.Object({ id: Type.String(), v: Type.Optional(Type.Boolean()) }, { additionalProperties: false }), output, handler: () => ({ id: '' }) })
    const before = [note(output)]
    const table = formatComparisonTable(compareContracts(before, [wider, note(output, { id: 'notes__list' })]))
    expect(table).toMatch(/notes__read\s+input\s+compatible\s+changed: every input the old schema accepted is still accepted/)
    expect(table).toMatch(/notes__list\s+added\s+new single-result tool/)
    expect(table).toContain('No change is breaking')
    const gained = formatComparisonTable(compareContracts(preViewTools, exampleTools()))
    expect(gained).toMatch(/compozy__session_status\s+changed\s+default view changed: the tool gained views/)
    expect(gained).toMatch(/compozy__session_status\s+compact \(was output\)\s+breaking/)
  })
})

describe('compareContracts: result_view as the dispatcher reads it at run time', () => {
  const openInput = Type.Object({ session_id: Type.String() })
  const full = Type.Object({ id: Type.String(), transcript: Type.Array(Type.String()) })
  const views = { compact: Type.Object({ id: Type.String() }), full }
  const session = (output: object): Tool =>
    defineTool({ id: 's', description: 'd', input: openInput, output: output as never, handler: () => ({ id: 'x', transcript: [] }) })

  it('lost views with an open input is breaking on input (regression: result_view "full" is refused after the change)', async () => {
    const before = session(views)
    const after = session(full)
    const call = { tool_id: 's', input: { session_id: 'a', result_view: 'full' } }
    // The ground truth: the old tool takes the selector, the new one refuses it.
    expect((await createDispatcher({ tools: [before] }).invoke(call)).status).toBe('ok')
    expect((await createDispatcher({ tools: [after] }).invoke(call))).toMatchObject({ status: 'error', error: { code: 'tool_invalid_input' } })
    for (const old of [contractLock([before]), parseContractLock(formatContractLock(contractLock([before])))]) {
      const comparison = compareContracts(old, [after])
      expect(comparison.breaking).toBe(true)
      const input = comparison.tools[0]!.schemas.find((s) => s.schema === 'input')!
      expect(input.verdict).toBe('breaking')
      expect(input.reasons.map((r) => [r.code, r.field])).toContainEqual(['field_rejected', 'result_view'])
    }
  })

  it('gained views with an open input is not breaking on input (regression: the old tool refused every result_view, so no caller sent one)', async () => {
    const before = session(full)
    const after = session(views)
    expect((await createDispatcher({ tools: [before] }).invoke({ tool_id: 's', input: { session_id: 'a', result_view: 5 } })))
      .toMatchObject({ status: 'error', error: { code: 'tool_invalid_input' } })
    const comparison = compareContracts(contractLock([before]), [after])
    const tool = comparison.tools[0]!
    expect(tool.default_view_changed).toBe(true)
    const input = tool.schemas.find((s) => s.schema === 'input')!
    expect([input.verdict, input.reasons]).toEqual(['compatible', []])
  })
})
