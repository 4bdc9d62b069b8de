// Options of the contracts functions: a typo'd or ill-typed option is a ContractsError, never
// silently ignored (regression: contractLock(tools, { fixture }) recorded no budget, measureViews
// with { countTokns } counted with o200k, runContractsCheck({ updat: true }) checked and exited 0).
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { defineTool } from 'result-views'
import { compareContracts, contractLock, measureViews, runContractsCheck, runReleaseNote } from 'result-views/contracts'
import { thrown } from '../support/outcomes.js'

const tool = defineTool({
  id: 'notes__read', description: 'd', input: Type.Object({}),
  output: { compact: Type.Object({ id: Type.String() }), full: Type.Object({ id: Type.String(), body: Type.String() }) },
  handler: () => ({ id: 'a', body: 'b' }),
})
const record = { id: 'a', body: 'b' }
const problems = (run: () => unknown): unknown => (thrown(run) as { problems?: unknown }).problems

describe('contracts options: unknown or ill-typed options are refused', () => {
  it('unknown options silently ignored: contractLock, compareContracts and measureViews name each unknown key', () => {
    expect(problems(() => contractLock([tool], { fixture: { notes__read: [record] } } as never))).toEqual([expect.objectContaining({ path: '/fixture', code: 'unknown_option' })])
    expect(problems(() => compareContracts([tool], [tool], { acceptUnprovn: true } as never))).toEqual([expect.objectContaining({ path: '/acceptUnprovn', code: 'unknown_option' })])
    expect(problems(() => measureViews(tool, [record], { countTokns: () => 1 } as never))).toEqual([expect.objectContaining({ path: '/countTokns', code: 'unknown_option' })])
    // Pointer-escaped, and every key listed.
    expect(problems(() => contractLock([tool], { 'a/b': 1, '~': 2 } as never))).toEqual([
      expect.objectContaining({ path: '/a~1b', code: 'unknown_option' }), expect.objectContaining({ path: '/~0', code: 'unknown_option' }),
    ])
  })

  it('options that are not an object are refused alike by every function', () => {
    for (const run of [() => contractLock([tool], 42 as never), () => compareContracts([tool], [tool], 42 as never), () => measureViews(tool, [record], 42 as never)]) {
      expect(thrown(run)).toMatchObject({ code: 'contracts_invalid', problems: [{ path: '', code: 'invalid_option' }] })
    }
  })

  it('contractLock refuses a countTokens that is not a function even without fixtures', () => {
    expect(problems(() => contractLock([tool], { countTokens: 'x' } as never))).toEqual([expect.objectContaining({ path: '/countTokens', code: 'invalid_count_tokens' })])
  })

  it('reads hostile options inside a guard: a throwing getter or ownKeys trap is unreadable_option', () => {
    const getter = Object.defineProperty({}, 'countTokens', { enumerable: true, get: () => { throw new Error('boom') } })
    expect(problems(() => measureViews(tool, [record], getter))).toEqual([expect.objectContaining({ path: '/countTokens', code: 'unreadable_option' })])
    const proxy = new Proxy({}, { ownKeys: () => { throw new Error('boom') } })
    expect(problems(() => compareContracts([tool], [tool], proxy))).toEqual([expect.objectContaining({ path: '', code: 'unreadable_option' })])
  })

  it('runContractsCheck and runReleaseNote exit 2 on an unknown or ill-typed option, or on options that are not an object', async () => {
    const updat = await runContractsCheck({ catalog: './nowhere.mjs', updat: true } as never)
    expect(updat.exitCode).toBe(2)
    expect(updat.stderr).toMatch(/unknown option "updat"/)
    expect((await runContractsCheck({ catalog: './nowhere.mjs', update: 'yes' } as never)).stderr).toMatch(/update must be a boolean/)
    expect((await runContractsCheck(null as never)).stderr).toMatch(/options must be an object/)
    expect((await runReleaseNote({ from: 'a.json', catalog: './nowhere.mjs', form: 'json' } as never))).toMatchObject({ exitCode: 2, stderr: expect.stringMatching(/unknown option "form"/) })
  })
})
