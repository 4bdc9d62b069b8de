import { describe, expect, it } from 'vitest'
import { canonicalJson, type ViewedTool } from 'result-views'
import { isContractsError, measureViews } from 'result-views/contracts'
import { sessionFixtures } from '../../examples/fixtures/sessions.js'
import { exampleTools } from '../../examples/tools/catalog.js'

const status = (): ViewedTool => exampleTools()[0]
const records = Object.values(sessionFixtures)
const bytes = (text: string): number => Buffer.byteLength(text, 'utf8')

function problemsOf(run: () => unknown): Array<{ path: string; code: string; message: string }> {
  try {
    run()
  } catch (error) {
    expect(isContractsError(error), String(error)).toBe(true)
    return [...(error as { problems: Array<{ path: string; code: string; message: string }> }).problems]
  }
  throw new Error('expected a ContractsError')
}

describe('measureViews', () => {
  it('measures each full record and its compact projection in UTF-8 bytes and tokens of canonical JSON, and the totals', () => {
    const tool = status()
    const counted: string[] = []
    const countTokens = (text: string): number => {
      counted.push(text)
      return text.split(',').length
    }
    const measured = measureViews(tool, records, { countTokens })
    expect(measured.tool_id).toBe('compozy__session_status')
    expect(measured.tokenizer).toBe('custom')
    expect(measured.records).toHaveLength(records.length)
    records.forEach((record, index) => {
      const full = canonicalJson(record)
      const compact = canonicalJson(tool.project(record, 'compact'))
      const m = measured.records[index]!
      expect(m).toEqual({
        index,
        compact_bytes: bytes(compact), compact_tokens: compact.split(',').length,
        full_bytes: bytes(full), full_tokens: full.split(',').length,
        savings_ratio: 1 - compact.split(',').length / full.split(',').length,
      })
      expect(counted).toContain(full)
    })
    const sum = (key: 'compact_bytes' | 'compact_tokens' | 'full_bytes' | 'full_tokens') => measured.records.reduce((s, r) => s + r[key], 0)
    expect(measured.total).toEqual({
      compact_bytes: sum('compact_bytes'), compact_tokens: sum('compact_tokens'), full_bytes: sum('full_bytes'), full_tokens: sum('full_tokens'),
      savings_ratio: 1 - sum('compact_tokens') / sum('full_tokens'),
    })
  })

  it('counts with gpt-tokenizer o200k by default (offline): the spec record saves tokens in compact', () => {
    const measured = measureViews(status(), [sessionFixtures.activeSessionFull])
    expect(measured.tokenizer).toBe('o200k_base')
    const [record] = measured.records
    expect(record!.compact_tokens).toBeGreaterThan(50)
    expect(record!.compact_tokens).toBeLessThan(record!.full_tokens)
    expect(record!.savings_ratio).toBeGreaterThan(0.3)
  })

  it('does not depend on the order a handler wrote its keys in', () => {
    const record = sessionFixtures.activeSessionFull
    const reversed = JSON.parse(JSON.stringify(record), (_, value) =>
      typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).reverse()) : value)
    expect(measureViews(status(), [reversed]).records[0]).toEqual(measureViews(status(), [record]).records[0])
  })

  it('refuses records that are not full records of the tool, listing every one', () => {
    const problems = problemsOf(() => measureViews(status(), [records[0], { session: {} }, { ok: Number.NaN }]))
    expect(problems.map((p) => [p.path, p.code])).toEqual([['/records/1', 'not_full_valid'], ['/records/2', 'not_json']])
    expect(problems[0]!.message).toMatch(/^not a full record of tool "compozy__session_status": \/session must have required property/)
  })

  it('refuses a sparse records array at once (regression: 2 ** 32 - 1 holes must not be walked)', () => {
    const sparse: unknown[] = []
    sparse.length = 2 ** 32 - 1
    sparse[5] = records[0]
    expect(problemsOf(() => measureViews(status(), sparse))).toEqual([expect.objectContaining({ path: '/records', code: 'sparse_records' })])
    expect(problemsOf(() => measureViews(status(), []))).toEqual([expect.objectContaining({ code: 'no_records' })])
    expect(problemsOf(() => measureViews(status(), 'x' as never))).toEqual([expect.objectContaining({ code: 'invalid_records' })])
  })

  it('reads a hostile record once, inside a guard: a throwing getter or Proxy is a problem, not a crash', () => {
    const getter = Object.defineProperty({}, 'session', { enumerable: true, get: () => { throw new Error('secret-canary') } })
    const proxy = new Proxy({}, { ownKeys: () => { throw new Error('trap') } })
    const problems = problemsOf(() => measureViews(status(), [getter, proxy]))
    expect(problems.map((p) => [p.path, p.code])).toEqual([['/records/0', 'not_json'], ['/records/1', 'not_json']])
  })

  it('refuses a tool without views, and a countTokens that throws or answers badly', () => {
    const skill = exampleTools()[4]
    expect(problemsOf(() => measureViews(skill as never, records))).toEqual([expect.objectContaining({ path: '/tool', code: 'not_a_viewed_tool' })])
    expect(problemsOf(() => measureViews({ kind: 'viewed' } as never, records))[0]!.code).toBe('not_a_viewed_tool')
    for (const [countTokens, code] of [[() => -1, 'invalid_token_count'], [() => 2.5, 'invalid_token_count'], [async () => 1, 'invalid_token_count'], [() => { throw new Error('boom') }, 'count_tokens_threw'], [5, 'invalid_count_tokens']] as const) {
      expect(problemsOf(() => measureViews(status(), records, { countTokens: countTokens as never }))).toEqual([expect.objectContaining({ path: '/countTokens', code })])
    }
  })
})
