// Value-dependent compact rules (`omitWhen`): what defineTool accepts, what a rule sees and may do,
// and the typed error of a rule that throws, answers nonsense or never answers.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import {
  createDispatcher,
  defineTool,
  describeTool,
  isToolDefinitionError,
  isToolError,
  schemaDigest,
  type OmitWhen,
  type ToolError,
  type UsageProblem,
} from 'result-views'
import { errorOf, thrown } from '../support/outcomes.js'

const Diagnostic = Type.Object({ ok: Type.Boolean(), note: Type.Optional(Type.String()) }, { additionalProperties: false })
const ItemCompact = Type.Object(
  { id: Type.String(), diagnostics: Type.Optional(Type.Array(Diagnostic)), meta: Type.Optional(Type.Object({ size: Type.Optional(Type.Integer()), tag: Type.String() }, { additionalProperties: false })) },
  { additionalProperties: false },
)
const ItemFull = Type.Object({
  id: Type.String(),
  diagnostics: Type.Optional(Type.Array(Diagnostic)),
  meta: Type.Optional(Type.Object({ size: Type.Optional(Type.Integer()), tag: Type.String(), internal: Type.Optional(Type.String()) })),
  secret: Type.Optional(Type.String()),
})
const Compact = Type.Object({ items: Type.Array(ItemCompact), cursor: Type.Optional(Type.String()) }, { additionalProperties: false })
const Full = Type.Object({ items: Type.Array(ItemFull), cursor: Type.Optional(Type.String()) })
const input = Type.Object({}, { additionalProperties: false })

type ListRecord = { items: Array<{ id: string; diagnostics?: Array<{ ok: boolean; note?: string }>; meta?: { size?: number; tag: string; internal?: string }; secret?: string }>; cursor?: string }

const allOk = (list: unknown): boolean => (list as Array<{ ok: boolean }>).every((d) => d.ok)

function listTool(omitWhen: OmitWhen, record: ListRecord = sampleRecord(), extra: Record<string, unknown> = {}) {
  return defineTool({ id: 'items__list', description: 'd', input, output: { compact: Compact, full: Full }, omitWhen, handler: () => structuredClone(record), ...extra })
}

function sampleRecord(): ListRecord {
  return {
    items: [
      { id: 'clean', diagnostics: [{ ok: true }, { ok: true }], meta: { size: 3, tag: 't', internal: 'x' }, secret: 'full-only' },
      { id: 'mixed', diagnostics: [{ ok: true }, { ok: false, note: 'broken' }], meta: { tag: 'u' } },
      { id: 'none' },
    ],
    cursor: 'next',
  }
}

function problemsOf(omitWhen: unknown, output: unknown = { compact: Compact, full: Full }): UsageProblem[] {
  const error = thrown(() => defineTool({ id: 'x', description: 'd', input, output, omitWhen, handler: () => ({}) } as never))
  expect(isToolDefinitionError(error)).toBe(true)
  return [...(error as { problems: UsageProblem[] }).problems]
}

