import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { Ajv2020 } from 'ajv/dist/2020.js'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, type Dispatcher, type InvokeOutcome, type InvokeRequest } from 'result-views'
import { createMcpServer, isMcpOptionsError, MCP_OUTCOME_META_KEY, type McpOptionsError, type McpServerOptions } from 'result-views/mcp'
import { exampleDispatcher } from '../../examples/mcp-server.js'
import { extensionTool, noteTool, skillTool } from '../support/tools.js'
import { waitingTool } from '../support/waiting-tool.js'
import { describeExampleCatalogOverMcp, expectRecord, expectToolError, textOf, type Connection } from './example-catalog-contract.js'

/** Connects the SDK's Client to a fresh server over a linked in-memory pair. */
async function connectInMemory(dispatcher: Dispatcher, options: Partial<McpServerOptions> = {}): Promise<Connection> {
  const server = createMcpServer(dispatcher, { name: 'test-server', version: '1.0.0', ...options })
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
  await server.connect(serverTransport)
  const client = new Client({ name: 'test-client', version: '1.0.0' })
  await client.connect(clientTransport)
  return {
    client,
    close: async () => {
      await client.close()
      await server.close()
    },
  }
}

describeExampleCatalogOverMcp('in-memory transport', () => connectInMemory(exampleDispatcher()))

