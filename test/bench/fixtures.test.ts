import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { defineTool, type JsonSchema, type ViewedTool } from 'result-views'
import { mediumDigestInput, smallDigestInput } from '../../bench/fixtures/digest-inputs.js'
import { realisticCatalog } from '../../bench/fixtures/realistic-catalog.js'
import { realisticSessionFull, realisticSessionInput } from '../../bench/fixtures/realistic-session.js'
import { RealisticCompactResult, RealisticFullResult, RealisticSessionInput, withoutFormats } from '../../bench/fixtures/realistic-session-schema.js'

// What the benchmark's fixtures promise (bench/fixtures/*.ts), checked without timing anything.

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv
const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value))
const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8')

/** Strings (values, not keys) and object keys in a JSON value. */
function census(value: unknown): { strings: number; keys: number } {
  let strings = 0
  let keys = 0
  const walk = (v: unknown): void => {
    if (typeof v === 'string') strings++
    else if (Array.isArray(v)) v.forEach(walk)
    else if (typeof v === 'object' && v !== null) {
      keys += Object.keys(v).length
      Object.values(v).forEach(walk)
    }
  }
  walk(value)
  return { strings, keys }
}

function validator(schema: unknown): (value: unknown) => boolean {
  return addFormats(new Ajv({ strict: true, allowUnionTypes: true, strictNumbers: true })).compile(json(schema) as object)
}

describe('the realistic session fixture', () => {
  const tool = defineTool({
    id: 'compozy__session_status',
    description: 'Read one session.',
    input: RealisticSessionInput,
    output: { compact: RealisticCompactResult, full: RealisticFullResult },
    handler: () => realisticSessionFull,
  }) as ViewedTool
  const compact = tool.project(realisticSessionFull, 'compact') as { session: Record<string, unknown> }
  const session = realisticSessionFull.session as Record<string, unknown>

  it('is a valid full record of a pair the view proof accepts, with a valid input', () => {
    expect(validator(RealisticFullResult)(realisticSessionFull)).toBe(true)
    expect(validator(RealisticCompactResult)(compact)).toBe(true)
    expect(validator(RealisticSessionInput)(realisticSessionInput)).toBe(true)
  })

  it('is at least 7 KB in full; its compact view is about 1.4 KB with about 35 strings', () => {
    expect(bytes(realisticSessionFull)).toBeGreaterThanOrEqual(7 * 1024)
    expect(bytes(compact)).toBeGreaterThanOrEqual(1300)
    expect(bytes(compact)).toBeLessThanOrEqual(1500)
    expect(census(compact).strings).toBeGreaterThanOrEqual(33)
    expect(census(compact).strings).toBeLessThanOrEqual(40)
  })

  it('has pending interactions of two kinds of a union discriminated by a required literal tag', () => {
    const items = compact.session.pending_interactions as Array<{ kind: string }>
    expect(items.length).toBeGreaterThanOrEqual(2)
    expect(new Set(items.map((item) => item.kind)).size).toBeGreaterThanOrEqual(2)
    const itemSchema = (json(RealisticCompactResult) as { properties: { session: { properties: { pending_interactions: { items: { anyOf: JsonSchema[] } } } } } })
      .properties.session.properties.pending_interactions.items
    const tags = itemSchema.anyOf.map((branch) => {
      const b = branch as { required: string[]; properties: { kind: { const?: string } } }
      expect(b.required).toContain('kind')
      return b.properties.kind.const
    })
    expect(new Set(tags).size).toBe(tags.length)
    expect(tags.every((tag) => typeof tag === 'string')).toBe(true)
  })

  it('has a nullable object that is present (pull_request) and optional fields both absent and present', () => {
    const schema = json(RealisticCompactResult) as { properties: { session: { required: string[]; properties: Record<string, { anyOf?: JsonSchema[] }> } } }
    const { required, properties } = schema.properties.session
    expect(properties.pull_request!.anyOf).toContainEqual({ type: 'null' })
    expect(compact.session.pull_request).toMatchObject({ number: 1842 })
    const optional = Object.keys(properties).filter((key) => !required.includes(key))
    const present = optional.filter((key) => key in compact.session)
    expect(present.length).toBeGreaterThanOrEqual(5)
    expect(optional.length - present.length).toBeGreaterThanOrEqual(5)
    expect((compact.session.runtime as Record<string, unknown>).failure).toBeUndefined()
  })

  it('adds the large nested sections in the full view', () => {
    const runtime = session.runtime as Record<string, unknown>
    const lineage = session.lineage as Record<string, unknown>
    const pr = session.pull_request as Record<string, unknown>
    for (const section of [lineage.permission_policy, session.supervision, runtime.acp_caps, session.available_commands, session.diagnostics, session.profile, session.usage, session.config_options, session.provider_requests, pr.checks]) {
      expect(section).toBeDefined()
      expect(bytes(section)).toBeGreaterThan(40)
    }
    for (const key of ['supervision', 'available_commands', 'diagnostics', 'profile', 'usage', 'config_options', 'provider_requests']) expect(compact.session).not.toHaveProperty(key)
  })
})

