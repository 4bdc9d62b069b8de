/**
 * Serves the example catalog (the spec's session, spawn and skill tools plus `compozy__tool_info`)
 * over the spec's HTTP/UDS routes with `result-views/http`, on loopback TCP and on a Unix socket at
 * once, under a policy that asks for approval on every tool that is not read-only.
 *
 *     npx tsx examples/http-server.ts        # PORT=8787 picks the port (default: a free one)
 *
 * It prints one line, `{"url":"http://127.0.0.1:PORT","socket":"/tmp/…/api.sock"}`, then serves
 * until SIGINT or SIGTERM. Point the command at either:
 *
 *     npx tsx src/cli/bin.ts tool list --url http://127.0.0.1:PORT -o text
 *     npx tsx src/cli/bin.ts tool info compozy__session_status --socket /tmp/…/api.sock -o json
 *
 * Started with an IPC channel (as `examples/http-cli.ts` does), it sends `{ ready: { url, socket } }`
 * and answers `{ mint: MintApprovalTokenRequest }` with `{ token }`: an approval token then travels
 * from the dispatcher to the command through IPC and an environment variable, never argv, a log
 * or a file.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createPatternPolicy, type Dispatcher, type MintApprovalTokenRequest } from 'result-views'
import { createHttpHandler } from 'result-views/http'
import { exampleDispatcher } from './mcp-server.js'

/** The scope the examples call with: the spec's workspace, session, agent and profile. */
export const EXAMPLE_SCOPE = Object.freeze({ workspace_id: 'ws_example', session_id: 'sess-example', agent_name: 'general', profile_id: 'prof_default' })

/** The example dispatcher under a policy that asks for approval on every tool that is not read-only. */
export function exampleHttpDispatcher(): Dispatcher {
  return exampleDispatcher({ policy: createPatternPolicy({ owner: 'agent:workspace-default', tools: ['compozy__*'], approval: 'non_read_only' }) })
}

/** The two running listeners of one handler. */
export interface ExampleServers {
  /** `http://127.0.0.1:PORT` (the routes are under `/api`). */
  readonly url: string
  /** The Unix socket path, in a fresh directory only this user can enter. */
  readonly socket: string
  /** Stops both listeners, drops their connections and removes the socket's directory. */
  close(): Promise<void>
}

/** Serves one dispatcher on `127.0.0.1:port` (0: a free port) and on a Unix socket. */
export async function startExampleServers(dispatcher: Dispatcher = exampleHttpDispatcher(), port = 0): Promise<ExampleServers> {
  const handler = createHttpHandler(dispatcher)
  const dir = mkdtempSync(join(tmpdir(), 'result-views-http-'))
  const socket = join(dir, 'api.sock')
  const tcp = createServer(handler)
  const unix = createServer(handler)
  await Promise.all([listen(tcp, { port, host: '127.0.0.1' }), listen(unix, { path: socket })])
  const { port: bound } = tcp.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${bound}`,
    socket,
    close: async () => {
      await Promise.all([stop(tcp), stop(unix)])
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

function listen(server: Server, where: { port: number; host: string } | { path: string }): Promise<void> {
  return new Promise((done, fail) => {
    server.once('error', fail)
    server.listen(where, () => done())
  })
}

function stop(server: Server): Promise<void> {
  return new Promise((done) => {
    server.close(() => done())
    server.closeAllConnections()
  })
}

async function main(): Promise<void> {
  const dispatcher = exampleHttpDispatcher()
  const servers = await startExampleServers(dispatcher, Number(process.env.PORT ?? 0))
  const shutdown = (): void => void servers.close().then(() => process.exit(0))
  process.once('SIGINT', shutdown)
  process.once('SIGTERM', shutdown)
  if (process.send === undefined) {
    process.stdout.write(`${JSON.stringify({ url: servers.url, socket: servers.socket })}\n`)
    return
  }
  process.on('message', (message: { mint?: MintApprovalTokenRequest }) => {
    if (message.mint === undefined) return
    dispatcher.approvals.mintApprovalToken(message.mint).then(
      ({ token }) => process.send?.({ token }),
      (error: { code?: string }) => process.send?.({ error: error.code ?? 'mint_failed' }),
    )
  })
  process.once('disconnect', shutdown)
  process.send({ ready: { url: servers.url, socket: servers.socket } })
}

// Run only when executed directly (tests import `startExampleServers`).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exit(1)
  })
}
