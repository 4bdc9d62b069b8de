// defineTool copies a part its schemas share once, and the view proof does not walk again a
// compact position read from the very object of its full position: a definition whose views
// share parts must be accepted or refused exactly as the same definition with every part its own.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { defineTool, isToolDefinitionError, type JsonSchema, type UsageProblem } from 'result-views'
import { recursiveUnionPairArb, schemaPairArb, type SchemaPair } from '../support/view-schema-pairs.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 300)
const TIMEOUT_MS = Math.max(60_000, RUNS * 40)
const input = { type: 'object', properties: { id: { type: 'string' } }, additionalProperties: false }

/** The outcome of defining a viewed tool: `ok`, or the problems (sorted), or what else was thrown. */
function outcomeOf(compact: unknown, full: unknown): { ok: true } | { ok: false; problems: UsageProblem[] } | { thrown: string } {
  try {
    defineTool({ id: 'pairs__read', description: 'd', input, output: { compact, full }, handler: () => ({}) } as never)
    return { ok: true }
  } catch (error) {
    if (!isToolDefinitionError(error)) return { thrown: String(error) }
    const key = (p: UsageProblem) => `${p.path}\u0000${p.code}\u0000${p.message}`
    return { ok: false, problems: [...error.problems].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)) }
  }
}

/** A deep copy of a JSON value keeping own `__proto__` keys as keys. */
function clone(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value))
}

/**
 * `compact` and `full` rebuilt so that equal subtrees (same JSON text, keys in the same order) are
 * one object, within each view and across them (the compact's first), as schemas built from
 * shared TypeBox parts are.
 */
function sharing(compact: JsonSchema, full: JsonSchema): [unknown, unknown] {
  const parts = new Map<string, unknown>()
  const rebuild = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value
    let out: unknown
    if (Array.isArray(value)) out = value.map(rebuild)
    else {
      const members: Record<string, unknown> = {}
      for (const [key, child] of Object.entries(value)) Object.defineProperty(members, key, { value: rebuild(child), enumerable: true, writable: true, configurable: true })
      out = members
    }
    const text = JSON.stringify(out)
    const known = parts.get(text)
    if (known !== undefined) return known
    parts.set(text, out)
    return out
  }
  return [rebuild(compact), rebuild(full)]
}

describe('defineTool on views that share parts', () => {
  const same = (pair: SchemaPair) => {
    const own = outcomeOf(clone(pair.compact), clone(pair.full))
    expect(own).not.toHaveProperty('thrown')
    expect(outcomeOf(...sharing(pair.compact, pair.full))).toEqual(own)
  }

  it('accepts or refuses a pair whose equal parts are one object (within and across the views) as it does the unshared pair', () => {
    fc.assert(fc.property(schemaPairArb, same), { numRuns: RUNS })
  }, TIMEOUT_MS)

  it('the same for recursive tagged unions (their parts hold "$ref"s, which are never shared)', () => {
    fc.assert(fc.property(recursiveUnionPairArb, same), { numRuns: Math.ceil(RUNS / 3) })
  }, TIMEOUT_MS)

  it('accepts or refuses one object given as both views as it does two equal copies', () => {
    fc.assert(
      fc.property(schemaPairArb, (pair) => {
        const schema = clone(pair.full)
        expect(outcomeOf(schema, schema)).toEqual(outcomeOf(schema, clone(schema)))
        const compact = clone(pair.compact)
        expect(outcomeOf(compact, compact)).toEqual(outcomeOf(compact, clone(compact)))
      }),
      { numRuns: RUNS },
    )
  }, TIMEOUT_MS)
})
