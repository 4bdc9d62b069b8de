// The MCP contract of the example catalog (examples/mcp-server.ts), checked with the SDK's own
// Client. Run once per transport and SDK line: v1 in memory (in-memory.test.ts) and over stdio
// against a child process (stdio.test.ts), and v2 in memory, over stdio and over stateless
// Streamable HTTP (test/mcp-v2/), so every transport is held to the same assertions.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeTool } from 'result-views'
import { MCP_OUTCOME_META_KEY } from 'result-views/mcp'
import { activeSessionCompact, activeSessionFull, spawnedCompact } from '../../examples/fixtures/sessions.js'
import { testingSkillFull } from '../../examples/fixtures/skills.js'
import { sessionStatusTool, skillViewTool } from '../../examples/tools/catalog.js'

/** What the contract needs of a client: v1's `Client`, and v2's (`@modelcontextprotocol/client`), which answers the same shapes. */
export type McpTestClient = Pick<Client, 'listTools' | 'callTool'>

/** A connected client (v1's `Client` unless said otherwise) and how to close it. */
export interface Connection<C extends McpTestClient = Client> {
  client: C
  close(): Promise<void>
}

export type CallResult = Awaited<ReturnType<Client['callTool']>>

/** The single text block of a result (fails unless there is exactly one, of type text). */
export function textOf(result: CallResult): string {
  const content = result.content as { type: string; text?: string }[]
  expect(content).toHaveLength(1)
  expect(content[0]!.type).toBe('text')
  return content[0]!.text as string
}

/** Asserts an error result: isError, no structuredContent, and exactly this text. */
export function expectToolError(result: CallResult, text: string): void {
  expect(result.isError).toBe(true)
  expect(result).not.toHaveProperty('structuredContent')
  expect(textOf(result)).toBe(text)
}

/** Asserts an ok result: structuredContent equals `record` and the text block is exactly its JSON. */
export function expectRecord(result: CallResult, record: unknown): void {
  expect(result.isError).toBeFalsy()
  expect(result.structuredContent).toEqual(record)
  expect(textOf(result)).toBe(JSON.stringify(result.structuredContent))
}

