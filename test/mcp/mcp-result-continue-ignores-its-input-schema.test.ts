// Regression: 06-mcp-result-continue-ignores-its-input-schema. `result_continue` lists
// `{ continuation: string }` with `additionalProperties: false`, yet ignored extra keys and read a
// number, `{}` or no arguments as `continuation_unknown`. Input that does not fit the listed schema
// is now `tool_invalid_input` / `schema_invalid` naming the problem, as for any tool.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { Ajv } from 'ajv'
import fc from 'fast-check'
import Type from 'typebox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { createMcpServer, MCP_OUTCOME_META_KEY } from 'result-views/mcp'

const dump = defineTool({
  id: 'docs__dump',
  description: 'd',
  input: Type.Object({ n: Type.Integer() }),
  output: Type.Object({ e: Type.Array(Type.String()) }),
  handler: ({ n }) => ({ e: Array.from({ length: n }, (_, i) => `item${i}`) }),
})

type Result = { isError?: boolean; content: Array<{ type: string; text: string }>; structuredContent?: any; _meta?: Record<string, any> }

describe('06-mcp-result-continue-ignores-its-input-schema', () => {
  let client: Client
  let inputSchema: Record<string, unknown>
  beforeAll(async () => {
    const server = createMcpServer(createDispatcher({ tools: [dump] }), { name: 'h', version: '1', maxResultBytes: 256 })
    const [a, b] = InMemoryTransport.createLinkedPair()
    await server.connect(a)
    client = new Client({ name: 'c', version: '1' })
    await client.connect(b)
    inputSchema = (await client.listTools()).tools.find((tool) => tool.name === 'result_continue')!.inputSchema
  })
  afterAll(async () => {
    await client.close()
  })

  const call = async (args: Record<string, unknown> | undefined): Promise<Result> =>
    (await client.callTool(args === undefined ? { name: 'result_continue' } : { name: 'result_continue', arguments: args })) as Result
  const handle = async (): Promise<string> => ((await client.callTool({ name: 'docs__dump', arguments: { n: 100 } })) as Result).structuredContent.continuation

  it('lists the schema it checks', () => {
    expect(inputSchema).toMatchObject({ type: 'object', required: ['continuation'], additionalProperties: false, properties: { continuation: { type: 'string' } } })
  })

  const cases: Array<[string, () => Promise<Record<string, unknown> | undefined>, string, object[]]> = [
    ['an extra key', async () => ({ continuation: await handle(), result_view: 'full', junk: 1 }), 'unknown property "result_view"; unknown property "junk"', [
      { keyword: 'additionalProperties', params: { additionalProperty: 'result_view' } },
      { keyword: 'additionalProperties', params: { additionalProperty: 'junk' } },
    ]],
    ['a number continuation', async () => ({ continuation: 5 }), 'wrong type at "/continuation": must be string', [{ instancePath: '/continuation', keyword: 'type', params: { type: 'string' } }]],
    ['empty arguments', async () => ({}), 'missing required property "continuation"', [{ instancePath: '', keyword: 'required', params: { missingProperty: 'continuation' } }]],
    ['no arguments', async () => undefined, 'missing required property "continuation"', [{ keyword: 'required' }]],
  ]
  for (const [name, args, named, issues] of cases) {
    it(`refuses ${name} with tool_invalid_input / schema_invalid naming the problem`, async () => {
      const result = await call(await args())
      expect(result.isError).toBe(true)
      expect(result.structuredContent).toBeUndefined()
      expect(result._meta?.[MCP_OUTCOME_META_KEY]).toMatchObject({ status: 'error', code: 'tool_invalid_input', reason: 'schema_invalid', details: { issues } })
      expect(result._meta?.[MCP_OUTCOME_META_KEY].details.issues).toHaveLength(issues.length)
      expect(result.content[0]!.text).toBe(`tool_invalid_input (schema_invalid): tool "result_continue" input does not match its schema: ${named}`)
    })
  }

  it('still serves a handle that fits the schema, and a string that is no handle is continuation_unknown', async () => {
    const next = await call({ continuation: await handle() })
    expect(next.isError).toBeFalsy()
    expect(next.structuredContent.part).toBe(2)
    const unknown = await call({ continuation: 'rvc_nope' })
    expect(unknown._meta?.[MCP_OUTCOME_META_KEY]).toMatchObject({ code: 'tool_invalid_input', reason: 'continuation_unknown' })
  })

  it('refuses exactly the arguments the listed schema refuses (property, judged by ajv)', async () => {
    const validate = new Ajv({ strict: false }).compile(inputSchema)
    const value = fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.constant(null), fc.boolean(), fc.constant({}), fc.constant([]))
    const args = fc.dictionary(fc.constantFrom('continuation', 'junk', 'result_view', 'constructor'), value, { maxKeys: 3 })
    await fc.assert(
      fc.asyncProperty(args, async (sent) => {
        const outcome = (await call(sent))._meta?.[MCP_OUTCOME_META_KEY]
        expect(outcome.reason === 'schema_invalid').toBe(!validate(sent))
      }),
      { numRuns: 80 },
    )
  })
})
