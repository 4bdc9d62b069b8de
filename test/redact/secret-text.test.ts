// The cases of "no secret in any text": a sensitive field's key or value never reaches a message,
// a pointer, an event, a preview, a stored outcome or an MCP result, in any encoding, and no part
// of one survives a length cut. Each test is named after the case it reproduces.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { REDACTED, createDispatcher, createMemoryApprovalStores, defineTool, type Dispatcher, type InvokeRequest } from 'result-views'
import { createMcpServer } from 'result-views/mcp'
import { errorOf } from '../support/outcomes.js'

const SCOPE = { workspace_id: 'ws-1', session_id: 's-1', agent_name: 'a', profile_id: 'p-1' }

/**
 * `vault__use`: `mode` says what the handler does with its input: `echo` returns `pad` followed
 * by the secret in its record (the default preview is its JSON), `throw` throws `pad` followed by
 * the secret, `stringify` throws the JSON of the whole input, `pointer` throws a JSON Pointer to
 * the key inside `creds`.
 */
function vaultTool(approval: 'none' | 'required' = 'none') {
  return defineTool({
    id: 'vault__use',
    description: 'Uses a secret.',
    approval,
    input: Type.Object({ mode: Type.String(), pad: Type.Optional(Type.String()), creds: Type.Optional(Type.Unknown()), deep: Type.Optional(Type.Unknown()), items: Type.Optional(Type.Unknown()) }),
    output: Type.Object({ text: Type.String() }),
    sensitiveInputFields: ['creds'],
    handler: (input) => {
      const secret = typeof input.creds === 'string' ? input.creds : ''
      const pad = input.pad ?? ''
      if (input.mode === 'throw') throw new Error(pad + secret)
      if (input.mode === 'stringify') throw new Error(`could not use ${JSON.stringify(input)}`)
      if (input.mode === 'pointer') throw new Error(`bad key at /creds/${Object.keys(input.creds as object)[0]!.replaceAll('~', '~0').replaceAll('/', '~1')}`)
      return { text: pad + secret }
    },
  })
}

/** A dispatcher that records every event payload and log line as JSON text. */
function recorded(options: { approval?: 'none' | 'required' } = {}) {
  const texts: string[] = []
  const log = (fields: unknown, message: string) => void texts.push(JSON.stringify(fields), message)
  const dispatcher = createDispatcher({
    tools: [vaultTool(options.approval)],
    logger: { debug: log, info: log, warn: log, error: log },
    ...(options.approval === 'required' ? { approvals: createMemoryApprovalStores() } : {}),
  })
  for (const event of ['tool.pre_call', 'tool.post_call', 'tool.post_error'] as const) dispatcher.hook(event, (payload: unknown) => void texts.push(JSON.stringify(payload)))
  return { dispatcher, texts }
}

/** Every text an outcome can be read as: itself, its error's message, toJSON() and each surface. */
function outcomeTexts(outcome: unknown): string[] {
  const texts = [JSON.stringify(outcome)]
  const error = (outcome as { error?: { message: string; toJSON(): unknown; forSurface(s: string): unknown; stack?: string } }).error
  if (error !== undefined) {
    texts.push(error.message, JSON.stringify(error.toJSON()), String(error.stack))
    for (const surface of ['dispatch', 'cli', 'http'] as const) texts.push(JSON.stringify(error.forSurface(surface)))
  }
  return texts
}

/** The longest run of `secret` (at least `min` characters, from any position) found in `text`, or 0. */
function longestPart(text: string, secret: string, min = 6): number {
  for (let length = secret.length; length >= min; length--) {
    for (let start = 0; start + length <= secret.length; start++) if (text.includes(secret.slice(start, start + length))) return length
  }
  return 0
}

describe('a value that is not plain JSON inside a sensitive field', () => {
  const cases: Array<[string, Partial<InvokeRequest>, string]> = [
    ["per tool: { creds: { 'sk-live-abc123': NaN } }", { input: { mode: 'echo', creds: { 'sk-live-abc123': NaN } } }, '/creds'],
    ["per call deep.a.b: { deep: { a: { b: { 'sk-live-abc123': NaN } } } }", { input: { mode: 'echo', deep: { a: { b: { 'sk-live-abc123': NaN } } } }, sensitive_input_fields: ['deep.a.b'] }, '/deep/a/b'],
    ["per call items[].token: { items: [{ token: { 'sk-live-abc123': NaN } }] }", { input: { mode: 'echo', items: [{ token: { 'sk-live-abc123': NaN } }] }, sensitive_input_fields: ['items[].token'] }, '/items/0/token'],
    ["a key with / and ~: { creds: { 'sk-live/abc~123': NaN } }", { input: { mode: 'echo', creds: { 'sk-live/abc~123': NaN } } }, '/creds'],
  ]
  it.each(cases)('%s names the sensitive field, never the key inside it', async (_name, request, pointer) => {
    const { dispatcher, texts } = recorded()
    const outcome = await dispatcher.invoke({ tool_id: 'vault__use', input: {}, ...request } as InvokeRequest)
    expect(errorOf(outcome)).toMatchObject({
      code: 'tool_invalid_input',
      reason: 'non_json_input',
      message: `tool "vault__use" input is not plain JSON at "${pointer}"`,
      details: { pointer, problem: 'non_finite_number' },
    })
    for (const text of [...outcomeTexts(outcome), ...texts]) {
      expect(text).not.toContain('sk-live')
      expect(text).not.toContain('abc123')
      expect(text).not.toContain('abc~0123')
    }
    expect(texts.some((text) => text.includes('"event":"tool.post_error"') && text.includes(`"pointer":"${pointer}"`))).toBe(true)
  })

  it('a sensitive value of 1-3 characters under a bad value is not named either (pointers stop at the field)', async () => {
    const { dispatcher } = recorded()
    const outcome = await dispatcher.invoke({ tool_id: 'vault__use', input: { mode: 'echo', creds: { ab: [1, { x: Number.NaN }] } } })
    expect(errorOf(outcome)).toMatchObject({ reason: 'non_json_input', details: { pointer: '/creds' } })
  })
})