describe('omitWhen at definition time', () => {
  it('accepts optional properties the compact schema declares, through arrays ("*") and nested objects', () => {
    const tool = listTool({ '/items/*/diagnostics': allOk, '/items/*/meta/size': () => false, '/cursor': () => false })
    expect(Object.keys(tool.omitWhen!)).toEqual(['/items/*/diagnostics', '/items/*/meta/size', '/cursor'])
    expect(Object.isFrozen(tool.omitWhen)).toBe(true)
    expect(Object.getPrototypeOf(tool.omitWhen)).toBe(null)
  })

  it('refuses every path that is not an optional declared property, each at /omitWhen/<escaped path>', () => {
    const problems = problemsOf({
      '/items/*/id': () => true,
      '/items/x': () => true,
      '/items/*/secret': () => true,
      '/cursor/*/x': () => true,
      '/items/*': () => true,
      '': () => true,
      'items': () => true,
      '/items/*/meta/tag': () => true,
    })
    expect(problems.map((p) => [p.path, p.code])).toEqual([
      ['/omitWhen/~1items~1*~1id', 'omit_path_required'],
      ['/omitWhen/~1items~1x', 'omit_path_not_declared'],
      ['/omitWhen/~1items~1*~1secret', 'omit_path_not_declared'],
      ['/omitWhen/~1cursor~1*~1x', 'omit_path_not_array'],
      ['/omitWhen/~1items~1*', 'omit_path_invalid'],
      ['/omitWhen/', 'omit_path_invalid'],
      ['/omitWhen/items', 'omit_path_invalid'],
      ['/omitWhen/~1items~1*~1meta~1tag', 'omit_path_required'],
    ])
    expect(problems[1]!.message).toContain('"*" steps into its items')
    expect(problems[2]!.message).toBe('rule path "/items/*/secret": "secret" is not a property the compact schema declares at "/items/*"')
  })

  it('refuses a rule that is not a function, rules on a single-result tool, and omitWhen that is not an object', () => {
    expect(problemsOf({ '/cursor': true }).map((p) => [p.path, p.code])).toEqual([['/omitWhen/~1cursor', 'omit_rule_not_function']])
    expect(problemsOf({ '/cursor': () => true }, Full).map((p) => [p.path, p.code])).toEqual([['/omitWhen', 'omit_when_not_viewed']])
    for (const value of [[], 'x', 1, null]) expect(problemsOf(value).map((p) => p.code)).toEqual(['omit_when_invalid'])
  })

  it('unescapes ~1 and ~0 in property names, and follows unions and $ref', () => {
    const Odd = Type.Object({ 'a/b': Type.Optional(Type.String()), 'c~d': Type.Optional(Type.String()), req: Type.String() }, { additionalProperties: false })
    const odd = defineTool({ id: 'odd', description: 'd', input, output: { compact: Odd, full: Odd }, omitWhen: { '/a~1b': () => true, '/c~0d': () => true }, handler: () => ({ req: 'r', 'a/b': 'x', 'c~d': 'y' }) })
    expect(odd.project({ req: 'r', 'a/b': 'x', 'c~d': 'y' }, 'compact')).toStrictEqual({ req: 'r' })

    // A nullable object, and a tagged union where the property is optional in one branch and absent in the other.
    const Union = Type.Object({
      one: Type.Union([Type.Object({ x: Type.Optional(Type.String()) }, { additionalProperties: false }), Type.Null()]),
      two: Type.Union([
        Type.Object({ kind: Type.Literal('a'), x: Type.Optional(Type.String()) }, { additionalProperties: false }),
        Type.Object({ kind: Type.Literal('b') }, { additionalProperties: false }),
      ]),
    }, { additionalProperties: false })
    const union = defineTool({ id: 'u', description: 'd', input, output: { compact: Union, full: Union }, omitWhen: { '/one/x': () => true, '/two/x': () => true }, handler: () => ({}) as never })
    expect(union.project({ one: { x: 's' }, two: { kind: 'a', x: 's' } }, 'compact')).toStrictEqual({ one: {}, two: { kind: 'a' } })
    expect(union.project({ one: null, two: { kind: 'b' } }, 'compact')).toStrictEqual({ one: null, two: { kind: 'b' } })

    // A branch that requires the property makes omitting it invalid: refused.
    const Required = Type.Object({
      two: Type.Union([
        Type.Object({ kind: Type.Literal('a'), x: Type.Optional(Type.String()) }, { additionalProperties: false }),
        Type.Object({ kind: Type.Literal('b'), x: Type.String() }, { additionalProperties: false }),
      ]),
    }, { additionalProperties: false })
    expect(problemsOf({ '/two/x': () => true }, { compact: Required, full: Required }).map((p) => p.code)).toEqual(['omit_path_required'])

    const Tree = Type.Cyclic({ Node: Type.Object({ name: Type.String(), note: Type.Optional(Type.String()), children: Type.Array(Type.Ref('Node')) }, { additionalProperties: false }) }, 'Node')
    const tree = defineTool({ id: 't', description: 'd', input, output: { compact: Tree, full: Tree }, omitWhen: { '/children/*/children/*/note': () => true }, handler: () => ({}) as never })
    const record = { name: 'r', note: 'n', children: [{ name: 'a', note: 'n', children: [{ name: 'b', note: 'gone', children: [] }] }] }
    expect(tree.project(record, 'compact')).toStrictEqual({ name: 'r', note: 'n', children: [{ name: 'a', note: 'n', children: [{ name: 'b', children: [] }] }] })
  })

  it('a definition whose omitWhen cannot be read is refused, not thrown through', () => {
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error('boom') } })
    const error = thrown(() => defineTool({ id: 'x', description: 'd', input, output: { compact: Compact, full: Full }, omitWhen: hostile as OmitWhen, handler: () => ({}) as never }))
    expect(isToolDefinitionError(error)).toBe(true)
    expect((error as { problems: UsageProblem[] }).problems[0]!.code).toBe('unreadable_definition')
  })
})

