// A target that is not a result-views/http server, or one that answers hostile JSON, is
// `cli_target_unavailable` / `response_invalid` (exit 1): never a success, never "the command
// failed unexpectedly". Also: tool input too deep to send is a usage error, not a RangeError.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonOf, runCli } from './support.js'

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url))
let server: Server
let origin = ''
/** What the fake target answers next: the status and the body text. */
let answer = { status: 200, body: '{"status":"ok"}' }

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume()
    request.on('end', () => response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body))
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((done) => server.close(done))
})

/** Every command that calls a route, with the arguments it needs. */
const COMMANDS: readonly (readonly string[])[] = [
  ['tool', 'invoke', 'x', '--input', '{}'],
  ['tool', 'info', 'x'],
  ['tool', 'list'],
  ['approvals', 'show', 'a', '--profile', 'p'],
  ['approvals', 'resolve', 'a', '--profile', 'p', '--decision', 'approved'],
  ['approvals', 'cancel', 'a', '--profile', 'p'],
  ['tool', 'approvals', 'set', 'x', '--workspace', 'w', '--decision', 'allow', '--scope', 'tool'],
  ['tool', 'approvals', 'list', '--workspace', 'w'],
  ['tool', 'approvals', 'revoke', 'g', '--workspace', 'w'],
]

const against = (command: readonly string[], output: 'json' | 'text') => runCli([...command, '--url', origin, '-o', output])

describe('cli-any-json-answer-is-success', () => {
  it('refuses {"status":"ok"}, {} and {"tools":[1,"x"]} from every command as response_invalid (exit 1)', async () => {
    for (const body of ['{"status":"ok"}', '{}', '{"tools":[1,"x"]}', '[]', '"ok"']) {
      answer = { status: 200, body }
      for (const command of COMMANDS) {
        const json = await against(command, 'json')
        expect({ command, body, code: json.code }).toEqual({ command, body, code: 1 })
        expect(jsonOf(json).error).toMatchObject({ code: 'cli_target_unavailable', reason: 'response_invalid' })
        const text = await against(command, 'text')
        expect(text.code).toBe(1)
        expect(text.stdout).toBe('')
        expect(text.stderr).toMatch(/^error: the target answered HTTP 200 with .*\(cli_target_unavailable\/response_invalid\)\n$/)
      }
    }
  })

  it('names what was wrong with the answer', async () => {
    answer = { status: 200, body: '{"tools":[{"tool_id":"a"},1]}' }
    expect(jsonOf(await against(['tool', 'list'], 'json')).error.message).toBe(
      "the target answered HTTP 200 with /tools/1 is not an object with a string \"tool_id\", not the routes' answer (is it a result-views/http server?)",
    )
    answer = { status: 200, body: '{"revoked":true,"grant_id":"other"}' }
    expect(jsonOf(await against(['tool', 'approvals', 'revoke', 'g', '--workspace', 'w'], 'json')).error.message).toContain('not {"revoked":true} for grant "g"')
    answer = { status: 202, body: '{"approval":"x"}' }
    expect(jsonOf(await against(['tool', 'invoke', 'x', '--input', '{}'], 'json')).error.message).toContain('HTTP 202 with no string "approval_id"')
    answer = { status: 500, body: '{"status":"ok"}' }
    expect(jsonOf(await against(['tool', 'list'], 'json')).error.message).toContain('HTTP 500 with no "error" object')
  })

  it('still accepts the answers of the routes', async () => {
    answer = { status: 200, body: '{"revoked":true,"grant_id":"g"}' }
    expect(await against(['tool', 'approvals', 'revoke', 'g', '--workspace', 'w'], 'text')).toEqual({ code: 0, stdout: 'revoked g\n', stderr: '' })
    answer = { status: 200, body: '{"tools":[]}' }
    expect(await against(['tool', 'list'], 'text')).toEqual({ code: 0, stdout: 'no tools\n', stderr: '' })
  })
})

