// createMcpServerFactory beyond the example catalog: cancellation to the handler's signal, result
// size limits with one continuation store per factory (so stateless HTTP, a server per request,
// continues a cut result), the options it refuses, and a 2025-era client on the same factory.
import { randomBytes } from 'node:crypto'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import fc from 'fast-check'
import Type from 'typebox'
import { afterEach, describe, expect, it } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, defineTool } from 'result-views'
import { createMcpServer } from 'result-views/mcp'
import { createMcpServerFactory, isMcpOptionsError, MCP_OUTCOME_META_KEY, measureCatalog, type McpOptionsError, type McpV2ServerOptions } from 'result-views/mcp-v2'
import { exampleDispatcher } from '../../examples/mcp-server.js'
import { noteTool } from '../support/tools.js'
import { waitingTool } from '../support/waiting-tool.js'
import { approvalDispatcher, DEPLOY } from './support/approval-catalog.js'
import { connectHttp, connectInMemory, serveHttp } from './support/connect.js'

const open: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close()
})

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text: string }[]; _meta?: Record<string, unknown> }

const bigTool = defineTool({
  id: 'docs__dump',
  description: 'Dump documents.',
  input: Type.Object({}),
  output: Type.Object({ entries: Type.Array(Type.Object({ id: Type.Integer(), title: Type.String() })) }),
  handler: () => ({ entries: Array.from({ length: 200 }, (_, id) => ({ id, title: `Tïtle "${id}" 😀 \n` })) }),
})

function optionsError(run: () => unknown): McpOptionsError {
  try {
    run()
  } catch (error) {
    if (isMcpOptionsError(error)) return error
    throw error
  }
  throw new Error('no McpOptionsError thrown')
}

