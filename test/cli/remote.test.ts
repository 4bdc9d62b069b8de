// The remote target's failures are `cli_target_unavailable` (exit 1), never a hang or a crash: a
// refused connection, a missing socket, a server that never answers, one that is not ours.
// Credentials in a URL never appear in a message; RESULT_VIEWS_AUTHORIZATION reaches the server.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpHandler } from 'result-views/http'
import { exampleHttpDispatcher } from '../../examples/http-server.js'
import { jsonOf, runCli } from './support.js'

let silent: Server
let foreign: Server
let ours: Server
const seen: { url: string; headers: IncomingHttpHeaders }[] = []
const origin = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`
const listen = (server: Server) => new Promise<void>((done) => server.listen(0, '127.0.0.1', done))

beforeAll(async () => {
  silent = createServer(() => {}) // accepts and never answers
  foreign = createServer((_, response) => response.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>'))
  const handler = createHttpHandler(exampleHttpDispatcher(), { basePath: '/v2/tools-api', authenticate: (request) => (request.headers.get('authorization') === 'Bearer let-me-in-please' ? {} : null) })
  ours = createServer((request, response) => {
    seen.push({ url: request.url ?? '', headers: request.headers })
    handler(request, response)
  })
  await Promise.all([silent, foreign, ours].map(listen))
})
afterAll(async () => {
  for (const server of [silent, foreign, ours]) {
    server.closeAllConnections()
    await new Promise((done) => server.close(done))
  }
})

describe('remote target failures', () => {
  it('reports a refused connection and a missing socket as connection_failed', async () => {
    const refused = await runCli(['tool', 'list', '--url', 'http://127.0.0.1:9', '-o', 'json'])
    expect(refused.code).toBe(1)
    expect(jsonOf(refused)).toEqual({ error: { code: 'cli_target_unavailable', reason: 'connection_failed', message: 'cannot reach http://127.0.0.1:9: ECONNREFUSED' } })
    const missing = await runCli(['tool', 'list', '--socket', '/nonexistent/api.sock', '-o', 'text'])
    expect(missing).toEqual({ code: 1, stdout: '', stderr: 'error: cannot reach /nonexistent/api.sock: ENOENT (cli_target_unavailable/connection_failed)\n' })
  })

  it('gives up on a server that never answers after --timeout-ms', async () => {
    const run = await runCli(['tool', 'list', '--url', origin(silent), '--timeout-ms', '150', '-o', 'json'])
    expect(run.code).toBe(1)
    expect(jsonOf(run).error).toEqual({ code: 'cli_target_unavailable', reason: 'timeout', message: `${origin(silent)} did not answer within 150 ms` })
  })

  it('reports an answer that is not the routes\' JSON as response_invalid', async () => {
    const run = await runCli(['tool', 'list', '--url', origin(foreign), '-o', 'json'])
    expect(jsonOf(run).error).toEqual({ code: 'cli_target_unavailable', reason: 'response_invalid', message: `${origin(foreign)} answered HTTP 502 without the routes' JSON (is it a result-views/http server?)` })
  })

  it('uses the path of --url as the base path, sends RESULT_VIEWS_AUTHORIZATION, and never shows URL credentials', async () => {
    const withPath = `${origin(ours)}/v2/tools-api/`
    const refused = await runCli(['tool', 'list', '--url', withPath, '-o', 'json'])
    expect(refused.code).toBe(1)
    expect(jsonOf(refused).error.code).toBe('http_unauthenticated')
    const allowed = await runCli(['tool', 'list', '--url', withPath, '-o', 'json'], { env: { RESULT_VIEWS_AUTHORIZATION: 'Bearer let-me-in-please' } })
    expect(allowed.code).toBe(0)
    expect(seen.at(-1)).toMatchObject({ url: '/v2/tools-api/tools', headers: { authorization: 'Bearer let-me-in-please' } })
    expect(allowed.stdout + allowed.stderr).not.toContain('let-me-in-please')

    const credentials = await runCli(['tool', 'list', '--url', 'http://user:pa55word@127.0.0.1:9/', '-o', 'json'])
    expect(jsonOf(credentials).error.message).toBe('cannot reach http://127.0.0.1:9: ECONNREFUSED')
  })
})
