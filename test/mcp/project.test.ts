import { Ajv } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { defineTool, describeTool, ToolError, type InvokeOutcome, type JsonSchema, type ToolDescriptor } from 'result-views'
import { MCP_OUTCOME_META_KEY, toCallToolResult, toMcpTool, toMcpToolList } from 'result-views/mcp'
import { exampleTools } from '../../examples/tools/catalog.js'
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
          text: 'approval_pending: approval_id=appr-1: tool "deploy__start" did not run; it is waiting on approval appr-1 and will run once when the host approves it, and its result is recorded with the approval. Do not call it again to make it run: a new call opens a new approval',
        },
      ],
      _meta: { [MCP_OUTCOME_META_KEY]: { status: 'approval_pending', tool_call_id: 'c3', approval_id: 'appr-1' } },
    })
  })
})

describe('toMcpTool', () => {
  it('keeps name, description, input schema and annotations only (no output schema of any kind)', () => {
    for (const tool of [noteTool(), skillTool()]) {
      const descriptor = describeTool(tool)
      const listing = toMcpTool(descriptor)
      expect(listing).toEqual({ name: descriptor.tool_id, description: descriptor.description, inputSchema: descriptor.input_schema, annotations: { readOnlyHint: false, destructiveHint: true } })
      expect(JSON.stringify(listing)).not.toContain('output')
    }
    expect(toMcpToolList([describeTool(noteTool()), describeTool(skillTool())]).map((t) => t.name)).toEqual(['notes__read', 'skills__view'])
  })

  it('derives readOnlyHint from read_only and destructiveHint from risk, false only for risk "write" (MCP defaults otherwise)', () => {
    const annotationsOf = (definition: { risk?: string; readOnly?: boolean }) =>
      toMcpTool(describeTool(defineTool({ id: 'x', description: 'x', input: Type.Object({}), output: Type.Object({}), handler: () => ({}), ...definition }))).annotations
    expect(annotationsOf({ risk: 'read' })).toEqual({ readOnlyHint: true })
    expect(annotationsOf({ risk: 'destructive', readOnly: true })).toEqual({ readOnlyHint: true })
    expect(annotationsOf({ risk: 'write' })).toEqual({ readOnlyHint: false, destructiveHint: false })
    expect(annotationsOf({ risk: 'destructive' })).toEqual({ readOnlyHint: false, destructiveHint: true })
    expect(annotationsOf({ risk: 'admin' })).toEqual({ readOnlyHint: false, destructiveHint: true })
    expect(annotationsOf({})).toEqual({ readOnlyHint: false, destructiveHint: true })
    expect(annotationsOf({ readOnly: true })).toEqual({ readOnlyHint: true })
  })

  it('gives a descriptor without read_only (one made by hand) no annotations', () => {
    const { approval: _a, read_only: _r, risk: _k, ...bare } = describeTool(noteTool())
    expect(toMcpTool(bare)).not.toHaveProperty('annotations')
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

describe('toMcpTool: draft-07 schema syntax translated to 2020-12', () => {
  const descriptorOf = (input: JsonSchema): ToolDescriptor => ({
    tool_id: 't',
    description: 'd',
    input_schema: input,
    output_schema: { type: 'object' },
    output_schema_digest: '0'.repeat(64),
  })
  const listed = (input: JsonSchema): Record<string, unknown> => toMcpTool(descriptorOf(input)).inputSchema as Record<string, unknown>

  it('turns items: [..] into prefixItems and additionalItems into items, at every depth', () => {
    const input = {
      type: 'object',
      properties: {
        pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false, minItems: 2 },
        nested: { anyOf: [{ type: 'array', items: [{ type: 'array', items: [{ const: 1 }], additionalItems: { type: 'string' } }] }, { type: 'null' }] },
        list: { type: 'array', items: { type: 'string' }, additionalItems: false },
        empty: { type: 'array', items: [], additionalItems: { type: 'number' } },
        loose: { type: 'array', additionalItems: false },
      },
    }
    expect(listed(input)).toEqual({
      type: 'object',
      properties: {
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false, minItems: 2 },
        nested: { anyOf: [{ type: 'array', prefixItems: [{ type: 'array', prefixItems: [{ const: 1 }], items: { type: 'string' } }] }, { type: 'null' }] },
        list: { type: 'array', items: { type: 'string' } },
        empty: { type: 'array', items: { type: 'number' } },
        loose: { type: 'array' },
      },
    })
  })

  it('renames definitions to $defs and rewrites local $ref pointers, including into tuples', () => {
    const input = {
      type: 'object',
      definitions: { name: { type: 'string' }, pair: { type: 'array', items: [{ type: 'integer' }, { $ref: '#/definitions/name' }] } },
      properties: {
        a: { $ref: '#/definitions/name' },
        b: { $ref: '#/definitions/pair' },
        c: { $ref: '#/definitions/pair/items/0' },
        d: { $ref: '#/properties/a' },
        e: { $ref: 'https://example.com/other.json#/definitions/x' },
      },
    }
    expect(listed(input)).toEqual({
      type: 'object',
      $defs: { name: { type: 'string' }, pair: { type: 'array', prefixItems: [{ type: 'integer' }, { $ref: '#/$defs/name' }] } },
      properties: {
        a: { $ref: '#/$defs/name' },
        b: { $ref: '#/$defs/pair' },
        c: { $ref: '#/$defs/pair/prefixItems/0' },
        d: { $ref: '#/properties/a' },
        e: { $ref: 'https://example.com/other.json#/definitions/x' },
      },
    })
  })

  it('keeps property names and data untouched: a property called items, definitions or $schema is data', () => {
    const input = {
      type: 'object',
      properties: {
        items: { type: 'array', items: { type: 'string' } },
        definitions: { type: 'object' },
        additionalItems: { type: 'boolean' },
        $schema: { type: 'string' },
      },
      default: { items: [1, 2], additionalItems: false, definitions: {}, $schema: 'x' },
      enum: [{ items: [{}] }],
    }
    expect(listed(input)).toBe(input)
  })

  it('leaves definitions alone when $defs is already there (both are kept, refs unchanged)', () => {
    const input = { $defs: { a: { type: 'string' } }, definitions: { b: { type: 'number' } }, properties: { x: { $ref: '#/definitions/b' } } }
    expect(listed(input)).toBe(input)
  })

  // ---- equivalence: 2020-12 validation of the listing = draft-07 validation of the descriptor ----
  const draft07 = new Ajv({ strict: false })
  const draft2020 = new Ajv2020({ strict: false })
  const sameVerdicts = (original: JsonSchema, instances: readonly unknown[]): void => {
    const before = draft07.compile(original)
    const translated = listed(original)
    expect(translated).not.toHaveProperty('$schema')
    const after = draft2020.compile(translated)
    for (const instance of instances) expect(after(instance), JSON.stringify(instance)).toBe(before(instance))
  }

  it('every example-catalog and TypeBox Tuple input schema compiles under 2020-12 and decides like draft-07', () => {
    const tupleTool = defineTool({
      id: 'geo__segment',
      description: 'A segment.',
      input: Type.Object({
        from: Type.Tuple([Type.Number(), Type.Number()]),
        to: Type.Optional(Type.Tuple([Type.Number(), Type.String(), Type.Boolean()])),
        tags: Type.Array(Type.Tuple([Type.String()])),
      }),
      output: Type.Object({}),
      handler: () => ({}),
    })
    const descriptors = [...exampleTools(), tupleTool, noteTool(), skillTool()].map(describeTool)
    const fixed = [
      { from: [1, 2], tags: [] },
      { from: [1, 2], to: [1, 'a', true], tags: [['x']] },
      { from: [1, 2, 3], tags: [] },
      { from: [1], tags: [] },
      { from: [1, 2], to: [1, 2, true], tags: [['x', 'y']] },
      { session_id: 'sess-example' },
      { session_id: 'sess-example', result_view: 'full' },
      { session_id: 'sess-example', result_view: 'summary' },
      { agent_name: 'general', ttl_seconds: 3600 },
      { skill_id: 'testing' },
      { tool_id: 'compozy__session_status' },
      { id: 'n1' },
      {},
    ]
    for (const descriptor of descriptors) {
      const names = Object.keys((descriptor.input_schema.properties ?? {}) as object)
      const instance = fc.dictionary(
        fc.constantFrom(...names, 'extra'),
        fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.array(fc.oneof(fc.integer(), fc.string(), fc.boolean()), { maxLength: 4 })),
        { maxKeys: names.length + 1 },
      )
      sameVerdicts(descriptor.input_schema, [...fixed, ...fc.sample(instance, { numRuns: 300, seed: 7 })])
    }
  })

  it('any draft-07 tuple schema decides like its 2020-12 listing (property)', () => {
    const leaf = fc.constantFrom<Record<string, unknown>>({ type: 'string' }, { type: 'number' }, { type: 'integer' }, { const: 1 }, {})
    const schema = fc.letrec<{ node: Record<string, unknown> }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.record(
          { type: fc.constant('array'), items: fc.array(tie('node'), { minLength: 1, maxLength: 3 }), additionalItems: fc.oneof(fc.boolean(), tie('node')), minItems: fc.nat(3) },
          { requiredKeys: ['type', 'items'] },
        ),
        fc.record({ type: fc.constant('array'), items: tie('node'), additionalItems: fc.boolean() }, { requiredKeys: ['type'] }),
        fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 2 }) }),
        fc.record({ type: fc.constant('object'), properties: fc.dictionary(fc.constantFrom('items', 'a', '$schema'), tie('node'), { maxKeys: 2 }) }),
      ),
    })).node
    const instance = fc.oneof(
      fc.array(fc.oneof(fc.integer({ min: 0, max: 2 }), fc.string({ maxLength: 1 }), fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 3 })), { maxLength: 4 }),
      fc.jsonValue({ maxDepth: 2 }),
    )
    fc.assert(
      fc.property(schema, fc.array(instance, { minLength: 1, maxLength: 10 }), (input, instances) => {
        sameVerdicts({ type: 'object', properties: { x: input } } as JsonSchema, instances.map((x) => ({ x })))
      }),
      { numRuns: 200 },
    )
  })
})
