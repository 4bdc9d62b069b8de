import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { REDACTED, createDispatcher, defineTool, isToolDefinitionError, type Logger } from 'result-views'

const CANARY = 'canary-7f3a9c-secret'
const CANARY_2 = 'canary-b81e44-token'

const Input = Type.Object(
  {
    user: Type.String(),
    secret_ref: Type.Optional(Type.String()),
    auth: Type.Optional(Type.Object({ token: Type.String(), kind: Type.String() }, { additionalProperties: false })),
    items: Type.Optional(Type.Array(Type.Object({ name: Type.String(), token: Type.String() }, { additionalProperties: false }))),
    mode: Type.Optional(Type.Union([Type.Literal('a'), Type.Literal('b')])),
  },
  { additionalProperties: false },
)
const Record_ = Type.Object({ user: Type.String(), echo: Type.String() }, { additionalProperties: false })

/** A tool that echoes its secret into its record, its preview and (on demand) its thrown error. */
function echoTool(received: unknown[], sensitiveInputFields: string[] = ['auth.token', 'items[].token']) {
  return defineTool({
    id: 'vault__use',
    description: 'Uses a secret.',
    input: Input,
    output: { compact: Type.Object({ user: Type.String() }, { additionalProperties: false }), full: Record_ },
    sensitiveInputFields,
    preview: (record) => `used ${record.echo}`,
    handler: (input) => {
      received.push(input)
      if (input.user === 'fail') throw new Error(`could not use ${input.secret_ref} / ${input.auth?.token}`)
      return { user: input.user, echo: `${input.secret_ref ?? ''}${input.auth?.token ?? ''}` }
    },
  })
}

function harness(sensitiveInputFields?: string[]) {
  const received: unknown[] = []
  const emitted: unknown[] = []
  const logger: Logger = {
    debug: (f, m) => void emitted.push(['debug', f, m]),
    info: (f, m) => void emitted.push(['info', f, m]),
    warn: (f, m) => void emitted.push(['warn', f, m]),
    error: (f, m) => void emitted.push(['error', f, m]),
  }
  const dispatcher = createDispatcher({ tools: [echoTool(received, sensitiveInputFields)], logger })
  dispatcher.hook('tool.pre_call', (p) => void emitted.push(p))
  dispatcher.hook('tool.post_call', (p) => void emitted.push(p))
  dispatcher.hook('tool.post_error', (p) => void emitted.push(p))
  return { dispatcher, received, emitted }
}

const hits = (value: unknown, secret: string): number => JSON.stringify(value).split(secret).length - 1

