// Result size limits over MCP (`maxResultBytes`): parts, the continuation tool, the store's bounds
// and scope binding, read with the SDK's own Client.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, type CallScope, type Dispatcher } from 'result-views'
import { createMcpServer, isMcpOptionsError, MCP_OUTCOME_META_KEY, type McpServerOptions } from 'result-views/mcp'

const Entry = Type.Object({ id: Type.Integer(), title: Type.String() }, { additionalProperties: false })
const EntryFull = Type.Object({ id: Type.Integer(), title: Type.String(), body: Type.String(), secret: Type.String() })

/** A viewed tool whose full record holds `count` entries with escapes, quotes, emoji and non-ASCII text. */
function bigTool(count: number) {
  return defineTool({
    id: 'docs__dump',
    description: 'Dump documents.',
    input: Type.Object({ api_key: Type.Optional(Type.String()) }, { additionalProperties: false }),
    sensitiveInputFields: ['/api_key'],
    output: { compact: Type.Object({ entries: Type.Array(Entry) }, { additionalProperties: false }), full: Type.Object({ entries: Type.Array(EntryFull) }) },
    handler: () => ({ entries: Array.from({ length: count }, (_, id) => entryOf(id)) }),
  })
}

function entryOf(id: number) {
  return {
    id,
    title: `Tïtle "${id}" \\ 😀 \n\t\u0001 ✓`,
    body: `Line one of ${id}\nline "two" with 🧪🧪 and é, ü, 中文, \\backslash\\ and a tab\t.`.repeat(4),
    secret: `s3cr3t-${id}`,
  }
}

type Part = { result_part: string; part: number; bytes_from: number; bytes_shown: number; total_bytes: number; continuation?: string; note: string; result_view?: string }

async function connect(dispatcher: Dispatcher, options: Partial<McpServerOptions> = {}) {
  const server = createMcpServer(dispatcher, { name: 'limits', version: '1.0.0', ...options })
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
  await server.connect(serverTransport)
  const client = new Client({ name: 'test-client', version: '1.0.0' })
  await client.connect(clientTransport)
  return { client, close: async () => { await client.close(); await server.close() } }
}

/** The part a result carries, checked consistent: `structuredContent` and both text blocks say the same. */
function partOf(result: Awaited<ReturnType<Client['callTool']>>): Part {
  expect(result.isError).toBeUndefined()
  const part = result.structuredContent as Part
  const content = result.content as Array<{ type: string; text: string }>
  expect(content).toEqual([{ type: 'text', text: part.result_part }, { type: 'text', text: part.note }])
  return part
}

const utf8 = (text: string): number => Buffer.byteLength(text, 'utf8')

/** No lone surrogate (with the `u` flag a surrogate pair is one code point, so only lone ones match). */
const wellFormed = (text: string): boolean => !/[\ud800-\udfff]/u.test(text)

