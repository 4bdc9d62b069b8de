// W3C trace context across the surfaces: the traceparent header of result-views/http and the
// `_meta.traceparent` of MCP tools/call (v1 result-views/mcp and v2 result-views/mcp-v2) make the
// call's span a child of the caller's, and the answer names the call's span.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import Type from 'typebox'
import { afterEach, describe, expect, it } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, defineTool, type Dispatcher } from 'result-views'
import { createFetchHandler, createHttpHandler } from 'result-views/http'
import { createMcpServer } from 'result-views/mcp'
import { createMcpServerFactory, MCP_OUTCOME_META_KEY } from 'result-views/mcp-v2'
import { createOtelTelemetry } from 'result-views/otel'
import { fetchJson, serve } from '../http/support.js'
import { connectInMemory } from '../mcp-v2/support/connect.js'
import { otelHarness, type Harness } from './support.js'

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT_ID = '00f067aa0ba902b7'
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`

const echo = defineTool({
  id: 'demo__echo',
  description: 'Echo.',
  input: Type.Object({ text: Type.String() }),
  output: Type.Object({ text: Type.String() }),
  handler: (input) => ({ text: input.text }),
})

let harness: Harness
const closing: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
  await harness?.provider.shutdown()
})

function tracedDispatcher(): Dispatcher {
  harness = otelHarness()
  return createDispatcher({ tools: [echo], telemetry: createOtelTelemetry({ tracer: harness.tracer }) })
}

/** The one call span, checked to be the child of the caller's span. */
function childOfCaller() {
  const spans = harness.spans()
  expect(spans).toHaveLength(1)
  const span = spans[0]!
  expect(span.name).toBe('execute_tool demo__echo')
  expect(span.spanContext().traceId).toBe(TRACE_ID)
  expect(span.parentSpanContext?.spanId).toBe(PARENT_ID)
  return span
}

describe('over result-views/http', () => {
  it('the fetch handler: traceparent and tracestate in, the call span\'s traceparent out; the body is unchanged', async () => {
    const handle = createFetchHandler(tracedDispatcher())
    const response = await handle(
      new Request('http://handler.test/api/tools/demo__echo/invoke', {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: TRACEPARENT, tracestate: 'rojo=00f067aa0ba902b7' },
        body: JSON.stringify({ input: { text: 'hi' } }),
      }),
    )
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ result: { structured: { text: 'hi' }, preview: expect.any(String) } })
    const span = childOfCaller()
    expect(response.headers.get('traceparent')).toBe(`00-${TRACE_ID}-${span.spanContext().spanId}-01`)
    expect(response.headers.get('tracestate')).toBe('rojo=00f067aa0ba902b7')
  })

  it('the Node listener on loopback, for an error outcome too; a malformed traceparent starts a new trace', async () => {
    const served = await serve(createHttpHandler(tracedDispatcher()))
    closing.push(served.close)
    const denied = await fetchJson(served.origin, 'POST', '/api/tools/demo__echo/invoke', { input: { text: 7 } }, { traceparent: TRACEPARENT })
    expect(denied.status).toBe(400)
    const span = childOfCaller()
    expect(denied.headers.get('traceparent')).toBe(`00-${TRACE_ID}-${span.spanContext().spanId}-01`)
    const fresh = await fetchJson(served.origin, 'POST', '/api/tools/demo__echo/invoke', { input: { text: 'x' } }, { traceparent: 'garbage' })
    expect(fresh.status).toBe(200)
    const second = harness.spans()[1]!
    expect(second.parentSpanContext).toBeUndefined()
    expect(fresh.headers.get('traceparent')).toBe(`00-${second.spanContext().traceId}-${second.spanContext().spanId}-01`)
  })

  it('without telemetry no traceparent is answered', async () => {
    const handle = createFetchHandler(createDispatcher({ tools: [echo] }))
    const response = await handle(new Request('http://handler.test/api/tools/demo__echo/invoke', { method: 'POST', headers: { 'content-type': 'application/json', traceparent: TRACEPARENT }, body: JSON.stringify({ input: { text: 'hi' } }) }))
    expect(response.status).toBe(200)
    expect(response.headers.get('traceparent')).toBeNull()
  })
})

type MetaResult = { _meta?: Record<string, unknown>; isError?: boolean }

describe('over MCP', () => {
  it('v1 (result-views/mcp): params._meta.traceparent in, the result\'s _meta.traceparent out', async () => {
    const server = createMcpServer(tracedDispatcher(), { name: 't', version: '1' })
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
    await server.connect(serverTransport)
    const client = new Client({ name: 'c', version: '1' })
    await client.connect(clientTransport)
    closing.push(async () => {
      await client.close()
      await server.close()
    })
    const result = (await client.callTool({ name: 'demo__echo', arguments: { text: 'hi' }, _meta: { traceparent: TRACEPARENT } })) as MetaResult
    const span = childOfCaller()
    expect(result._meta?.traceparent).toBe(`00-${TRACE_ID}-${span.spanContext().spanId}-01`)
    expect(result._meta?.['result-views/outcome']).toBeDefined()
  })

  it('v2 (result-views/mcp-v2): the same through the v2 SDK', async () => {
    const connection = await connectInMemory(createMcpServerFactory(tracedDispatcher(), { name: 't', version: '1' }))
    closing.push(connection.close)
    const result = (await connection.client.callTool({ name: 'demo__echo', arguments: { text: 'hi' }, _meta: { traceparent: TRACEPARENT } })) as unknown as MetaResult
    const span = childOfCaller()
    expect(result._meta?.traceparent).toBe(`00-${TRACE_ID}-${span.spanContext().spanId}-01`)
  })
})

describe('a deferred call, approved after a pending approval', () => {
  const gated = defineTool({ id: 'ops__gated', description: 'Gated.', input: Type.Object({ env: Type.String() }), output: Type.Object({ ok: Type.Boolean() }), approval: 'required', handler: () => ({ ok: true }) })
  const deferredDispatcher = (): Dispatcher => {
    harness = otelHarness()
    return createDispatcher({ tools: [gated], telemetry: createOtelTelemetry({ tracer: harness.tracer }), approvals: createMemoryApprovalStores() })
  }
  const deferredSpan = () => harness.spans().find((span) => span.attributes['result_views.outcome'] === 'ok')!

  it('HTTP POST .../approvals/{id}/resolve answers the traceparent of the span that ran the call', async () => {
    const served = await serve(createHttpHandler(deferredDispatcher()))
    closing.push(served.close)
    const pending = await fetchJson(served.origin, 'POST', '/api/tools/ops__gated/invoke', { input: { env: 'prod' }, scope: { profile_id: 'p' } })
    expect(pending.status).toBe(202)
    const resolved = await fetchJson(served.origin, 'POST', `/api/tools/approvals/${pending.body.approval_id}/resolve?profile=p`, { decision: 'approved' })
    expect(resolved.status).toBe(200)
    const span = deferredSpan()
    expect(resolved.headers.get('traceparent')).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`)
  })

  it('MCP v2 approved through input_required: the final result carries _meta.traceparent of the deferred span', async () => {
    // The client answers the approval elicitation itself (approve) and retries with the request state.
    const connection = await connectInMemory(createMcpServerFactory(deferredDispatcher(), { name: 't', version: '1', scope: { profile_id: 'p' }, approvalStateKey: Buffer.alloc(32, 7) }), { elicit: 'approve' })
    closing.push(connection.close)
    const result = (await connection.client.callTool({ name: 'ops__gated', arguments: { env: 'prod' } })) as unknown as MetaResult
    expect((result._meta?.[MCP_OUTCOME_META_KEY] as { status?: string }).status).toBe('ok')
    const span = deferredSpan()
    expect(result._meta?.traceparent).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`)
  })
})