describe('createMcpServerFactory (SDK v2)', () => {
  it("a client's cancellation aborts the handler's context.signal", async () => {
    const { tool, running, abortSeen } = waitingTool()
    const connection = await connectInMemory(createMcpServerFactory(createDispatcher({ tools: [tool] }), { name: 't', version: '1' }))
    open.push(connection.close)
    const controller = new AbortController()
    const call = connection.client.callTool({ name: 'slow__wait', arguments: {} }, { signal: controller.signal })
    await running
    controller.abort('user pressed stop')
    await expect(call).rejects.toThrow()
    expect(await abortSeen).toMatchObject({ code: 'tool_execution_failed', reason: 'call_aborted', details: { handler_started: true } })
  })

  it('maxResultBytes over stateless HTTP: parts from different server instances join to the exact JSON', async () => {
    const served = await serveHttp(createMcpServerFactory(createDispatcher({ tools: [bigTool] }), { name: 't', version: '1', maxResultBytes: 1024 }))
    open.push(served.close)
    const { client, close } = await connectHttp(served.url)
    open.push(close)
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(['docs__dump', 'result_continue'])
    let result = (await client.callTool({ name: 'docs__dump', arguments: {} })) as unknown as Result
    const parts: string[] = []
    for (;;) {
      const part = result.structuredContent as { result_part: string; continuation?: string; note: string }
      expect(result.content).toEqual([{ type: 'text', text: part.result_part }, { type: 'text', text: part.note }])
      expect(Buffer.byteLength(part.result_part, 'utf8')).toBeLessThanOrEqual(1024)
      parts.push(part.result_part)
      if (part.continuation === undefined) break
      result = (await client.callTool({ name: 'result_continue', arguments: { continuation: part.continuation } })) as unknown as Result
    }
    expect(parts.length).toBeGreaterThan(2)
    expect(JSON.parse(parts.join(''))).toEqual(bigTool.handler({}, undefined as never))
  })

  it('typed errors are results with the code, reason and dispatch message', async () => {
    const connection = await connectInMemory(createMcpServerFactory(createDispatcher({ tools: [noteTool()] }), { name: 't', version: '1' }))
    open.push(connection.close)
    const result = (await connection.client.callTool({ name: 'nope__nope', arguments: {} })) as unknown as Result
    expect(result.isError).toBe(true)
    expect(result.content).toEqual([{ type: 'text', text: 'tool_not_found (unknown_tool): tool "nope__nope" is not registered' }])
    expect(result._meta![MCP_OUTCOME_META_KEY]).toMatchObject({ status: 'error', code: 'tool_not_found', reason: 'unknown_tool' })
  })

  it('a 2025-era client on the same factory: the SDK elicits for it, and the approval runs once', async () => {
    const runs = { count: 0 }
    const factory = createMcpServerFactory(approvalDispatcher(createMemoryApprovalStores(), runs), {
      name: 't',
      version: '1',
      scope: { profile_id: 'prof_a' },
      approvalStateKey: randomBytes(32),
    })
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
    const served = serveStdio(factory, { transport: serverTransport })
    const client = new Client({ name: 'legacy', version: '1' }, { capabilities: { elicitation: {} } })
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { decision: 'approve' } }))
    await client.connect(clientTransport)
    open.push(async () => {
      await client.close()
      await served.close()
    })
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25')
    const result = (await client.callTool({ name: DEPLOY, arguments: { env: 'prod' } })) as unknown as Result
    expect(result.structuredContent).toEqual({ deployed: 'prod', run: 1 })
    expect(runs.count).toBe(1)
  })

  it('any one-character change to a request state is refused as approval_invalid and nothing runs (property)', async () => {
    const runs = { count: 0 }
    const factory = createMcpServerFactory(approvalDispatcher(createMemoryApprovalStores(), runs), { name: 't', version: '1', scope: { profile_id: 'prof_a' }, approvalStateKey: randomBytes(32) })
    const connection = await connectInMemory(factory, { elicit: 'approve', manual: true })
    open.push(connection.close)
    const first = (await connection.client.callTool({ name: DEPLOY, arguments: { env: 'prod' } }, { allowInputRequired: true })) as unknown as { requestState: string }
    const state = first.requestState
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.'
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: state.length - 1 }), fc.constantFrom(...alphabet), async (at, char) => {
        fc.pre(state[at] !== char)
        const changed = state.slice(0, at) + char + state.slice(at + 1)
        const params = { name: DEPLOY, arguments: { env: 'prod' }, inputResponses: { approval: { action: 'accept', content: { decision: 'approve' } } }, requestState: changed }
        const result = (await connection.client.callTool(params as never, { allowInputRequired: true })) as unknown as Result
        expect(result.isError).toBe(true)
        expect(result._meta![MCP_OUTCOME_META_KEY]).toMatchObject({ code: 'approval_invalid' })
      }),
      { numRuns: 60 },
    )
    expect(runs.count).toBe(0)
  })

  it('measureCatalog sizes the listing a v2 client receives, byte for byte', async () => {
    const dispatcher = exampleDispatcher()
    const connection = await connectInMemory(createMcpServerFactory(dispatcher, { name: 't', version: '1' }))
    open.push(connection.close)
    const { tools } = await connection.client.listTools()
    expect(Buffer.byteLength(JSON.stringify(tools), 'utf8')).toBe(measureCatalog(dispatcher.list(), { tokens: false }).mcp_bytes)
  })

  it('the v1 server refuses the v2-only options as unknown keys (one options reader, two key sets)', () => {
    const error = optionsError(() => createMcpServer(createDispatcher({ tools: [noteTool()] }), { name: 'a', version: '1', approvalStateKey: randomBytes(32) } as never))
    expect(error.problems).toEqual([expect.objectContaining({ path: '/approvalStateKey', code: 'unknown_option' })])
  })

  it('refuses bad options with every problem listed, in the shape of createMcpServer', () => {
    const dispatcher = createDispatcher({ tools: [noteTool()] })
    const error = optionsError(() =>
      createMcpServerFactory(dispatcher, {
        name: '',
        version: '1',
        approvalStateKey: randomBytes(16),
        previousApprovalStateKeys: [new Uint8Array(32)],
        approvalStateTtlMs: 0,
        bogus: true,
      } as unknown as McpV2ServerOptions),
    )
    expect(error.code).toBe('mcp_options_invalid')
    // The options reader names unknown keys first (with "did you mean"), then each option's own problems.
    expect(error.problems.map((problem) => [problem.path, problem.code])).toEqual([
      ['/bogus', 'unknown_option'],
      ['/name', 'invalid_option'],
      ['/approvalStateKey', 'invalid_state_key'],
      ['/previousApprovalStateKeys/0', 'invalid_state_key'],
      ['/approvalStateTtlMs', 'invalid_limit'],
    ])
    expect(optionsError(() => createMcpServerFactory(dispatcher, { name: 'a', version: '1', previousApprovalStateKeys: [randomBytes(32)] })).problems).toEqual([
      expect.objectContaining({ path: '/previousApprovalStateKeys', code: 'state_key_missing' }),
    ])
    const hostile = new Proxy([], { get: () => { throw new Error('host getter') } })
    expect(optionsError(() => createMcpServerFactory(dispatcher, { name: 'a', version: '1', approvalStateKey: randomBytes(32), previousApprovalStateKeys: hostile })).problems).toEqual([
      expect.objectContaining({ path: '/previousApprovalStateKeys', code: 'unreadable_option' }),
    ])
    expect(() => createMcpServerFactory(dispatcher, { name: 'a', version: '1', approvalStateKey: randomBytes(64), approvalStateTtlMs: 5 })).not.toThrow()
  })
})
