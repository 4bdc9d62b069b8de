import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, defineToolInfoTool, describeTool, schemaDigest, type ToolDefinition } from 'result-views'
import { contractLock } from 'result-views/contracts'
import { startRun } from 'result-views/loop'
import { NoteCompact, NoteFull, noteTool, skillTool } from '../support/tools.js'

describe('describeTool (spec 000 "Discovering both contracts")', () => {
  it('describes a viewed tool: output_schema is the compact view; output_views carries both with digests', () => {
    const d = describeTool(noteTool())
    const compact = JSON.parse(JSON.stringify(NoteCompact))
    const full = JSON.parse(JSON.stringify(NoteFull))
    expect(d).toEqual({
      tool_id: 'notes__read',
      description: 'Read one note.',
      input_schema: {
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'string' }, result_view: { type: 'string', enum: ['compact', 'full'], default: 'compact' } },
        additionalProperties: false,
      },
      output_schema: compact,
      output_schema_digest: schemaDigest(compact),
      output_views: { compact: { schema: compact, digest: schemaDigest(compact) }, full: { schema: full, digest: schemaDigest(full) } },
      approval: 'none',
      read_only: false,
    })
    expect(d.output_views!.compact.digest).not.toBe(d.output_views!.full.digest)
    expect(d.input_schema.required).not.toContain('result_view')
  })

  it('describes a single-result tool with no output_views and no result_view input', () => {
    const d = describeTool(skillTool())
    expect(d).not.toHaveProperty('output_views')
    expect(Object.keys(d.input_schema.properties as object)).toEqual(['skill_id'])
    expect(d.output_schema_digest).toBe(schemaDigest(d.output_schema))
  })

  it('computes each descriptor once and freezes it', () => {
    const tool = noteTool()
    expect(describeTool(tool)).toBe(describeTool(tool))
    expect(Object.isFrozen(describeTool(tool).output_views!.full.schema)).toBe(true)
    expect(() => {
      ;(describeTool(tool).input_schema as Record<string, unknown>).type = 'string'
    }).toThrow(TypeError)
  })

  it('dispatcher.describe and list return the same descriptors', () => {
    const tools = [noteTool(), skillTool()]
    const dispatcher = createDispatcher({ tools })
    expect(dispatcher.describe('notes__read')).toBe(describeTool(tools[0]!))
    expect(dispatcher.describe('nope')).toBeUndefined()
    expect(dispatcher.list()).toEqual(tools.map(describeTool))
  })
})

describe('descriptor approval and risk facts', () => {
  const base = {
    id: 'ops__purge',
    description: 'Purge a target.',
    input: Type.Object({ target: Type.String() }, { additionalProperties: false }),
    output: { compact: Type.Object({ target: Type.String() }, { additionalProperties: false }), full: Type.Object({ target: Type.String(), log: Type.String() }, { additionalProperties: false }) },
    handler: (input: { target: string }) => ({ target: input.target, log: 'purged' }),
  }
  const facts = (definition: Partial<ToolDefinition>) => {
    const { approval, risk, read_only } = describeTool(defineTool({ ...base, ...definition } as never)) as unknown as Record<string, unknown>
    return { approval, risk, read_only }
  }

  it('carries approval, risk and read_only as the tool declares them (defaults none, absent, risk === "read")', () => {
    expect(facts({})).toEqual({ approval: 'none', risk: undefined, read_only: false })
    expect(Object.keys(describeTool(defineTool(base as never)))).not.toContain('risk')
    expect(facts({ risk: 'read' })).toEqual({ approval: 'none', risk: 'read', read_only: true })
    expect(facts({ risk: 'destructive', approval: 'required' })).toEqual({ approval: 'required', risk: 'destructive', read_only: false })
    expect(facts({ risk: 'read', readOnly: false })).toEqual({ approval: 'none', risk: 'read', read_only: false })
    expect(facts({ risk: 'write', readOnly: true })).toEqual({ approval: 'none', risk: 'write', read_only: true })
  })

  it('changes no schema digest, no contract lock entry and no Loop pin when only the facts differ', () => {
    const plain = defineTool(base as never)
    const gated = defineTool({ ...base, risk: 'destructive', approval: 'required', readOnly: false } as never)
    const [a, b] = [describeTool(plain), describeTool(gated)]
    expect(b.output_schema_digest).toBe(a.output_schema_digest)
    expect(b.output_views).toEqual(a.output_views)
    expect(a.output_views!.compact.digest).toBe(schemaDigest(a.output_views!.compact.schema))
    expect(contractLock([gated])).toEqual(contractLock([plain]))
    const loop = { graph: { nodes: [{ id: 'purge', class: 'action', kind: 'ops__purge', params: { target: 'x', result_view: 'full' } }], edges: [] } }
    const pinned = startRun(loop as never, [gated])
    expect(pinned.pins).toEqual({ purge: { tool_id: 'ops__purge', result_view: 'full', schema_digest: a.output_views!.full.digest } })
    expect(pinned).toEqual(startRun(loop as never, [plain]))
    expect(Object.keys(contractLock([plain]).tools)).toEqual(['ops__purge'])
  })

  it('keeps the digests the descriptors had before the facts were added (regression: the schemas alone are digested)', () => {
    const note = describeTool(noteTool())
    expect([note.output_schema_digest, note.output_views!.full.digest]).toEqual([
      'fb1dd9092be5e07c911b9b0912a42567c97946ff2f4b6681406d913c06c89a57',
      '0e3cc408b6d4aff4c3e07598c81df07ab32e1cbb2d157d21022143f3ebf50bea',
    ])
    // The tool-info tool's own output schema stays open: the approval facts pass through it and do
    // not change its digest. (It did change in the same release for another reason: it now
    // declares `output_views.compact.omit_when`; this digest is the one with that field.)
    const info = defineToolInfoTool({ describe: () => describeTool(noteTool()) })
    expect(describeTool(info).output_schema_digest).toBe('82cf3c78b61c76678847b8f37b4cd2c94dbead1f8edcba216d902b23d036fb6f')
  })

  it('passes the facts through the tool-info tool', async () => {
    const tools = [noteTool(), skillTool()]
    let dispatcher: ReturnType<typeof createDispatcher>
    const info = defineToolInfoTool({ describe: (id) => dispatcher.describe(id) })
    dispatcher = createDispatcher({ tools: [...tools, info] })
    const outcome = await dispatcher.invoke({ tool_id: 'tool_info', input: { tool_id: 'tool_info' } })
    expect(outcome.status === 'ok' && outcome.result.structured).toMatchObject({ tool: { descriptor: { tool_id: 'tool_info', approval: 'none', risk: 'read', read_only: true } } })
  })
})

