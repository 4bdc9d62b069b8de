// Regression (break-it review): a handler that put a sensitive value in a URL with
// `url.searchParams.set` (or `URLSearchParams`) and threw `new Error('request failed: ' + url)`
// leaked it: form encoding writes a space as `+` and `~ ( ) ! '` as `%7E %28 %29 %21 %27`, which
// no scrubbed form matched. Seen in the error message, the logger line, the `tool.post_error`
// payload and an approved call's stored outcome. `encodeURI(secret)` and percent-encoding with
// lower-case hex digits (`%2f`) leaked the same way.
import { describe, expect, it } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, createPatternPolicy, defineTool, type InvokeOutcome, type Logger } from 'result-views'
import { findSecretLeak } from 'result-views/testing'

const SECRET = 'sk live/secret(key)~1'
const SCOPE = { workspace_id: 'ws-1', session_id: 's-1', agent_name: 'a', profile_id: 'p-1' }

/** Percent-escapes written with lower-case hex digits, as some encoders do. */
const lowerHex = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())

type Writer = (secret: string) => string
const WRITERS: Array<[string, Writer]> = [
  [
    'url.searchParams.set',
    (secret) => {
      const url = new URL('https://api.example/x')
      url.searchParams.set('api_key', secret)
      return String(url)
    },
  ],
  ['URLSearchParams', (secret) => 'https://api.example/x?' + new URLSearchParams({ api_key: secret, v: '1' })],
  ['encodeURI', (secret) => encodeURI('https://api.example/x/' + secret + '/y')],
  ['encodeURIComponent with lower-case hex', (secret) => 'https://api.example/x?k=' + lowerHex(encodeURIComponent(secret))],
  ['URLSearchParams with lower-case hex', (secret) => 'https://api.example/x?' + lowerHex(String(new URLSearchParams({ api_key: secret })))],
  ['encodeURI with lower-case hex', (secret) => lowerHex(encodeURI('https://api.example/x/' + secret))],
  ['URLSearchParams of the JSON input', (secret) => 'https://api.example/x?' + new URLSearchParams({ body: JSON.stringify({ key: secret }) })],
]

function setup(write: Writer) {
  const lines: string[] = []
  const payloads: string[] = []
  const log = (fields: unknown, message: string): void => void lines.push(JSON.stringify(fields) + ' ' + message)
  const logger: Logger = { debug: log, info: log, warn: log, error: log }
  const tool = (id: string, approval: 'none' | 'required') =>
    defineTool({
      id,
      description: 'd',
      approval,
      input: { type: 'object', properties: { key: { type: 'string' } } },
      sensitiveInputFields: ['key'],
      output: { type: 'object' },
      handler: (input) => {
        throw new Error('request failed: ' + write(String(input.key)))
      },
    })
  const dispatcher = createDispatcher({
    tools: [tool('vault__use', 'none'), tool('vault__approve', 'required')],
    logger,
    policy: createPatternPolicy({ owner: 'agent:a' }),
    approvals: createMemoryApprovalStores(),
  })
  dispatcher.hook('tool.post_error', (payload: unknown) => void payloads.push(JSON.stringify(payload)))
  return { dispatcher, lines, payloads }
}

const messageOf = (outcome: InvokeOutcome): string => (outcome.status === 'error' ? outcome.error.message : expect.fail(`not an error: ${JSON.stringify(outcome)}`))

describe('a secret a handler put in a URL with form encoding, encodeURI or lower-case hex', () => {
  for (const [name, write] of WRITERS) {
    it(`is scrubbed from the message, the logged failure and the post_error payload: ${name}`, async () => {
      const { dispatcher, lines, payloads } = setup(write)
      const outcome = await dispatcher.invoke({ tool_id: 'vault__use', input: { key: SECRET }, scope: SCOPE })
      expect(outcome).toMatchObject({ status: 'error', error: { code: 'tool_execution_failed', reason: 'handler_failed' } })
      const message = messageOf(outcome)
      expect(message).toContain('[REDACTED]')
      expect(lines.length).toBeGreaterThan(0)
      expect(payloads.length).toBe(1)
      for (const text of [message, JSON.stringify(outcome), ...lines, ...payloads]) {
        expect(text).not.toContain(write(SECRET).slice('https://api.example/x'.length))
        expect(findSecretLeak(text, SECRET)).toBeUndefined()
      }
    })

    it(`is scrubbed from an approved call's stored outcome: ${name}`, async () => {
      const { dispatcher, lines } = setup(write)
      const pending = await dispatcher.invoke({ tool_id: 'vault__approve', input: { key: SECRET }, scope: SCOPE })
      expect(pending.status).toBe('approval_pending')
      const id = (pending as { approval_id: string }).approval_id
      const resolved = await dispatcher.approvals.resolve(id, { profile_id: SCOPE.profile_id, decision: 'approved' })
      const shown = await dispatcher.approvals.show(id, { profile_id: SCOPE.profile_id })
      expect(shown).toMatchObject({ execution_status: 'failed', outcome: { status: 'error' } })
      const stored = JSON.stringify((shown as { outcome: unknown }).outcome)
      expect(stored).toContain('[REDACTED]')
      for (const text of [stored, JSON.stringify(resolved), ...lines]) expect(findSecretLeak(text, SECRET)).toBeUndefined()
    })
  }

  it('the exact message of the review: request failed: https://api.example/x?api_key=[REDACTED]', async () => {
    const { dispatcher } = setup(WRITERS[0]![1])
    const outcome = await dispatcher.invoke({ tool_id: 'vault__use', input: { key: SECRET }, scope: SCOPE })
    expect(messageOf(outcome)).toBe('tool "vault__use" failed: request failed: https://api.example/x?api_key=[REDACTED]')
  })

  it('secrets that contain one another in form encoding leave no part of the longer one', async () => {
    const SHORT = 'abcd efgh'
    const LONG = 'abcd efgh(ijkl) mnop'
    const dispatcher = createDispatcher({
      tools: [
        defineTool({
          id: 'vault__two',
          description: 'd',
          input: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } },
          sensitiveInputFields: ['a', 'b'],
          output: { type: 'object' },
          handler: () => {
            throw new Error(`GET /x?${new URLSearchParams({ long: LONG, short: SHORT })} or /y/${encodeURI(LONG)}`)
          },
        }),
      ],
    })
    for (const input of [{ a: SHORT, b: LONG }, { a: LONG, b: SHORT }]) {
      const message = messageOf(await dispatcher.invoke({ tool_id: 'vault__two', input }))
      expect(message).toBe('tool "vault__two" failed: GET /x?long=[REDACTED]&short=[REDACTED] or /y/[REDACTED]')
    }
  })
})