describe('a secret in every encoding', () => {
  const secrets = ['sk-live/abc~123', 'sk"live\\abc', 'sk-live~1abc~0x', 'tok/"\\~q']
  it.each(secrets)('%s: a handler throwing JSON.stringify(input) leaks no form of it (message, toJSON, post_error)', async (secret) => {
    const { dispatcher, texts } = recorded()
    const outcome = await dispatcher.invoke({ tool_id: 'vault__use', input: { mode: 'stringify', creds: secret } })
    expect(errorOf(outcome)).toMatchObject({ code: 'tool_execution_failed', reason: 'handler_failed', message: `tool "vault__use" failed: could not use {"mode":"stringify","creds":"${REDACTED}"}` })
    const forms = [secret, JSON.stringify(secret).slice(1, -1), secret.replaceAll('~', '~0').replaceAll('/', '~1')]
    for (const text of [...outcomeTexts(outcome), ...texts]) for (const form of forms) expect(text).not.toContain(form)
  })

  it('a key with / and ~ thrown as a JSON Pointer (sk-live~1abc~0123) is scrubbed in its escaped form', async () => {
    const { dispatcher, texts } = recorded()
    const outcome = await dispatcher.invoke({ tool_id: 'vault__use', input: { mode: 'pointer', creds: { 'sk-live/abc~123': true } } })
    expect(errorOf(outcome).message).toBe(`tool "vault__use" failed: bad key at /creds/${REDACTED}`)
    for (const text of [...outcomeTexts(outcome), ...texts]) expect(text).not.toContain('abc~0123')
  })

  it('the stored approval outcome of a call that threw JSON.stringify(input) holds no form of the secret (show and resolve)', async () => {
    const { dispatcher, texts } = recorded({ approval: 'required' })
    const secret = 'sk"live\\abc/~9'
    const pending = await dispatcher.invoke({ tool_id: 'vault__use', input: { mode: 'stringify', creds: secret }, scope: SCOPE })
    expect(pending.status).toBe('approval_pending')
    const id = (pending as { approval_id: string }).approval_id
    const resolved = await dispatcher.approvals.resolve(id, { decision: 'approved', profile_id: SCOPE.profile_id })
    const shown = await dispatcher.approvals.show(id, { profile_id: SCOPE.profile_id })
    expect(JSON.stringify(shown)).toContain(`could not use {\\"mode\\":\\"stringify\\",\\"creds\\":\\"${REDACTED}\\"}`)
    const forms = [secret, JSON.stringify(secret).slice(1, -1), JSON.stringify(JSON.stringify(secret)).slice(1, -1), 'live\\\\abc', 'live\\abc']
    for (const text of [JSON.stringify(resolved), JSON.stringify(shown), ...texts]) for (const form of forms) expect(text).not.toContain(form)
  })
})

describe('a secret crossing a length cut', () => {
  const SECRET = 'sk-live-Q7m2Xr9vT4pL8wZ3'
  it('the 200-character default preview: no part of a secret crossing the cut, in preview or tool.post_call', async () => {
    // The preview is `{"text":"<pad><secret>"}`: the secret starts at 10 + pad.length.
    for (let start = 200 - SECRET.length - 2; start <= 202; start++) {
      const { dispatcher, texts } = recorded()
      const outcome = await dispatcher.invoke({ tool_id: 'vault__use', input: { mode: 'echo', pad: 'p'.repeat(start - 9), creds: SECRET } })
      expect(outcome.status).toBe('ok')
      const preview = (outcome as { result: { preview: string } }).result.preview
      expect(longestPart(preview, SECRET, 4)).toBe(0)
      for (const text of texts) expect(longestPart(text, SECRET, 4)).toBe(0)
    }
  })

  it('the 500-character thrown message: no part of a secret past the cut, in message, post_error or the MCP isError text', async () => {
    const { dispatcher, texts } = recorded()
    const { client, close } = await connect(dispatcher)
    try {
      for (let start = 500 - SECRET.length - 2; start <= 502; start++) {
        const input = { mode: 'throw', pad: 'p'.repeat(start), creds: SECRET }
        const outcome = await dispatcher.invoke({ tool_id: 'vault__use', input })
        const message = errorOf(outcome).message
        expect(message.startsWith(`tool "vault__use" failed: ${'p'.repeat(Math.min(start, 500))}`)).toBe(true)
        const over = await client.callTool({ name: 'vault__use', arguments: input })
        expect(over.isError).toBe(true)
        for (const text of [...outcomeTexts(outcome), ...texts, JSON.stringify(over)]) expect(longestPart(text, SECRET, 4)).toBe(0)
      }
    } finally {
      await close()
    }
  })
})

async function connect(dispatcher: Dispatcher) {
  const server = createMcpServer(dispatcher, { name: 'vault', version: '1.0.0' })
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
  await server.connect(serverTransport)
  const client = new Client({ name: 'test-client', version: '1.0.0' })
  await client.connect(clientTransport)
  return { client, close: async () => (await client.close(), await server.close()) }
}