describe('withoutFormats', () => {
  it('drops every format keyword and keeps a property named format', () => {
    const stripped = withoutFormats(json(RealisticFullResult))
    expect(JSON.stringify(stripped)).not.toContain('"format"')
    expect(JSON.stringify(json(RealisticFullResult))).toContain('"format":"date-time"')
    expect(withoutFormats({ type: 'object', properties: { format: { type: 'string', format: 'uri' } } })).toEqual({ type: 'object', properties: { format: { type: 'string' } } })
  })
})

describe('the digest inputs', () => {
  it('medium: about 1.8 KB of nested JSON with 60+ keys and 50+ strings, some needing escapes', () => {
    expect(bytes(mediumDigestInput)).toBeGreaterThanOrEqual(1750)
    expect(bytes(mediumDigestInput)).toBeLessThanOrEqual(1950)
    expect(census(mediumDigestInput).keys).toBeGreaterThanOrEqual(60)
    expect(census(mediumDigestInput).strings).toBeGreaterThanOrEqual(50)
    expect(JSON.stringify(mediumDigestInput)).toMatch(/\\n|\\t|\\"/)
    expect(JSON.stringify(mediumDigestInput)).toMatch(/[^\x00-\x7f]/)
  })

  it('small: a few keys', () => {
    expect(bytes(smallDigestInput)).toBeLessThan(200)
  })
})

describe('the realistic catalog', () => {
  const definitions = realisticCatalog()

  it('holds 1,000 distinct tools with about 3.9 KB of schema JSON each (input, compact and full)', () => {
    expect(new Set(definitions.map((d) => d.id)).size).toBe(1000)
    const perTool = definitions.map((d) => {
      const output = d.output as { compact: unknown; full: unknown }
      return bytes(d.input) + bytes(output.compact) + bytes(output.full)
    })
    const average = perTool.reduce((a, b) => a + b, 0) / perTool.length
    expect(average).toBeGreaterThanOrEqual(3600)
    expect(average).toBeLessThanOrEqual(4200)
    expect(new Set(definitions.map((d) => JSON.stringify(d.output))).size).toBe(1000)
  })

  it('gives each record 10 to 20 properties with nested objects, arrays of objects, enums and nullables', () => {
    for (const d of definitions) {
      const full = json((d.output as { full: unknown }).full) as { properties: Record<string, { properties: Record<string, unknown> }> }
      const record = Object.values(full.properties)[0]!
      const count = Object.keys(record.properties).length
      expect(count).toBeGreaterThanOrEqual(10)
      expect(count).toBeLessThanOrEqual(20)
      const text = JSON.stringify(record)
      expect(text).toContain('"type":"array","items":{"type":"object"')
      expect(text).toContain('"enum":[')
      expect(text).toContain('{"type":"null"}')
      expect(Object.values(record.properties).some((p) => (p as { type?: string }).type === 'object')).toBe(true)
    }
  })

  it('defines every tool: each compact view is provably a subset of its full view', () => {
    for (const d of definitions) expect(() => defineTool(d)).not.toThrow()
  })
})