describe('cli-deep-input-rangeerror', () => {
  const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`

  it('treats a 100,000-deep answer as response_invalid under -o json and -o text', async () => {
    answer = { status: 200, body: `{"tools":${deep(100_000)}}` }
    for (const output of ['json', 'text'] as const) {
      const run = await against(['tool', 'list'], output)
      expect(run.code).toBe(1)
      expect(run.stdout + run.stderr).toContain('nested deeper than 5008 levels')
      expect(run.stderr).not.toContain('unexpectedly')
    }
  })

  it('prints a valid answer 4,900 levels deep (deeper than JSON.stringify can write)', async () => {
    answer = { status: 200, body: `{"result":{"structured":{"d":${deep(4_900)}},"preview":"p"}}` }
    const run = await against(['tool', 'invoke', 'x', '--input', '{}'], 'json')
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(`${answer.body}\n`)
    const text = await against(['tool', 'invoke', 'x', '--input', '{}'], 'text')
    expect(text.code).toBe(0)
    expect(text.stdout.startsWith('x: p\n{\n  "d": [\n')).toBe(true)
  })

  it('sends valid input 4,500 levels deep and prints the echo, and refuses input deeper than 5,000 levels as a usage error (exit 2)', async () => {
    const fine = await runCli(['tool', 'invoke', 'echo', '--catalog', './echo-catalog.ts', '--input', `{"v":${deep(4_500)}}`, '-o', 'json'], { cwd: fixtures })
    expect(fine.code).toBe(0)
    expect(fine.stdout).toContain(`"structured":{"d":${deep(4_500)}}`)
    for (const target of [['--catalog', './echo-catalog.ts'], ['--url', origin]]) {
      const run = await runCli(['tool', 'invoke', 'echo', ...target, '--input', `{"v":${deep(5_000)}}`, '-o', 'json'], { cwd: fixtures })
      expect(run).toEqual({ code: 2, stdout: '', stderr: 'error: --input nests objects and arrays deeper than 5000 levels, the most a tool input may\n' })
    }
  })
})

describe('hostile answers from a fake target', () => {
  it('end every command in exit 0, 1 or 3 with output, never in "failed unexpectedly"', async () => {
    const hostileJson = fc.oneof(
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc.jsonValue().map((value) => JSON.stringify({ tools: [{ tool_id: 'x', diagnostics: { status: value, scope: value } }], tool: { descriptor: { tool_id: 'x', output_views: value }, diagnostics: { status: value, reason: value } } })),
      fc.jsonValue().map((value) => JSON.stringify({ result: { structured: value, preview: 'p' }, approval: { approval_id: 'a', status: 's', tool_id: value, outcome: { error: value, result: value } }, grant: { grant_id: 'g', scope: value, agent_name: value }, grants: [{ grant_id: 'g', origin: value }] })),
      fc.constantFrom('{"toString":1,"valueOf":2}', '{"__proto__":{"tools":[]},"constructor":1}', '{"error":{"code":"tool_failed","reason":"x","message":{"toString":1}}}', '{"error":{"code":"nope","reason":1}}'),
    )
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(200, 202, 400, 404, 500), hostileJson, fc.constantFrom(...COMMANDS), fc.constantFrom('json' as const, 'text' as const), async (status, body, command, output) => {
        answer = { status, body }
        const run = await against(command, output)
        expect(run.stderr).not.toContain('unexpectedly')
        expect([0, 1, 3]).toContain(run.code)
        expect(run.stdout + run.stderr).not.toBe('')
      }),
      { numRuns: 150 },
    )
  })
})

describe('arguments no target can take', () => {
  it('refuses an argument with a lone surrogate as a usage error (exit 2) instead of a URIError', async () => {
    expect(await runCli(['tool', 'info', '\ud800', '--url', origin, '-o', 'json'])).toEqual({ code: 2, stdout: '', stderr: 'error: argument 3 is not well-formed Unicode text (it holds a lone surrogate)\n' })
  })

  it('sends URL credentials with malformed percent escapes as they are, never failing unexpectedly', async () => {
    const run = await runCli(['tool', 'list', '--url', 'http://%zz:x@127.0.0.1:9/', '-o', 'json'])
    expect(jsonOf(run)).toEqual({ error: { code: 'cli_target_unavailable', reason: 'connection_failed', message: 'cannot reach http://127.0.0.1:9: ECONNREFUSED' } })
  })
})