describe('createMcpServer maxResultBytes', () => {
  it('returns a 1 MB full record in parts that join to its exact JSON text and parse back to it', async () => {
    const tool = bigTool(3200)
    const record = await tool.handler({}, {} as never)
    const json = JSON.stringify(record)
    expect(utf8(json)).toBeGreaterThan(1_000_000)
    const { client, close } = await connect(createDispatcher({ tools: [tool] }), { maxResultBytes: 65_536 })
    let part = partOf(await client.callTool({ name: 'docs__dump', arguments: { result_view: 'full' } }))
    expect(part).toMatchObject({ part: 1, bytes_from: 0, total_bytes: utf8(json), result_view: 'full' })
    expect(part.note).toContain('Call result_continue with {"continuation":')
    expect(part.note).toContain('"result_view": "compact" returns a smaller record')
    const texts = [part.result_part]
    while (part.continuation !== undefined) {
      const before: Part = part
      part = partOf(await client.callTool({ name: 'result_continue', arguments: { continuation: part.continuation } }))
      expect(part.part).toBe(before.part + 1)
      expect(part.bytes_from).toBe(before.bytes_from + before.bytes_shown)
      texts.push(part.result_part)
    }
    expect(part.note).toMatch(/^Last part: part \d+, bytes/)
    for (const text of texts) {
      expect(utf8(text)).toBeLessThanOrEqual(65_536)
      expect(wellFormed(text)).toBe(true)
    }
    expect(texts.length).toBeGreaterThanOrEqual(Math.ceil(utf8(json) / 65_536))
    expect(texts.join('')).toBe(json)
    expect(JSON.parse(texts.join(''))).toEqual(record)
    await close()
  })

  it('returns a result that fits whole, as without the limit, and lists result_continue only with the option', async () => {
    const without = await connect(createDispatcher({ tools: [bigTool(2)] }))
    expect((await without.client.listTools()).tools.map((t) => t.name)).toEqual(['docs__dump'])
    const plain = await without.client.callTool({ name: 'docs__dump', arguments: {} })
    await without.close()
    const limited = await connect(createDispatcher({ tools: [bigTool(2)] }), { maxResultBytes: 4096, continuationToolPrefix: 'docs__' })
    expect((await limited.client.listTools()).tools.map((t) => t.name)).toEqual(['docs__dump', 'docs__result_continue'])
    const result = await limited.client.callTool({ name: 'docs__dump', arguments: {} })
    expect(result.structuredContent).toEqual(plain.structuredContent)
    expect(result.content).toEqual(plain.content)
    await limited.close()
  })

  it('answers an expired handle with continuation_expired and an unknown one with continuation_unknown', async () => {
    const { client, close } = await connect(createDispatcher({ tools: [bigTool(400)] }), { maxResultBytes: 1024, continuations: { ttlMs: 30 } })
    const first = partOf(await client.callTool({ name: 'docs__dump', arguments: {} }))
    await new Promise((resolve) => setTimeout(resolve, 60))
    const expired = await client.callTool({ name: 'result_continue', arguments: { continuation: first.continuation } })
    expect(expired.isError).toBe(true)
    expect(expired._meta?.[MCP_OUTCOME_META_KEY]).toMatchObject({ status: 'error', code: 'tool_invalid_input', reason: 'continuation_expired' })
    for (const continuation of ['rvc_00000000-0000-0000-0000-000000000000_5', 'nope']) {
      const unknown = await client.callTool({ name: 'result_continue', arguments: { continuation } })
      expect(unknown._meta?.[MCP_OUTCOME_META_KEY]).toMatchObject({ code: 'tool_invalid_input', reason: 'continuation_unknown' })
    }
    // A handle whose offset the server never handed out is unknown too (no cut inside an escape).
    const forged = first.continuation!.replace(/_\d+$/, '_3')
    expect((await client.callTool({ name: 'result_continue', arguments: { continuation: forged } }))._meta?.[MCP_OUTCOME_META_KEY]).toMatchObject({ reason: 'continuation_unknown' })
    await close()
  })

  it('refuses a continuation to another scope with tool_denied (continuation_scope_mismatch)', async () => {
    let scope: CallScope = { workspace_id: 'ws-a', agent_name: 'coder' }
    const { client, close } = await connect(createDispatcher({ tools: [bigTool(400)] }), { maxResultBytes: 1024, scope: () => scope })
    const first = partOf(await client.callTool({ name: 'docs__dump', arguments: {} }))
    scope = { workspace_id: 'ws-b', agent_name: 'coder' }
    const foreign = await client.callTool({ name: 'result_continue', arguments: { continuation: first.continuation } })
    expect(foreign.isError).toBe(true)
    expect(foreign._meta?.[MCP_OUTCOME_META_KEY]).toMatchObject({ code: 'tool_denied', reason: 'continuation_scope_mismatch' })
    expect(JSON.stringify(foreign)).not.toContain('Tïtle')
    scope = { agent_name: 'coder', workspace_id: 'ws-a' }
    expect(partOf(await client.callTool({ name: 'result_continue', arguments: { continuation: first.continuation } })).part).toBe(2)
    await close()
  })

  it('never puts full-only or sensitive input values in a stored part', async () => {
    const { client, close } = await connect(createDispatcher({ tools: [bigTool(300)] }), { maxResultBytes: 2048 })
    let part = partOf(await client.callTool({ name: 'docs__dump', arguments: { api_key: 'sk-live-SENSITIVE' } }))
    const seen = [JSON.stringify(part)]
    while (part.continuation !== undefined) {
      part = partOf(await client.callTool({ name: 'result_continue', arguments: { continuation: part.continuation } }))
      seen.push(JSON.stringify(part))
    }
    const all = seen.join('\n')
    expect(all).not.toContain('s3cr3t')
    expect(all).not.toContain('sk-live-SENSITIVE')
    expect(all).not.toContain('Line one')
    expect(seen.length).toBeGreaterThan(2)
    await close()
  })

  it('drops the oldest result first when the store is full (maxEntries)', async () => {
    const { client, close } = await connect(createDispatcher({ tools: [bigTool(100)] }), { maxResultBytes: 1024, continuations: { maxEntries: 2 } })
    const handles: string[] = []
    for (let i = 0; i < 3; i++) handles.push(partOf(await client.callTool({ name: 'docs__dump', arguments: {} })).continuation!)
    expect((await client.callTool({ name: 'result_continue', arguments: { continuation: handles[0] } }))._meta?.[MCP_OUTCOME_META_KEY]).toMatchObject({ reason: 'continuation_unknown' })
    for (const handle of handles.slice(1)) expect(partOf(await client.callTool({ name: 'result_continue', arguments: { continuation: handle } })).part).toBe(2)
    await close()
  })

  it('refuses bad limit options and a continuation tool name the catalog already has', () => {
    const dispatcher = createDispatcher({ tools: [bigTool(1)] })
    const problemsOf = (options: Record<string, unknown>) => {
      try {
        createMcpServer(dispatcher, { name: 'n', version: '1', ...options } as McpServerOptions)
      } catch (error) {
        expect(isMcpOptionsError(error)).toBe(true)
        return (error as { problems: Array<{ path: string; code: string }> }).problems.map((p) => [p.path, p.code])
      }
      throw new Error('expected McpOptionsError')
    }
    expect(problemsOf({ maxResultBytes: 10 })).toEqual([['/maxResultBytes', 'invalid_limit']])
    expect(problemsOf({ maxResultBytes: 1.5e3 + 0.5 })).toEqual([['/maxResultBytes', 'invalid_limit']])
    expect(problemsOf({ continuations: { ttlMs: 5 } })).toEqual([['/continuations', 'invalid_limit']])
    expect(problemsOf({ maxResultBytes: 4096, continuations: { ttlMs: 0, size: 3 } })).toEqual([['/continuations/size', 'unknown_option'], ['/continuations/ttlMs', 'invalid_limit']])
    expect(problemsOf({ maxResultBytes: 4096, continuationToolPrefix: 7, continuations: [] })).toEqual([['/continuations', 'invalid_limit'], ['/continuationToolPrefix', 'invalid_option']])
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error('trap') } })
    expect(problemsOf({ maxResultBytes: 4096, continuations: hostile })).toEqual([['/continuations', 'unreadable_option']])
    const clash = defineTool({ id: 'result_continue', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })
    expect(() => createMcpServer(createDispatcher({ tools: [clash] }), { name: 'n', version: '1', maxResultBytes: 4096 })).toThrow(/choose a continuationToolPrefix/)
  })
})

