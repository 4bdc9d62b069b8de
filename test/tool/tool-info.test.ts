import { Ajv } from 'ajv'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  createDispatcher,
  defineToolInfoTool,
  describeTool,
  isToolDefinitionError,
  isToolError,
  type Dispatcher,
  type Tool,
  type ToolDescriptor,
} from 'result-views'
import { exampleTools } from '../../examples/tools/catalog.js'
import { extensionTool, noteTool, skillTool } from '../support/tools.js'

/** A dispatcher over `tools` plus a tool-info tool wired to it, as the docs show. */
function withToolInfo(tools: Tool[], id?: string): { dispatcher: Dispatcher; info: Tool } {
  let dispatcher: Dispatcher | undefined
  const info = defineToolInfoTool({ ...(id === undefined ? {} : { id }), describe: (toolId) => dispatcher?.describe(toolId) })
  dispatcher = createDispatcher({ tools: [...tools, info] })
  return { dispatcher, info }
}

describe('defineToolInfoTool', () => {
  it('is a read-only single-result tool named tool_info by default, taking { tool_id }', () => {
    const { info } = withToolInfo([])
    expect(info.kind).toBe('single')
    expect(info.id).toBe('tool_info')
    expect(info.risk).toBe('read')
    expect(info.readOnly).toBe(true)
    const descriptor = describeTool(info)
    expect(descriptor).not.toHaveProperty('output_views')
    expect(descriptor.input_schema).toMatchObject({ type: 'object', required: ['tool_id'], additionalProperties: false })
    expect(Object.keys(descriptor.input_schema.properties as object)).toEqual(['tool_id'])
  })

  it('returns a viewed tool descriptor, output_views included, under tool.descriptor', async () => {
    const { dispatcher } = withToolInfo([...exampleTools()], 'compozy__tool_info')
    const outcome = await dispatcher.invoke({ tool_id: 'compozy__tool_info', input: { tool_id: 'compozy__session_status' } })
    expect(outcome.status).toBe('ok')
    if (outcome.status !== 'ok') return
    const record = outcome.result.structured as { tool: { descriptor: ToolDescriptor } }
    expect(record).toEqual({ tool: { descriptor: dispatcher.describe('compozy__session_status') } })
    expect(Object.keys(record.tool.descriptor.output_views!)).toEqual(['compact', 'full'])
    expect(record.tool.descriptor.output_schema_digest).toBe(record.tool.descriptor.output_views!.compact.digest)
    expect(outcome.result.preview).toBe('compozy__session_status')
  })

  it('returns a single-result tool descriptor with output_schema only', async () => {
    const { dispatcher } = withToolInfo([skillTool()])
    const outcome = await dispatcher.invoke({ tool_id: 'tool_info', input: { tool_id: 'skills__view' } })
    expect(outcome.status).toBe('ok')
    if (outcome.status !== 'ok') return
    const descriptor = (outcome.result.structured as { tool: { descriptor: ToolDescriptor } }).tool.descriptor
    expect(descriptor).toEqual(describeTool(skillTool()))
    expect(descriptor).not.toHaveProperty('output_views')
    expect(descriptor.input_schema.properties).not.toHaveProperty('result_view')
  })

  it('describes every tool of a catalog, itself included, and its output schema accepts each answer', async () => {
    const tools: Tool[] = [...exampleTools(), noteTool(), skillTool(), extensionTool()]
    const { dispatcher, info } = withToolInfo(tools)
    const validate = new Ajv({ strict: false }).compile(info.output as object)
    for (const descriptor of dispatcher.list()) {
      const outcome = await dispatcher.invoke({ tool_id: 'tool_info', input: { tool_id: descriptor.tool_id } })
      expect(outcome.status, descriptor.tool_id).toBe('ok')
      if (outcome.status !== 'ok') continue
      expect(outcome.result.structured).toEqual({ tool: { descriptor } })
      expect(validate(outcome.result.structured)).toBe(true)
    }
  })

  it('has an honest output schema: typed descriptor fields, schemas as open objects', () => {
    const { info } = withToolInfo([])
    const validate = new Ajv({ strict: false }).compile(info.output as object)
    const descriptor = describeTool(noteTool())
    const ok = { tool: { descriptor } }
    expect(validate(ok)).toBe(true)
    expect(validate({ tool: { descriptor: { ...descriptor, output_schema_digest: 'sha256:abc' } } })).toBe(false)
    expect(validate({ tool: { descriptor: { ...descriptor, tool_id: 1 } } })).toBe(false)
    expect(validate({ tool: { descriptor: { ...descriptor, input_schema: 'not a schema' } } })).toBe(false)
    const { output_views, ...withoutViews } = descriptor
    expect(validate({ tool: { descriptor: withoutViews } })).toBe(true)
    expect(validate({ tool: { descriptor: { ...descriptor, output_views: { compact: output_views!.compact } } } })).toBe(false)
    expect(validate({ tool: { descriptor: { ...descriptor, a_later_field: true } } })).toBe(true)
    expect(validate({ tool: { descriptor }, extra: 1 })).toBe(false)
    expect(validate({ descriptor })).toBe(false)
  })

  it('fails an unknown tool_id with the typed error the handler threw (tool_not_found / unknown_tool)', async () => {
    const { dispatcher } = withToolInfo([noteTool()])
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 200 }).filter((id) => id !== 'notes__read' && id !== 'tool_info'),
        async (toolId) => {
          const outcome = await dispatcher.invoke({ tool_id: 'tool_info', input: { tool_id: toolId } })
          expect(outcome.status).toBe('error')
          if (outcome.status !== 'error') return
          const shown = toolId.length > 128 ? toolId.slice(0, 128) + '…' : toolId
          expect(isToolError(outcome.error)).toBe(true)
          expect(outcome.error.code).toBe('tool_not_found')
          expect(outcome.error.reason).toBe('unknown_tool')
          expect(outcome.error.message).toBe(`tool ${JSON.stringify(shown)} is not registered`)
        },
      ),
      { numRuns: 50 },
    )
  })

  it('rejects a non-string or empty tool_id before running', async () => {
    const { dispatcher } = withToolInfo([noteTool()])
    for (const input of [{}, { tool_id: '' }, { tool_id: 1 }, { tool_id: 'notes__read', extra: true }]) {
      const outcome = await dispatcher.invoke({ tool_id: 'tool_info', input })
      expect(outcome.status).toBe('error')
      if (outcome.status === 'error') expect(outcome.error.code).toBe('tool_invalid_input')
    }
  })

  it('takes an id, a description and toolsets', () => {
    const info = defineToolInfoTool({ id: 'compozy__tool_info', description: 'Contracts.', toolsets: ['meta'], describe: () => undefined })
    expect(info.id).toBe('compozy__tool_info')
    expect(info.description).toBe('Contracts.')
    expect(info.toolsets).toEqual(['meta'])
  })

  it('refuses a definition without a describe function', () => {
    for (const options of [{}, { describe: 'dispatcher' }, undefined]) {
      let thrown: unknown
      try {
        defineToolInfoTool(options as never)
      } catch (error) {
        thrown = error
      }
      expect(isToolDefinitionError(thrown)).toBe(true)
      expect(thrown).toMatchObject({ code: 'tool_definition_invalid', problems: [{ path: '/describe', code: 'invalid_describe' }] })
    }
  })
})