describe('omitWhen at run time', () => {
  it('omits the property where the rule says true and keeps the whole value where it says false', () => {
    const tool = listTool({ '/items/*/diagnostics': allOk })
    expect(tool.project(sampleRecord(), 'compact')).toStrictEqual({
      items: [
        { id: 'clean', meta: { size: 3, tag: 't' } },
        { id: 'mixed', diagnostics: [{ ok: true }, { ok: false, note: 'broken' }], meta: { tag: 'u' } },
        { id: 'none' },
      ],
      cursor: 'next',
    })
    // The full view is the record as it is: rules are for the compact view only.
    const record = sampleRecord()
    expect(tool.project(record, 'full')).toBe(record)
  })

  it('calls each rule once per object that has the property, with frozen copies of the projected value and its holder', () => {
    const seen: Array<[unknown, unknown]> = []
    const tool = listTool({
      '/items/*/diagnostics': (value, parent) => {
        seen.push([value, parent])
        expect(Object.isFrozen(value) && Object.isFrozen(parent) && Object.isFrozen((value as object[])[0])).toBe(true)
        expect(value).toBe(parent.diagnostics)
        return false
      },
    })
    const record = sampleRecord()
    const out = tool.project(record, 'compact') as ListRecord
    expect(seen).toHaveLength(2)
    // The holder is the compact object: full-only fields (`secret`, `meta.internal`) never reach a rule.
    expect(seen[0]![1]).toStrictEqual({ id: 'clean', diagnostics: [{ ok: true }, { ok: true }], meta: { size: 3, tag: 't' } })
    // The copies are the rule's: the record and the result are not the objects it saw.
    expect(seen[0]![0]).not.toBe(out.items[0]!.diagnostics)
    expect(record).toStrictEqual(sampleRecord())
  })

  it('a rule that tries to change what it sees fails (strict mode), and nothing it touched reaches a caller', async () => {
    const tool = listTool({ '/items/*/diagnostics': (value) => { (value as unknown[]).push({ ok: false }); return false } })
    const outcome = await createDispatcher({ tools: [tool] }).invoke({ tool_id: 'items__list', input: {} })
    const error = errorOf(outcome)
    expect([error.code, error.reason, error.details]).toEqual(['tool_execution_failed', 'omit_rule_failed', { rule: '/items/*/diagnostics', pointer: '/items/0/diagnostics', problem: 'threw' }])
    expect(error.cause).toBeInstanceOf(TypeError)
  })

  it('applies the deepest rule first, so a rule sees its value as the caller would get it', () => {
    const seen: unknown[] = []
    const tool = listTool({
      '/items/*/meta': (meta) => { seen.push(meta); return false },
      '/items/*/meta/size': () => true,
    })
    expect(tool.project(sampleRecord(), 'compact')).toMatchObject({ items: [{ meta: { tag: 't' } }, { meta: { tag: 'u' } }, { id: 'none' }] })
    expect(seen).toEqual([{ tag: 't' }, { tag: 'u' }])
  })

  it('never calls a rule for an absent property, and a record without any leaves the projection as it is', () => {
    let calls = 0
    const tool = listTool({ '/items/*/diagnostics': () => (calls++, true) }, { items: [{ id: 'a' }, { id: 'b' }] })
    expect(tool.project({ items: [{ id: 'a' }, { id: 'b' }] }, 'compact')).toStrictEqual({ items: [{ id: 'a' }, { id: 'b' }] })
    expect(calls).toBe(0)
  })

  it.each([
    ['1', () => 1],
    ['"true"', () => 'true'],
    ['undefined', () => undefined],
    ['an object', () => ({})],
  ])('a rule answering %s is the tool’s typed failure (not_boolean), never a rejected invoke', async (_name, rule) => {
    const tool = listTool({ '/items/*/diagnostics': rule as never })
    const error = errorOf(await createDispatcher({ tools: [tool] }).invoke({ tool_id: 'items__list', input: {} }))
    expect(error.details).toEqual({ rule: '/items/*/diagnostics', pointer: '/items/0/diagnostics', problem: 'not_boolean' })
    expect(error.message).toBe('tool "items__list" omitWhen rule "/items/*/diagnostics" answered something other than true or false at "/items/0/diagnostics"')
  })

  it('an async rule is refused at once, and its rejection is not left unhandled', async () => {
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    try {
      const tool = listTool({ '/items/*/diagnostics': (async () => { throw new Error('late') }) as never })
      const error = errorOf(await createDispatcher({ tools: [tool] }).invoke({ tool_id: 'items__list', input: {} }))
      expect(error.details).toMatchObject({ problem: 'not_boolean' })
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', onUnhandled)
    }
  })

  it('a rule that throws: threw, with its message and the thrown value as cause; sensitive input values scrubbed', async () => {
    const tool = defineTool({
      id: 'items__list',
      description: 'd',
      input: Type.Object({ token: Type.String() }, { additionalProperties: false }),
      output: { compact: Compact, full: Full },
      sensitiveInputFields: ['token'],
      omitWhen: { '/cursor': (cursor) => { throw new Error(`cannot judge cursor ${String(cursor)}`) } },
      handler: (given) => ({ items: [], cursor: given.token }),
    })
    const error = errorOf(await createDispatcher({ tools: [tool] }).invoke({ tool_id: 'items__list', input: { token: 'sk-live-canary-42' } }))
    expect(error.reason).toBe('omit_rule_failed')
    expect(error.message).toBe('tool "items__list" omitWhen rule "/cursor" threw at "/cursor": cannot judge cursor [REDACTED]')
    expect(JSON.stringify(error)).not.toContain('sk-live-canary-42')
  })

  it('a rule that never answers is stopped after 1000 ms and answered as a timeout', async () => {
    const tool = listTool({ '/items/*/diagnostics': (list) => {
      // Catches everything it can: the stop still reaches it.
      for (;;) {
        try {
          if ((list as unknown[]).length < 0) return true
        } catch {
          // keep looping
        }
      }
    } })
    const started = Date.now()
    const error = errorOf(await createDispatcher({ tools: [tool] }).invoke({ tool_id: 'items__list', input: {} }))
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(error.details).toEqual({ rule: '/items/*/diagnostics', pointer: '/items/0/diagnostics', problem: 'timeout' })
    expect(error.message).toBe('tool "items__list" omitWhen rule "/items/*/diagnostics" did not answer within 1000 ms at "/items/0/diagnostics"')
    // The dispatcher keeps working: the next call of another tool answers.
    const fine = listTool({ '/items/*/diagnostics': allOk })
    expect((await createDispatcher({ tools: [fine] }).invoke({ tool_id: 'items__list', input: {} })).status).toBe('ok')
  })

  it('tool.project throws the typed error itself (for tests that project directly)', () => {
    const tool = listTool({ '/cursor': () => { throw new Error('no') } })
    const error = thrown(() => tool.project(sampleRecord(), 'compact')) as ToolError
    expect(isToolError(error)).toBe(true)
    expect([error.code, error.reason]).toEqual(['tool_execution_failed', 'omit_rule_failed'])
  })

  it('the default preview is of the record the caller gets, rules applied', async () => {
    const tool = listTool({ '/items/*/diagnostics': () => true })
    const outcome = await createDispatcher({ tools: [tool] }).invoke({ tool_id: 'items__list', input: {} })
    if (outcome.status !== 'ok') throw new Error('expected ok')
    expect(outcome.result.preview).not.toContain('diagnostics')
    expect(outcome.result.preview).toBe(JSON.stringify(outcome.result.structured))
  })
})

describe('omitWhen in the descriptor', () => {
  it('lists the rule paths (sorted) on the compact contract; the schema digests do not change', () => {
    const plain = defineTool({ id: 'items__list', description: 'd', input, output: { compact: Compact, full: Full }, handler: () => sampleRecord() })
    const ruled = listTool({ '/items/*/meta/size': () => false, '/items/*/diagnostics': allOk })
    const before = describeTool(plain)
    const after = describeTool(ruled)
    expect(before.output_views!.compact).not.toHaveProperty('omit_when')
    expect(after.output_views!.compact.omit_when).toEqual(['/items/*/diagnostics', '/items/*/meta/size'])
    expect(after.output_views!.compact.digest).toBe(before.output_views!.compact.digest)
    expect(after.output_schema_digest).toBe(schemaDigest(JSON.parse(JSON.stringify(Compact))))
    expect(Object.isFrozen(after.output_views!.compact.omit_when)).toBe(true)
  })
})