describe('sensitive input fields (spec 001 "Sensitive input fields")', () => {
  it('gives the handler the real value and every event "[REDACTED]" (per-call and per-tool fields)', async () => {
    const { dispatcher, received, emitted } = harness()
    const input = { user: 'ana', secret_ref: CANARY, auth: { token: CANARY_2, kind: 'bearer' } }
    const outcome = await dispatcher.invoke({ tool_id: 'vault__use', input: { ...input, result_view: 'full' }, sensitive_input_fields: ['secret_ref'] })
    expect(received).toEqual([input])
    const pre = emitted[0] as { tool_input: unknown }
    expect(pre.tool_input).toEqual({ user: 'ana', secret_ref: REDACTED, auth: { token: REDACTED, kind: 'bearer' }, result_view: 'full' })
    expect(hits(emitted, CANARY) + hits(emitted, CANARY_2)).toBe(0)
    // The preview is a surface too; the record itself is the tool's result and reaches the caller.
    expect(outcome).toMatchObject({ status: 'ok', result: { preview: `used ${REDACTED}${REDACTED}` } })
  })

  it('redacts a field the tool and the call both name (walked once) in events, previews and errors, in every form', async () => {
    const secret = 'vault://provider/token'
    const forms = [secret, 'vault:~1~1provider~1token', encodeURIComponent(secret)]
    const { dispatcher, received, emitted } = harness(['secret_ref', 'auth.token'])
    const input = { user: 'ana', secret_ref: secret, auth: { token: CANARY_2, kind: 'bearer' } }
    const request = { tool_id: 'vault__use', sensitive_input_fields: ['secret_ref', 'auth.token', 'secret_ref'] }
    const outcome = await dispatcher.invoke({ ...request, input: { ...input, result_view: 'full' } })
    expect(received).toEqual([input])
    expect((emitted[0] as { tool_input: unknown }).tool_input).toEqual({ user: 'ana', secret_ref: REDACTED, auth: { token: REDACTED, kind: 'bearer' }, result_view: 'full' })
    expect(outcome).toMatchObject({ status: 'ok', result: { preview: `used ${REDACTED}${REDACTED}` } })
    const failed = await dispatcher.invoke({ ...request, input: { ...input, user: 'fail' } })
    expect(failed).toMatchObject({ status: 'error', error: { message: `tool "vault__use" failed: could not use ${REDACTED} / ${REDACTED}` } })
    for (const form of [...forms, CANARY_2]) expect(hits(emitted, form) + hits(failed, form)).toBe(0)
  })

  it('matches array paths (items[].token) in every element, and leaves absent paths absent', async () => {
    const { dispatcher, emitted } = harness()
    await dispatcher.invoke({ tool_id: 'vault__use', input: { user: 'ana', items: [{ name: 'a', token: CANARY }, { name: 'b', token: CANARY_2 }] } })
    expect((emitted[0] as { tool_input: unknown }).tool_input).toEqual({ user: 'ana', items: [{ name: 'a', token: REDACTED }, { name: 'b', token: REDACTED }] })
    expect(hits(emitted, 'canary')).toBe(0)
  })

  it('scrubs the secret from a handler error, the post_error event and log-free outcome', async () => {
    const { dispatcher, emitted } = harness()
    const outcome = await dispatcher.invoke({ tool_id: 'vault__use', input: { user: 'fail', secret_ref: CANARY, auth: { token: CANARY_2, kind: 'k' } }, sensitive_input_fields: ['secret_ref'] })
    expect(outcome.status).toBe('error')
    expect(hits(outcome, 'canary')).toBe(0)
    expect(hits(emitted, 'canary')).toBe(0)
    expect((outcome as { error: Error }).error.message).toBe(`tool "vault__use" failed: could not use ${REDACTED} / ${REDACTED}`)
    expect((outcome as { error: { cause?: unknown } }).error.cause).toBeUndefined()
  })

  it('never echoes a sensitive value in validation issues', async () => {
    const { dispatcher, emitted } = harness()
    const outcome = await dispatcher.invoke({ tool_id: 'vault__use', input: { user: 'ana', secret_ref: CANARY, auth: { token: CANARY_2, kind: 3 } }, sensitive_input_fields: ['secret_ref'] })
    expect(outcome).toMatchObject({ status: 'error', error: { reason: 'schema_invalid' } })
    expect(hits(outcome, 'canary') + hits(emitted, 'canary')).toBe(0)
  })

  it('keeps the real value when a pre-call patch sends the redacted marker back', async () => {
    const { dispatcher, received } = harness()
    dispatcher.hook('tool.pre_call', (p) => ({ tool_input: { ...(p.tool_input as object), mode: 'b' } }))
    await dispatcher.invoke({ tool_id: 'vault__use', input: { user: 'ana', secret_ref: CANARY, items: [{ name: 'a', token: CANARY_2 }] }, sensitive_input_fields: ['secret_ref'] })
    expect(received).toEqual([{ user: 'ana', secret_ref: CANARY, items: [{ name: 'a', token: CANARY_2 }], mode: 'b' }])
  })

  it('lets a patch set a new value for a sensitive field, and redacts that one too', async () => {
    const { dispatcher, received, emitted } = harness()
    dispatcher.hook('tool.pre_call', (p) => ({ tool_input: { ...(p.tool_input as object), secret_ref: CANARY_2 } }))
    const outcome = await dispatcher.invoke({ tool_id: 'vault__use', input: { user: 'ana', secret_ref: CANARY }, sensitive_input_fields: ['secret_ref'] })
    expect(received).toEqual([{ user: 'ana', secret_ref: CANARY_2 }])
    expect(hits(emitted, 'canary') + hits(outcome, 'canary')).toBe(0)
  })

  it('rejects malformed paths: per call as request_invalid, per tool at definition', async () => {
    const { dispatcher, received } = harness()
    for (const bad of ['', 'a..b', 'items[0].token', '[]', 'a.']) {
      const outcome = await dispatcher.invoke({ tool_id: 'vault__use', input: { user: 'ana' }, sensitive_input_fields: [bad] })
      expect(outcome).toMatchObject({ status: 'error', error: { code: 'tool_invalid_input', reason: 'request_invalid' } })
    }
    expect(received).toEqual([])
    let thrown: unknown
    try {
      echoTool([], ['items[1]'])
    } catch (error) {
      thrown = error
    }
    expect(isToolDefinitionError(thrown) && thrown.problems.map((p) => p.path)).toEqual(['/sensitiveInputFields/0'])
  })

  it('property: a canary in any sensitive field never appears in anything emitted', async () => {
    const secret = fc.stringMatching(/^[a-z0-9]{4,16}$/).map((s) => `zz-canary-${s}`)
    await fc.assert(
      fc.asyncProperty(secret, secret, fc.boolean(), fc.constantFrom('ok', 'fail', 'bad-input'), async (s1, s2, full, mode) => {
        const { dispatcher, emitted } = harness()
        const input: Record<string, unknown> = { user: mode === 'fail' ? 'fail' : 'ana', secret_ref: s1, items: [{ name: 'x', token: s2 }] }
        if (mode === 'bad-input') input.auth = { token: s1, kind: 7 }
        if (full) input.result_view = 'full'
        const outcome = await dispatcher.invoke({ tool_id: 'vault__use', input, sensitive_input_fields: ['secret_ref'] })
        expect(hits(emitted, 'zz-canary-')).toBe(0)
        if (outcome.status === 'ok') expect(outcome.result.preview).not.toContain('zz-canary-')
        else expect(hits(outcome, 'zz-canary-')).toBe(0)
      }),
      { numRuns: 200 },
    )
  })
})

describe('sensitive object keys', () => {
  it('scrubs keys found inside a sensitive object from previews and events', async () => {
    const events: unknown[] = []
    const dispatcher = createDispatcher({
      tools: [defineTool({ id: 'k', description: 'd', input: Type.Object({ nested: Type.Record(Type.String(), Type.Number()) }), output: Type.Object({ echo: Type.Record(Type.String(), Type.Number()) }), handler: (i) => ({ echo: i.nested }) })],
      hooks: { 'tool.post_call': (p) => void events.push(p) },
    })
    const outcome = await dispatcher.invoke({ tool_id: 'k', input: { nested: { 'CANARY-deep-444': 1 } }, sensitive_input_fields: ['nested'] })
    expect(JSON.stringify(events)).not.toContain('CANARY-deep-444')
    expect((outcome as { result: { preview: string } }).result.preview).not.toContain('CANARY-deep-444')
  })
})
