import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { describeTool, ToolError, type InvokeOutcome, type JsonSchema, type ToolDescriptor } from 'result-views'
import { MCP_OUTCOME_META_KEY, toCallToolResult, toMcpTool, toMcpToolList } from 'result-views/mcp'
import { noteTool, skillTool } from '../support/tools.js'

const jsonObject = fc.dictionary(fc.string(), fc.jsonValue()).map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>)

describe('toCallToolResult', () => {
  it('puts an object record in structuredContent and exactly its JSON in one text block', () => {
    fc.assert(
      fc.property(jsonObject, fc.constantFrom(undefined, 'compact' as const, 'full' as const), (record, view) => {
        const outcome: InvokeOutcome = {
          status: 'ok',
          tool_call_id: 'c1',
          result: { structured: record, preview: '' },
          ...(view === undefined ? {} : { result_view: view }),
        }
        const result = toCallToolResult(outcome, 't')
        expect(result.structuredContent).toBe(record)
        expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(record) }])
        expect(result).not.toHaveProperty('isError')
        const meta = result._meta[MCP_OUTCOME_META_KEY]
        expect(meta).toEqual(view === undefined ? { status: 'ok', tool_call_id: 'c1' } : { status: 'ok', tool_call_id: 'c1', result_view: view })
      }),
    )
  })

  it('puts any record that is not a JSON object in the text block only', () => {
    const notObject = fc.oneof(fc.array(fc.jsonValue()), fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null))
    fc.assert(
      fc.property(notObject, (record) => {
        const result = toCallToolResult({ status: 'ok', tool_call_id: 'c1', result: { structured: record, preview: '' } }, 't')
        expect(result).not.toHaveProperty('structuredContent')
        expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(record) }])
      }),
    )
  })

  it('maps every error to isError with "<code> (<reason>): <message>" and no structuredContent', () => {
    const codes = ['tool_invalid_input', 'invalid_request', 'tool_not_found', 'tool_denied', 'tool_execution_failed', 'tool_output_invalid'] as const
    fc.assert(
      fc.property(fc.constantFrom(...codes), fc.string({ minLength: 1 }), fc.string(), fc.option(jsonObject, { nil: undefined }), (code, reason, message, details) => {
        const error = new ToolError(details === undefined ? { code, reason, message } : { code, reason, message, details })
        const result = toCallToolResult({ status: 'error', tool_call_id: 'c2', error }, 't')
        expect(result.isError).toBe(true)
        expect(result).not.toHaveProperty('structuredContent')
        expect(result.content).toEqual([{ type: 'text', text: `${code} (${reason}): ${message}` }])
        const meta = { status: 'error', tool_call_id: 'c2', code, reason, ...(details === undefined ? {} : { details }) }
        expect(result._meta[MCP_OUTCOME_META_KEY]).toEqual(meta)
      }),
    )
  })

  it('maps approval_pending to isError with the approval ID in the text and _meta', () => {
    const result = toCallToolResult({ status: 'approval_pending', tool_call_id: 'c3', approval_id: 'appr-1' }, 'deploy__start')
    expect(result).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'approval_pending: approval_id=appr-1: tool "deploy__start" is waiting on an approval decision and did not run; call it again with the same arguments once the approval is granted',
        },
      ],
      _meta: { [MCP_OUTCOME_META_KEY]: { status: 'approval_pending', tool_call_id: 'c3', approval_id: 'appr-1' } },
    })
  })
})

describe('toMcpTool', () => {
  it('keeps name, description and input schema only (no output schema of any kind)', () => {
    for (const tool of [noteTool(), skillTool()]) {
      const descriptor = describeTool(tool)
      const listing = toMcpTool(descriptor)
      expect(listing).toEqual({ name: descriptor.tool_id, description: descriptor.description, inputSchema: descriptor.input_schema })
      expect(JSON.stringify(listing)).not.toContain('output')
    }
    expect(toMcpToolList([describeTool(noteTool()), describeTool(skillTool())]).map((t) => t.name)).toEqual(['notes__read', 'skills__view'])
  })

  it('lists result_view on viewed tools only', () => {
    expect(toMcpTool(describeTool(noteTool())).inputSchema.properties).toHaveProperty('result_view')
    expect(toMcpTool(describeTool(skillTool())).inputSchema.properties).not.toHaveProperty('result_view')
  })

  const dialect = 'http://json-schema.org/draft-07/schema#'
  const descriptorWith = (input: JsonSchema): ToolDescriptor => ({
    tool_id: 't',
    description: 'd',
    input_schema: input,
    output_schema: { type: 'object' },
    output_schema_digest: '0'.repeat(64),
  })

  it('removes $schema in every subschema position and keeps properties named $schema', () => {
    const input = {
      $schema: dialect,
      type: 'object',
      properties: {
        $schema: { type: 'string' },
        a: { $schema: dialect, type: 'array', items: { $schema: dialect, type: 'string' } },
        b: { anyOf: [{ $schema: dialect, type: 'string' }, { type: 'null' }] },
        c: { type: 'object', additionalProperties: { $schema: dialect, type: 'number' }, patternProperties: { '^x': { $schema: dialect } } },
      },
      $defs: { d: { $schema: dialect, type: 'string' } },
      not: { $schema: dialect, const: 1 },
      const: { $schema: 'data, not a keyword position' },
    }
    Object.defineProperty(input.properties, '__proto__', { value: { $schema: dialect, type: 'string' }, enumerable: true })
    const before = JSON.stringify(input)
    const schema = toMcpTool(descriptorWith(input)).inputSchema
    expect(JSON.stringify(input)).toBe(before)
    const text = JSON.stringify(schema)
    expect(text.match(/draft-07/g)).toBeNull()
    const properties = schema.properties as Record<string, unknown>
    expect(Object.prototype.hasOwnProperty.call(properties, '$schema')).toBe(true)
    expect(Object.prototype.hasOwnProperty.call(properties, '__proto__')).toBe(true)
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype)
    expect(properties.__proto__).toEqual({ type: 'string' })
    expect(schema.const).toEqual({ $schema: 'data, not a keyword position' })
  })

  it('returns a schema without $schema unchanged (same object)', () => {
    const input = Type.Object({ a: Type.String() })
    const descriptor = descriptorWith(JSON.parse(JSON.stringify(input)) as JsonSchema)
    expect(toMcpTool(descriptor).inputSchema).toBe(descriptor.input_schema)
  })

  it('never leaves a $schema keyword and changes nothing else (property)', () => {
    const leaf = fc.record({ type: fc.constantFrom('string', 'number', 'boolean') })
    const schema = fc.letrec<{ node: Record<string, unknown> }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.record({ type: fc.constant('object'), properties: fc.dictionary(fc.string({ maxLength: 4 }), tie('node'), { maxKeys: 3 }) }),
        fc.record({ type: fc.constant('array'), items: tie('node') }),
        fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
      ),
    })).node
    const withDialects = schema.chain((s) => fc.boolean().map((root) => (root ? { ...s, $schema: dialect } : s)))
    fc.assert(
      fc.property(withDialects, (input) => {
        const stripped = toMcpTool(descriptorWith({ type: 'object', properties: { x: input } })).inputSchema
        const expected = JSON.parse(JSON.stringify({ type: 'object', properties: { x: input } }), (key, value) =>
          key === '$schema' && typeof value === 'string' && value === dialect ? undefined : value,
        )
        expect(stripped).toEqual(expected)
      }),
    )
  })
})
