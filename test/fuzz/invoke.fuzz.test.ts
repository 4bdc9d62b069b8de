import { Ajv } from 'ajv'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, type Tool } from 'result-views'
import { hostileInputArbitrary } from 'result-views/testing'
import { exampleTools } from '../../examples/tools/catalog.js'

/** Cases per property: 10⁴ in CI (`npm test`), 10⁵ with `npm run fuzz` (FUZZ_RUNS). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000)

/** The example tools, each wrapped so its handler records any input its schema rejects. */
function guardedCatalog() {
  const violations: unknown[] = []
  const ajv = new Ajv({ strict: false })
  const tools: Tool[] = exampleTools().map((tool) => {
    const valid = ajv.compile(tool.inputSchema as object)
    return defineTool({
      id: tool.id,
      description: tool.description,
      input: tool.inputSchema as never,
      output: (tool.kind === 'viewed' ? { compact: tool.output.compact, full: tool.output.full } : tool.output) as never,
      handler: (input: unknown, context) => {
        if (!valid(input) || (typeof input === 'object' && input !== null && 'result_view' in input)) violations.push(input)
        return tool.handler(input, context)
      },
    })
  })
  return { dispatcher: createDispatcher({ tools }), ids: tools.map((t) => t.id), violations }
}

describe(`invoke under hostile input (${RUNS} cases)`, () => {
  // 10⁵ cases take minutes on a busy 2-core machine: the budget is the run's, not vitest's default.
  it('never throws, never runs a handler on invalid input, never changes Object.prototype', { timeout: 3_600_000 }, async () => {
    const { dispatcher, ids, violations } = guardedCatalog()
    const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort()
    const input = fc.oneof(
      { weight: 3, arbitrary: hostileInputArbitrary() },
      // A valid-looking input with a hostile value under a real or a selector key.
      { weight: 2, arbitrary: fc.record({ session_id: fc.oneof(fc.constant('sess-example'), hostileInputArbitrary()), result_view: hostileInputArbitrary() }, { requiredKeys: ['session_id'] }) },
    )
    let count = 0
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ids), input, async (tool_id, value) => {
        count++
        const outcome = await dispatcher.invoke({ tool_id, input: value })
        expect(['ok', 'error']).toContain(outcome.status)
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
      }),
      { numRuns: RUNS },
    )
    expect(count).toBe(RUNS)
    expect(violations).toEqual([])
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys)
    console.log(`fuzz: ${count} hostile invocations, 0 throws, 0 handler runs on invalid input`)
  })

  it('never throws for hostile requests (not just inputs)', { timeout: 3_600_000 }, async () => {
    const { dispatcher } = guardedCatalog()
    await fc.assert(
      fc.asyncProperty(hostileInputArbitrary(), async (request) => {
        const outcome = await dispatcher.invoke(request as never)
        expect(outcome.status).toBe('error')
      }),
      { numRuns: Math.max(100, RUNS / 10) },
    )
  })
})
