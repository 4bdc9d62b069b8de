// The issues and reported messages the command now prints come from its target: a hostile target
// gets control characters escaped, malformed issues dropped and text cut, never a server's wording
// for a fixed message.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonOf, runCli } from './support.js'

let server: Server
let url = ''
let answer: unknown = {}
beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(400, { 'content-type': 'application/json' })
    response.end(JSON.stringify(answer))
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((done) => server.close(() => done())))

const invoke = (...rest: string[]) => runCli(['tool', 'invoke', 't', '--input', '{}', '--url', url, ...rest])

describe('issues from a target', () => {
  it('escapes control characters and keeps the fixed message of an input error', async () => {
    answer = { error: { code: 'tool_invalid_input', reason: 'schema_invalid', message: 'server wording', details: { issues: [{ pointer: '/a\u001b[31m', keyword: 'type', expected: 'type string' }] } } }
    const run = await invoke('-o', 'text')
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('error: invalid tool request (tool_invalid_input/schema_invalid)\n  /a\\u{1b}[31m: expected type string (type)\n')
  })

  it('drops issues that do not have the shape, and never shows issues on a code that is not an input error', async () => {
    answer = { error: { code: 'tool_invalid_input', reason: 'schema_invalid', message: 'x', details: { issues: [{ pointer: 1 }] } } }
    expect(jsonOf(await invoke('-o', 'json'))).toEqual({ error: { code: 'tool_invalid_input', reason: 'schema_invalid', message: 'invalid tool request' } })
    answer = { error: { code: 'tool_execution_failed', reason: 'handler_failed', message: 'secret stack', details: { issues: [{ pointer: '/p', keyword: 'k', expected: 'e' }] } } }
    expect(jsonOf(await invoke('-o', 'json'))).toEqual({ error: { code: 'tool_execution_failed', reason: 'handler_failed', message: 'tool invocation failed' } })
  })

  it('cuts a reported message to 500 characters', async () => {
    answer = { error: { code: 'resource_not_found', reason: 'ticket_not_found', message: 'n'.repeat(2000) } }
    expect(jsonOf(await invoke('-o', 'json')).error.message).toBe(`${'n'.repeat(500)}…`)
  })
})