/** Every key path (`a.b.c`, arrays as `[]`) of a JSON value. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => keyPaths(item, `${prefix}[]`))
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([key, item]) => {
    const path = prefix === '' ? key : `${prefix}.${key}`
    return [path, ...keyPaths(item, path)]
  })
}

const VIEWED = ['compozy__session_status', 'compozy__session_create', 'compozy__session_archive', 'compozy__session_spawn', 'compozy__skill_list', 'compozy__skill_search']
const SINGLE = ['compozy__skill_view', 'compozy__tool_info']

export function describeExampleCatalogOverMcp(transport: string, connect: () => Promise<Connection<McpTestClient>>): void {
  describe(`the example catalog over MCP (${transport})`, () => {
    let connection: Connection<McpTestClient>
    let client: McpTestClient
    beforeAll(async () => {
      connection = await connect()
      client = connection.client
    }, 60_000)
    afterAll(async () => {
      await connection?.close()
    })

    describe('tools/list', () => {
      it('lists every tool with name, description, input schema and annotations only', async () => {
        const { tools } = await client.listTools()
        expect(tools.map((t) => t.name).sort()).toEqual([...VIEWED, ...SINGLE].sort())
        for (const tool of tools) {
          expect(Object.keys(tool).sort()).toEqual(['annotations', 'description', 'inputSchema', 'name'])
          expect(tool.inputSchema.type).toBe('object')
        }
      })

      it('maps each descriptor\'s read_only and risk to readOnlyHint and destructiveHint (the MCP hints)', async () => {
        const { tools } = await client.listTools()
        const hints = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]))
        expect(hints).toEqual({
          compozy__session_status: { readOnlyHint: true },
          compozy__session_create: { readOnlyHint: false, destructiveHint: false },
          compozy__session_archive: { readOnlyHint: false, destructiveHint: false },
          compozy__session_spawn: { readOnlyHint: false, destructiveHint: false },
          compozy__skill_view: { readOnlyHint: true },
          compozy__skill_list: { readOnlyHint: true },
          compozy__skill_search: { readOnlyHint: true },
          compozy__tool_info: { readOnlyHint: true },
        })
      })

      it('advertises no outputSchema for any tool and no $schema keyword', async () => {
        const { tools } = await client.listTools()
        for (const tool of tools) {
          expect(tool).not.toHaveProperty('outputSchema')
          expect(JSON.stringify(tool)).not.toContain('"$schema"')
        }
      })

      it('lists result_view (compact | full, default compact) for viewed tools and never for single-result tools', async () => {
        const { tools } = await client.listTools()
        for (const tool of tools) {
          const properties = tool.inputSchema.properties ?? {}
          if (VIEWED.includes(tool.name)) {
            expect(properties.result_view).toEqual({ type: 'string', enum: ['compact', 'full'], default: 'compact' })
            expect(tool.inputSchema.required ?? []).not.toContain('result_view')
          } else {
            expect(properties).not.toHaveProperty('result_view')
          }
        }
      })

      it('carries the descriptor input schema unchanged', async () => {
        const { tools } = await client.listTools()
        const status = tools.find((t) => t.name === 'compozy__session_status')!
        expect(status.inputSchema).toEqual(describeTool(sessionStatusTool).input_schema)
        expect(status.description).toBe(sessionStatusTool.description)
      })
    })

    describe('tools/call', () => {
      it('returns the compact record by default: structuredContent plus exactly its JSON as text', async () => {
        const result = await client.callTool({ name: 'compozy__session_status', arguments: { session_id: 'sess-example' } })
        expectRecord(result, activeSessionCompact)
        expect(result._meta?.[MCP_OUTCOME_META_KEY]).toMatchObject({ status: 'ok', result_view: 'compact' })
      })

      it('never carries a full-only field when compact was selected', async () => {
        const result = await client.callTool({ name: 'compozy__session_status', arguments: { session_id: 'sess-example', result_view: 'compact' } })
        expectRecord(result, activeSessionCompact)
        const compactPaths = new Set(keyPaths(activeSessionCompact))
        const fullOnly = keyPaths(activeSessionFull).filter((path) => !compactPaths.has(path))
        expect(fullOnly).toContain('session.lineage.permission_policy')
        expect(fullOnly).toContain('session.supervision')
        const received = new Set(keyPaths(result.structuredContent))
        for (const path of fullOnly) expect(received.has(path), path).toBe(false)
        for (const key of ['permission_policy', 'supervision', 'acp_caps', 'available_commands', 'diagnostics']) {
          expect(textOf(result)).not.toContain(`"${key}"`)
        }
      })

      it('returns the full record with result_view "full"', async () => {
        const result = await client.callTool({ name: 'compozy__session_status', arguments: { session_id: 'sess-example', result_view: 'full' } })
        expectRecord(result, activeSessionFull)
        expect(result._meta?.[MCP_OUTCOME_META_KEY]).toMatchObject({ status: 'ok', result_view: 'full' })
      })

      it('returns the spec spawn excerpt as the compact spawn result', async () => {
        const result = await client.callTool({ name: 'compozy__session_spawn', arguments: { agent_name: 'general', ttl_seconds: 3600 } })
        expectRecord(result, spawnedCompact)
      })

      it('returns a single-result tool record without result_view in _meta', async () => {
        const result = await client.callTool({ name: 'compozy__skill_view', arguments: { skill_id: 'testing' } })
        expectRecord(result, testingSkillFull)
        const meta = result._meta?.[MCP_OUTCOME_META_KEY] as Record<string, unknown>
        expect(meta.status).toBe('ok')
        expect(meta).not.toHaveProperty('result_view')
      })
    })

    describe('errors (spec 000 "Errors"): isError, the exact code, reason and dispatch message, no structuredContent', () => {
      it('row 1: unknown result_view value', async () => {
        const result = await client.callTool({ name: 'compozy__session_status', arguments: { session_id: 'sess-example', result_view: 'summary' } })
        expectToolError(result, 'tool_invalid_input (schema_invalid): tool "compozy__session_status" input "result_view" must be one of "compact", "full"')
        expect(result._meta?.[MCP_OUTCOME_META_KEY]).toMatchObject({ status: 'error', code: 'tool_invalid_input', reason: 'schema_invalid' })
      })

      it('row 2: result_view is not a string', async () => {
        const result = await client.callTool({ name: 'compozy__session_status', arguments: { session_id: 'sess-example', result_view: 1 } })
        expectToolError(result, 'tool_invalid_input (schema_invalid): tool "compozy__session_status" input "result_view" must be one of "compact", "full"')
      })

      it('row 3: result_view sent to a single-result tool', async () => {
        const result = await client.callTool({ name: 'compozy__skill_view', arguments: { skill_id: 'testing', result_view: 'full' } })
        expectToolError(result, 'tool_invalid_input (schema_invalid): tool "compozy__skill_view" returns a single result and does not accept "result_view"')
      })

      it('an unknown tool is a tool error (tool_not_found), not a protocol error', async () => {
        const result = await client.callTool({ name: 'compozy__nope', arguments: {} })
        expectToolError(result, 'tool_not_found (unknown_tool): tool "compozy__nope" is not registered')
      })

      it('a handler failure keeps its real cause', async () => {
        const result = await client.callTool({ name: 'compozy__session_status', arguments: { session_id: 'sess-missing' } })
        expectToolError(result, 'tool_execution_failed (handler_failed): tool "compozy__session_status" failed: session "sess-missing" not found')
      })

      it('an input schema error names the failing path', async () => {
        const result = await client.callTool({ name: 'compozy__session_status', arguments: {} })
        expect(result.isError).toBe(true)
        expect(result).not.toHaveProperty('structuredContent')
        expect(textOf(result)).toMatch(/^tool_invalid_input \(schema_invalid\): tool "compozy__session_status" input does not match its schema: /)
      })
    })

    describe('contracts on demand (compozy__tool_info)', () => {
      it('returns a viewed tool descriptor with both views', async () => {
        const result = await client.callTool({ name: 'compozy__tool_info', arguments: { tool_id: 'compozy__session_status' } })
        const descriptor = describeTool(sessionStatusTool)
        expectRecord(result, { tool: { descriptor } })
        const views = (result.structuredContent as { tool: { descriptor: typeof descriptor } }).tool.descriptor.output_views!
        expect(Object.keys(views).sort()).toEqual(['compact', 'full'])
        expect(views.full.schema).toEqual(sessionStatusTool.output.full)
        expect(views.compact.digest).toMatch(/^[0-9a-f]{64}$/)
      })

      it('returns a single-result tool descriptor with output_schema only', async () => {
        const result = await client.callTool({ name: 'compozy__tool_info', arguments: { tool_id: 'compozy__skill_view' } })
        expectRecord(result, { tool: { descriptor: describeTool(skillViewTool) } })
        expect((result.structuredContent as { tool: { descriptor: object } }).tool.descriptor).not.toHaveProperty('output_views')
      })

      it('reports an unknown tool_id as a tool error', async () => {
        const result = await client.callTool({ name: 'compozy__tool_info', arguments: { tool_id: 'compozy__nope' } })
        expectToolError(result, 'tool_not_found (unknown_tool): tool "compozy__nope" is not registered')
      })
    })
  })
}
