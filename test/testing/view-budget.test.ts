import { describe, expect, it } from 'vitest'
import { isContractsError } from 'result-views/contracts'
import { assertViewBudget, isViewBudgetError, type ViewBudgetError } from 'result-views/testing'
import { sessionFixtures } from '../../examples/fixtures/sessions.js'
import { exampleTools } from '../../examples/tools/catalog.js'

const records = Object.values(sessionFixtures)
const tool = exampleTools()[0]

function budgetError(run: () => unknown): ViewBudgetError {
  try {
    run()
  } catch (error) {
    expect(isViewBudgetError(error), String(error)).toBe(true)
    return error as ViewBudgetError
  }
  throw new Error('expected a ViewBudgetError')
}

describe('assertViewBudget', () => {
  it('passes a tool within its budget and returns the measurement', () => {
    const measured = assertViewBudget(tool, { records, maxCompactTokens: 400, maxCompactBytes: 1_000, minSavingsRatio: 0.3 })
    expect(measured.records).toHaveLength(records.length)
  })

  it('names the first record and the figure past its limit', () => {
    const largest = Math.max(...assertViewBudget(tool, { records, maxCompactTokens: 10_000 }).records.map((r) => r.compact_tokens))
    const error = budgetError(() => assertViewBudget(tool, { records, maxCompactTokens: largest - 1 }))
    expect(error).toMatchObject({ code: 'view_budget_exceeded', toolId: 'compozy__session_status', figure: 'compact_tokens', limit: largest - 1, actual: largest })
    expect(error.message).toBe(`view budget exceeded for tool "compozy__session_status": record ${error.recordIndex} has compact_tokens ${largest}, above the maximum ${largest - 1}`)
    expect(budgetError(() => assertViewBudget(tool, { records, maxCompactBytes: 100 }))).toMatchObject({ recordIndex: 0, figure: 'compact_bytes' })
    const ratio = budgetError(() => assertViewBudget(tool, { records, minSavingsRatio: 0.99 }))
    expect(ratio).toMatchObject({ recordIndex: 0, figure: 'savings_ratio', limit: 0.99 })
    expect(ratio.message).toMatch(/below the minimum 0\.99$/)
  })

  it('refuses options without a limit or with a bad one (ContractsError), before measuring anything', () => {
    const bad = [{ records }, { records, maxCompactTokens: -1 }, { records, minSavingsRatio: 1.5 }, { records, maxCompactBytes: Number.NaN }, null]
    for (const options of bad) {
      let thrown: unknown
      try {
        assertViewBudget(tool, options as never)
      } catch (error) {
        thrown = error
      }
      expect(isContractsError(thrown), JSON.stringify(options)).toBe(true)
    }
    const hostile = Object.defineProperty({}, 'records', { get: () => { throw new Error('trap') } })
    expect(() => assertViewBudget(tool, hostile as never)).toThrow(/records could not be read/)
  })
})