describe('createMcpServer over the in-memory transport', () => {
  it('reports the server name and version and the tools capability', async () => {
    const { client, close } = await connectInMemory(createDispatcher({ tools: [noteTool()] }), { name: 'notes', version: '2.3.4' })
    expect(client.getServerVersion()).toMatchObject({ name: 'notes', version: '2.3.4' })
    expect(client.getServerCapabilities()?.tools).toBeDefined()
    await close()
  })

  it('strips a foreign $schema keyword from input schemas but keeps a property named $schema', async () => {
    const tool = defineTool({
      id: 'docs__validate',
      description: 'Validate a document.',
      input: Type.Object(
        { $schema: Type.String(), doc: Type.Object({ body: Type.String() }, { $schema: 'http://json-schema.org/draft-07/schema#' }) },
        { $schema: 'http://json-schema.org/draft-07/schema#' },
      ),
      output: Type.Object({ ok: Type.Boolean() }),
      handler: () => ({ ok: true }),
    })
    const { client, close } = await connectInMemory(createDispatcher({ tools: [tool] }))
    const { tools } = await client.listTools()
    expect(tools[0]!.inputSchema).not.toHaveProperty('$schema')
    expect(tools[0]!.inputSchema.properties).toHaveProperty('$schema', { type: 'string' })
    expect(tools[0]!.inputSchema.properties!.doc).not.toHaveProperty('$schema')
    expect(JSON.stringify(tools[0]!.inputSchema).match(/draft-07/g)).toBeNull()
    await close()
  })

  it('keeps invalid_request for tools that report input errors with that code (rows 1-3)', async () => {
    const { client, close } = await connectInMemory(createDispatcher({ tools: [noteTool([], { inputErrorCode: 'invalid_request' })] }))
    const result = await client.callTool({ name: 'notes__read', arguments: { id: 'n1', result_view: 'brief' } })
    expectToolError(result, 'invalid_request (schema_invalid): tool "notes__read" input "result_view" must be one of "compact", "full"')
    await close()
  })

  it('passes an extension tool its own result_view input untouched', async () => {
    const calls: unknown[] = []
    const { client, close } = await connectInMemory(createDispatcher({ tools: [extensionTool(calls)] }))
    const { tools } = await client.listTools()
    expect(tools[0]!.inputSchema.properties!.result_view).toEqual({ type: 'number' })
    expectRecord(await client.callTool({ name: 'ext__render', arguments: { result_view: 7 } }), { echoed: 7 })
    expect(calls).toEqual([{ result_view: 7 }])
    await close()
  })

  it('calls with {} when arguments are omitted', async () => {
    const tool = defineTool({
      id: 'clock__now',
      description: 'The time.',
      input: Type.Object({}, { additionalProperties: false }),
      output: Type.Object({ now: Type.String() }),
      handler: (input) => ({ now: JSON.stringify(input) }),
    })
    const { client, close } = await connectInMemory(createDispatcher({ tools: [tool] }))
    expectRecord(await client.callTool({ name: 'clock__now' }), { now: '{}' })
    await close()
  })

  it('puts a record that is not a JSON object in the text block only', async () => {
    const list = defineTool({
      id: 'tags__list',
      description: 'All tags.',
      input: Type.Object({}),
      output: Type.Array(Type.String()),
      handler: () => ['home', 'work'],
    })
    const name = defineTool({ id: 'tags__first', description: 'First tag.', input: Type.Object({}), output: Type.String(), handler: () => 'home' })
    const none = defineTool({ id: 'tags__none', description: 'Nothing.', input: Type.Object({}), output: Type.Null(), handler: () => null })
    const { client, close } = await connectInMemory(createDispatcher({ tools: [list, name, none] }))
    for (const [tool, text] of [['tags__list', '["home","work"]'], ['tags__first', '"home"'], ['tags__none', 'null']] as const) {
      const result = await client.callTool({ name: tool, arguments: {} })
      expect(result.isError).toBeFalsy()
      expect(result).not.toHaveProperty('structuredContent')
      expect(textOf(result)).toBe(text)
    }
    await close()
  })

  it('reports an invalid handler record with its real cause, never a generic output mismatch', async () => {
    const broken = defineTool({
      id: 'notes__broken',
      description: 'Returns a record its full schema rejects.',
      input: Type.Object({}),
      output: { compact: Type.Object({ id: Type.String() }), full: Type.Object({ id: Type.String(), body: Type.String() }) },
      handler: () => ({ id: 'n1' }) as never,
    })
    const { client, close } = await connectInMemory(createDispatcher({ tools: [broken] }))
    const result = await client.callTool({ name: 'notes__broken', arguments: {} })
    expectToolError(result, 'tool_output_invalid (output_schema_invalid): tool "notes__broken" returned a record that does not match its full output schema')
    expect(result._meta?.[MCP_OUTCOME_META_KEY]).toMatchObject({ status: 'error', code: 'tool_output_invalid', reason: 'output_schema_invalid' })
    expect((result._meta?.[MCP_OUTCOME_META_KEY] as { details: { issues: unknown[] } }).details.issues.length).toBeGreaterThan(0)
    await close()
  })

  it('runs every call with the fixed scope', async () => {
    const seen: unknown[] = []
    const tool = defineTool({
      id: 'whoami',
      description: 'Echo the scope.',
      input: Type.Object({}),
      output: Type.Object({ agent: Type.String() }),
      handler: (_input, context) => {
        seen.push(context.scope)
        return { agent: context.scope.agent_name ?? '' }
      },
    })
    const scope = { workspace_id: 'ws_1', session_id: 'sess-1', agent_name: 'general', profile_id: 'prof_1' }
    const { client, close } = await connectInMemory(createDispatcher({ tools: [tool] }), { scope })
    expectRecord(await client.callTool({ name: 'whoami', arguments: {} }), { agent: 'general' })
    expect(seen).toEqual([scope])
    await close()
  })

  it('asks a scope resolver for each call and names the tool_call_id after the request ID', async () => {
    const contexts: { tool_call_id: string; agent?: string }[] = []
    const infos: unknown[] = []
    const tool = defineTool({
      id: 'whoami',
      description: 'Echo the scope.',
      input: Type.Object({}),
      output: Type.Object({ agent: Type.String() }),
      handler: (_input, context) => {
        contexts.push({ tool_call_id: context.tool_call_id, agent: context.scope.agent_name })
        return { agent: context.scope.agent_name ?? '' }
      },
    })
    const { client, close } = await connectInMemory(createDispatcher({ tools: [tool] }), {
      toolCallIdPrefix: 'conn-a:',
      scope: (call) => {
        infos.push(call)
        return { agent_name: `agent-for-${call.tool_id}` }
      },
    })
    const first = await client.callTool({ name: 'whoami', arguments: {} })
    const second = await client.callTool({ name: 'whoami', arguments: {} })
    expectRecord(first, { agent: 'agent-for-whoami' })
    const ids = [first, second].map((r) => (r._meta?.[MCP_OUTCOME_META_KEY] as { tool_call_id: string }).tool_call_id)
    expect(ids[0]).toMatch(/^conn-a:\d+$/)
    expect(ids[0]).not.toBe(ids[1])
    expect(contexts.map((c) => c.tool_call_id)).toEqual(ids)
    expect(infos).toHaveLength(2)
    expect(infos[0]).toMatchObject({ tool_id: 'whoami', session_id: undefined })
    expect(`conn-a:${(infos[0] as { request_id: number }).request_id}`).toBe(ids[0])
    await close()
  })

  it('maps approval_pending to an actionable isError result with the approval ID', async () => {
    const requests: InvokeRequest[] = []
    const base = createDispatcher({ tools: [noteTool()] })
    const pendingDispatcher: Dispatcher = {
      ...base,
      invoke: async (request): Promise<InvokeOutcome> => {
        requests.push(request)
        return { status: 'approval_pending', tool_call_id: 'call-9', approval_id: 'appr-123' }
      },
    }
    const { client, close } = await connectInMemory(pendingDispatcher)
    const result = await client.callTool({ name: 'notes__read', arguments: { id: 'n1' } })
    expectToolError(
      result,
      'approval_pending: approval_id=appr-123: tool "notes__read" did not run; it is waiting on approval appr-123 and will run once when the host approves it, and its result is recorded with the approval. Do not call it again to make it run: a new call opens a new approval',
    )
    expect(result._meta?.[MCP_OUTCOME_META_KEY]).toEqual({ status: 'approval_pending', tool_call_id: 'call-9', approval_id: 'appr-123' })
    // The SDK's request signal is handed on, so a client's cancellation reaches the call.
    expect(requests).toEqual([{ tool_id: 'notes__read', input: { id: 'n1' }, signal: expect.any(AbortSignal) }])
    await close()
  })

  it('approval_pending over MCP: approving runs the deferred call once; a retry opens a new approval instead of running', async () => {
    const calls: unknown[] = []
    const deploy = defineTool({
      id: 'ops__deploy',
      description: 'Deploy a target.',
      approval: 'required',
      input: Type.Object({ target: Type.String() }, { additionalProperties: false }),
      output: Type.Object({ target: Type.String() }, { additionalProperties: false }),
      handler: (input) => {
        calls.push(input)
        return { target: input.target }
      },
    })
    const owner = { profile_id: 'prof-owner' }
    const dispatcher = createDispatcher({ tools: [deploy] })
    const { client, close } = await connectInMemory(dispatcher, { scope: { workspace_id: 'ws-1', ...owner } })
    const pendingIdOf = (result: Awaited<ReturnType<typeof client.callTool>>): string =>
      (result._meta?.[MCP_OUTCOME_META_KEY] as { approval_id: string }).approval_id

    const first = await client.callTool({ name: 'ops__deploy', arguments: { target: 'prod' } })
    const id = pendingIdOf(first)
    expect(first.isError).toBe(true)
    expect(textOf(first)).toContain(`waiting on approval ${id}`)
    expect(textOf(first)).toContain('Do not call it again to make it run')
    expect(calls).toEqual([])

    // what the text tells the client is true: the host's approval runs the call, once
    const resolved = await dispatcher.approvals.resolve(id, { ...owner, decision: 'approved' })
    expect(calls).toEqual([{ target: 'prod' }])
    expect(resolved).toMatchObject({ status: 'approved', execution_status: 'completed' })
    expect((await dispatcher.approvals.show(id, owner)).outcome).toMatchObject({ status: 'ok', result: { structured: { target: 'prod' } } })

    // and what the old text asked for is wrong: a retry does not run, it waits on a new approval
    const retry = await client.callTool({ name: 'ops__deploy', arguments: { target: 'prod' } })
    expect(retry.isError).toBe(true)
    expect(pendingIdOf(retry)).not.toBe(id)
    expect(calls).toHaveLength(1)
    await close()
  })

  it('lists a TypeBox Tuple input as a valid 2020-12 schema (prefixItems), validating as the descriptor does', async () => {
    const tool = defineTool({
      id: 'geo__at',
      description: 'A point.',
      input: Type.Object({ point: Type.Tuple([Type.Number(), Type.Number()]), label: Type.Optional(Type.String()) }),
      output: { compact: Type.Object({ ok: Type.Boolean() }), full: Type.Object({ ok: Type.Boolean() }) },
      handler: () => ({ ok: true }),
    })
    const { client, close } = await connectInMemory(createDispatcher({ tools: [tool] }))
    const { tools } = await client.listTools()
    const point = (tools[0]!.inputSchema.properties as Record<string, Record<string, unknown>>).point!
    expect(point).toEqual({ type: 'array', items: false, prefixItems: [{ type: 'number' }, { type: 'number' }], minItems: 2 })
    const validate = new Ajv2020({ strict: false }).compile(tools[0]!.inputSchema)
    expect(validate({ point: [1, 2] })).toBe(true)
    expect(validate({ point: [1, 2, 3] })).toBe(false)
    expect(validate({ point: [1, 'x'] })).toBe(false)
    expect(validate({ point: [1, 2], result_view: 'full' })).toBe(true)
    expectRecord(await client.callTool({ name: 'geo__at', arguments: { point: [1, 2] } }), { ok: true })
    await close()
  })

  it('refuses unknown option keys with McpOptionsError naming each one', () => {
    const dispatcher = createDispatcher({ tools: [skillTool()] })
    let thrown: unknown
    try {
      createMcpServer(dispatcher, { name: 'x', version: '1', bogus: 1, toolCallIDPrefix: 'a' } as never)
    } catch (error) {
      thrown = error
    }
    expect(isMcpOptionsError(thrown)).toBe(true)
    expect(thrown).toMatchObject({ code: 'mcp_options_invalid' })
    expect((thrown as McpOptionsError).problems).toEqual([
      { path: '/bogus', code: 'unknown_option', message: 'unknown option "bogus" (known: name, version, scope, toolCallIdPrefix, instructions, maxResultBytes, continuations, continuationStore, continuationToolPrefix)' },
      { path: '/toolCallIDPrefix', code: 'unknown_option', message: 'unknown option "toolCallIDPrefix"; did you mean "toolCallIdPrefix"?' },
    ])
    expect(() => createMcpServer(dispatcher, { name: 'x', version: '1', instructions: 'hi', scope: {}, toolCallIdPrefix: 'p' })).not.toThrow()
  })

  it('redacts a sensitive input field from every hook event while the handler gets the real value', async () => {
    const secret = 'tok-S3CRET-value-0123456789'
    const received: unknown[] = []
    const tool = defineTool({
      id: 'deploy__start',
      description: 'Start a deploy.',
      input: Type.Object({ service: Type.String(), token: Type.String({ minLength: 20 }) }, { additionalProperties: false }),
      output: { compact: Type.Object({ id: Type.String() }), full: Type.Object({ id: Type.String(), service: Type.String() }) },
      sensitiveInputFields: ['token'],
      handler: (input) => {
        received.push(input.token)
        if (input.service === 'boom') throw new Error(`deploy refused token ${input.token}`)
        return { id: 'dep-1', service: input.service }
      },
    })
    const events: unknown[] = []
    const dispatcher = createDispatcher({ tools: [tool] })
    dispatcher.hook('tool.pre_call', (payload) => void events.push(payload))
    dispatcher.hook('tool.post_call', (payload) => void events.push(payload))
    dispatcher.hook('tool.post_error', (payload) => void events.push(payload))
    const { client, close } = await connectInMemory(dispatcher)

    expectRecord(await client.callTool({ name: 'deploy__start', arguments: { service: 'api', token: secret, result_view: 'full' } }), {
      id: 'dep-1',
      service: 'api',
    })
    const invalid = await client.callTool({ name: 'deploy__start', arguments: { service: 'api', token: 'short-secret' } })
    expect(textOf(invalid)).toBe('tool_invalid_input (schema_invalid): tool "deploy__start" input does not match its schema: "/token" must NOT have fewer than 20 characters')
    const thrown = await client.callTool({ name: 'deploy__start', arguments: { service: 'boom', token: secret } })
    expect(thrown.isError).toBe(true)
    expect(textOf(thrown)).toMatch(/^tool_execution_failed \(handler_failed\): tool "deploy__start" failed: deploy refused token /)

    expect(received).toEqual([secret, secret])
    // input validation runs before tool.pre_call, so the invalid call has a post_error only
    expect(events.map((e) => (e as { event: string }).event)).toEqual([
      'tool.pre_call', 'tool.post_call', 'tool.post_error', 'tool.pre_call', 'tool.post_error',
    ])
    for (const event of events) {
      expect((event as { tool_input: { token: string } }).tool_input.token).toBe('[REDACTED]')
      expect(JSON.stringify(event)).not.toContain(secret)
      expect(JSON.stringify(event)).not.toContain('short-secret')
    }
    for (const result of [invalid, thrown]) {
      expect(JSON.stringify(result)).not.toContain(secret)
      expect(JSON.stringify(result)).not.toContain('short-secret')
    }
    await close()
  })

  it('refuses misuse with McpOptionsError listing every problem', () => {
    const dispatcher = createDispatcher({ tools: [skillTool()] })
    const misuse = [
      () => createMcpServer({} as Dispatcher, { name: 'x', version: '1' }),
      () => createMcpServer(dispatcher, { name: '', version: '1' }),
      () => createMcpServer(dispatcher, { name: 'x' } as McpServerOptions),
      () => createMcpServer(dispatcher, { name: 'x', version: '1', scope: 'ws' as never }),
      () => createMcpServer(dispatcher, { name: 'x', version: '1', toolCallIdPrefix: 7 as never }),
      () => createMcpServer(dispatcher, undefined as never),
    ]
    for (const create of misuse) {
      let thrown: unknown
      try {
        create()
      } catch (error) {
        thrown = error
      }
      expect(isMcpOptionsError(thrown)).toBe(true)
      expect(thrown).toMatchObject({ code: 'mcp_options_invalid' })
      expect((thrown as McpOptionsError).problems.length).toBeGreaterThan(0)
    }
    let both: unknown
    try {
      createMcpServer({} as Dispatcher, { name: '', version: '' })
    } catch (error) {
      both = error
    }
    expect((both as McpOptionsError).problems).toHaveLength(3)
  })
})

describe('a client cancelling a call over MCP', () => {
  it("notifications/cancelled from the SDK Client aborts the handler's context.signal", async () => {
    const { tool, running, abortSeen } = waitingTool()
    const { client, close } = await connectInMemory(createDispatcher({ tools: [tool] }))
    const controller = new AbortController()
    const call = client.callTool({ name: 'slow__wait', arguments: {} }, undefined, { signal: controller.signal })
    await running
    controller.abort('user pressed stop')
    await expect(call).rejects.toThrow()
    // The SDK sends notifications/cancelled; the server's request signal reaches the handler.
    expect(await abortSeen).toMatchObject({ code: 'tool_execution_failed', reason: 'call_aborted', details: { handler_started: true } })
    await close()
  })

  it('a scope resolver that throws is a typed isError result, not a JSON-RPC error', async () => {
    const { client, close } = await connectInMemory(createDispatcher({ tools: [noteTool()] }), {
      scope: () => {
        throw new Error('host bug')
      },
    })
    const result = await client.callTool({ name: 'notes__read', arguments: { id: 'n1' } })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toBe('tool_invalid_input (request_invalid): invalid invoke request: the scope resolver threw')
    await close()
  })
})
