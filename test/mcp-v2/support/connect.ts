// Connecting the official v2 client (`@modelcontextprotocol/client`) to a `createMcpServerFactory`
// factory over the three transports: in memory (the SDK's `serveStdio` on an in-memory pair, which
// binds the 2026-07-28 era as a real stdio connection does), stdio (a child process), and
// stateless Streamable HTTP (`createMcpHandler` behind a `node:http` server on a loopback port the
// test opens and closes).
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { createMcpHandler, InMemoryTransport } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import type { McpV2ServerFactory } from 'result-views/mcp-v2'

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url))

/** How the client answers an approval question: an elicitation answer, or no elicitation capability at all. */
export type Elicit = 'approve' | 'deny' | 'decline' | 'cancel' | 'none'

/** Client options: `elicit` answers elicitations (default `'none'`: no capability); `manual` hands `input_required` back to the caller. */
export interface ClientOptions {
  readonly elicit?: Elicit
  readonly manual?: boolean
}

/** A connected v2 client and how to close it (the client, and what serves it). */
export interface V2Connection {
  readonly client: Client
  close(): Promise<void>
}

/** How many elicitations a client answered. */
export const elicited = new WeakMap<Client, number>()

export function newClient(options: ClientOptions = {}): Client {
  const elicit = options.elicit ?? 'none'
  const client = new Client(
    { name: 'v2-test-client', version: '1.0.0' },
    {
      capabilities: elicit === 'none' ? {} : { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      ...(options.manual === true ? { inputRequired: { autoFulfill: false } } : {}),
    },
  )
  if (elicit !== 'none') {
    client.setRequestHandler('elicitation/create', () => {
      elicited.set(client, (elicited.get(client) ?? 0) + 1)
      if (elicit === 'approve' || elicit === 'deny') return { action: 'accept', content: { decision: elicit } }
      return { action: elicit }
    })
  }
  return client
}

/** In memory: the SDK's stdio serving entry on an in-memory pair (it pins the era from the opening exchange). */
export async function connectInMemory(factory: McpV2ServerFactory, options: ClientOptions = {}): Promise<V2Connection> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
  const served = serveStdio(factory, { transport: serverTransport })
  const client = newClient(options)
  await client.connect(clientTransport)
  return {
    client,
    close: async () => {
      await client.close()
      await served.close()
    },
  }
}

/** Stdio: `script` (a file under the repository) in a child process, with `env` added. */
export async function connectStdio(script: string, env: Record<string, string> = {}, options: ClientOptions = {}): Promise<V2Connection> {
  // tsx resolves 'result-views' through tsconfig paths; a run with its own tsconfig passes it on.
  const childEnv = { ...getDefaultEnvironment(), ...env }
  if (process.env.TSX_TSCONFIG_PATH !== undefined) childEnv.TSX_TSCONFIG_PATH = process.env.TSX_TSCONFIG_PATH
  const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', script], cwd: repoRoot, env: childEnv, stderr: 'pipe' })
  const client = newClient(options)
  await client.connect(transport)
  return { client, close: () => client.close() }
}

/** A stateless Streamable HTTP endpoint (`createMcpHandler`, one server instance per request) on 127.0.0.1. */
export async function serveHttp(factory: McpV2ServerFactory): Promise<{ url: URL; close(): Promise<void> }> {
  const handler = createMcpHandler(factory)
  const http = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      const headers = new Headers()
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value)
      const controller = new AbortController()
      res.on('close', () => controller.abort())
      const request = new Request(`http://127.0.0.1${req.url ?? '/'}`, {
        method: req.method ?? 'GET',
        headers,
        signal: controller.signal,
        ...(chunks.length === 0 ? {} : { body: Buffer.concat(chunks) }),
      })
      const response = await handler.fetch(request)
      res.writeHead(response.status, Object.fromEntries(response.headers))
      if (response.body === null) return void res.end()
      for await (const chunk of response.body) res.write(chunk)
      res.end()
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500)
      res.end()
    })
  })
  http.listen(0, '127.0.0.1')
  await once(http, 'listening')
  const { port } = http.address() as AddressInfo
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: async () => {
      await handler.close()
      http.closeAllConnections()
      http.close()
      await once(http, 'close')
    },
  }
}

/** A client on a served HTTP endpoint. */
export async function connectHttp(url: URL, options: ClientOptions = {}): Promise<V2Connection> {
  const client = newClient(options)
  await client.connect(new StreamableHTTPClientTransport(url))
  return { client, close: () => client.close() }
}
