import { describe, expect, it } from 'vitest'
import { createDispatcher, describeTool, schemaDigest } from 'result-views'
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