describe('parts of any JSON text', () => {
  it('join to the text, each within the limit, none inside a surrogate pair or an escape', async () => {
    let value: unknown = null
    const echo = defineTool({ id: 'echo', description: 'd', input: Type.Object({}), output: Type.Unknown(), handler: () => value })
    const { client, close } = await connect(createDispatcher({ tools: [echo] }), { maxResultBytes: 256 })
    const strings = fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', '\u0001', 'é', '中', '😀', '\ud800', '\udc00'), maxLength: 400 })
    await fc.assert(
      fc.asyncProperty(fc.array(strings, { minLength: 1, maxLength: 4 }), async (generated) => {
        value = { strings: generated }
        const json = JSON.stringify(value)
        let result = await client.callTool({ name: 'echo', arguments: {} })
        if (utf8(json) <= 256) {
          expect(result.structuredContent).toEqual(value)
          return
        }
        let part = partOf(result)
        const texts = [part.result_part]
        while (part.continuation !== undefined) {
          result = await client.callTool({ name: 'result_continue', arguments: { continuation: part.continuation } })
          part = partOf(result)
          texts.push(part.result_part)
        }
        expect(texts.join('')).toBe(json)
        for (const text of texts) {
          expect(utf8(text)).toBeLessThanOrEqual(256)
          expect(wellFormed(text)).toBe(true)
          // An escape is whole: no part ends in an odd run of backslashes or a cut `\uXX`.
          expect(/(^|[^\\])(\\\\)*\\(u[0-9a-fA-F]{0,3})?$/.test(text)).toBe(false)
        }
      }),
      { numRuns: 150 },
    )
    await close()
  })
})
