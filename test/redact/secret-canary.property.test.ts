// The canary property over every surface a dispatcher writes: a generated secret (with "/", "~",
// '"' and "\" between its chunks) planted as a key, a value or both, at any depth under a per-tool
// field (`creds`) or a per-call one (`deep.a.b`, `items[].token`), echoed by the handler into its
// record, its thrown message, the JSON of its whole input, a JSON Pointer or a URL query holding its
// JSON (percent-encoded, or form-encoded by URLSearchParams), with padding that puts
// it across the 200-character preview cut and the 500-character message cut, never leaves a part
// of itself (8 characters, in any encoding) in an event, a log line, an error (message, toJSON,
// stack, every surface), a preview, an MCP error result, or the SQLite file of an approval's
// stored record and outcome.
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import fc from 'fast-check'
import Type from 'typebox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, type Dispatcher, type InvokeOutcome, type InvokeRequest } from 'result-views'
import { createMcpServer } from 'result-views/mcp'
import { createSqliteApprovalStores, type SqliteApprovalStores } from 'result-views/sqlite'
import { findSecretLeak, secretCanaryArbitrary } from 'result-views/testing'

const SCOPE = { workspace_id: 'ws-1', session_id: 's-1', agent_name: 'a', profile_id: 'p-1' }
type Kind = 'creds' | 'deep.a.b' | 'items[].token'
type Mode = 'echo' | 'throw' | 'stringify' | 'pointer' | 'nonjson' | 'percent-json' | 'form-json'

/** The sensitive value of an input, wherever its kind puts it. */
function sensitiveOf(input: Record<string, any>): unknown {
  if (input.creds !== undefined) return input.creds
  if (input.deep !== undefined) return input.deep.a.b
  return input.items?.[1]?.token
}

/** What the handler does with the secret: see {@link Mode}. */
function handler(input: Record<string, any>): { text: string } {
  const secret = sensitiveOf(input)
  const text = (input.pad as string) + JSON.stringify(secret)
  if (input.mode === 'throw') throw new Error(text)
  if (input.mode === 'stringify') throw new Error(`could not use ${JSON.stringify(input)}`)
  // JSON a handler put in a URL: the JSON text of the sensitive value, percent-encoded.
  if (input.mode === 'percent-json') throw new Error(`GET /x?pad=${input.pad as string}&q=${encodeURIComponent(JSON.stringify(secret) ?? 'null')} failed`)
  // The same query written by URLSearchParams (space → `+`, `!'()~` escaped).
  if (input.mode === 'form-json') throw new Error(`GET /x?${new URLSearchParams({ pad: input.pad as string, q: JSON.stringify(secret) ?? 'null' })} failed`)
  if (input.mode === 'pointer') {
    const key = typeof secret === 'object' && secret !== null ? Object.keys(secret)[0] ?? '' : String(secret)
    throw new Error(`bad key at /x/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`)
  }
  return { text }
}

const input = Type.Object({ mode: Type.String(), pad: Type.String(), creds: Type.Optional(Type.Unknown()), deep: Type.Optional(Type.Unknown()), items: Type.Optional(Type.Unknown()) })
const output = Type.Object({ text: Type.String() })
const tools = [
  defineTool({ id: 'vault__use', description: 'Uses a secret.', input, output, sensitiveInputFields: ['creds'], handler }),
  defineTool({ id: 'vault__approve', description: 'Uses a secret once approved.', approval: 'required', input, output, sensitiveInputFields: ['creds'], handler }),
]

/** The secret planted as a value, a key or both, under `depth` levels of objects and arrays. */
function planted(canary: string, as: 'value' | 'key' | 'both', depth: number, mode: Mode): unknown {
  let value: unknown = as === 'value' ? canary : { [canary]: as === 'both' ? canary : 'v' }
  if (mode === 'nonjson') value = { [canary]: Number.NaN, inner: value }
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? { level: value } : [value]
  return value
}

function requestOf(tool: string, kind: Kind, mode: Mode, pad: number, value: unknown): InvokeRequest {
  const base = { mode, pad: 'p'.repeat(pad) }
  switch (kind) {
    case 'creds':
      return { tool_id: tool, input: { ...base, creds: value }, scope: SCOPE }
    case 'deep.a.b':
      return { tool_id: tool, input: { ...base, deep: { a: { b: value, other: 'fine' } } }, scope: SCOPE, sensitive_input_fields: ['deep.a.b'] }
    default:
      return { tool_id: tool, input: { ...base, items: [{ token: 'tok-plain-0001' }, { token: value }] }, scope: SCOPE, sensitive_input_fields: ['items[].token'] }
  }
}

/** Every text an outcome can be read as; an ok outcome's `structured` record is the tool's own result and is not rewritten. */
function outcomeTexts(outcome: InvokeOutcome): string[] {
  if (outcome.status === 'ok') return [outcome.result.preview, JSON.stringify({ ...outcome, result: { preview: outcome.result.preview } })]
  const texts = [JSON.stringify(outcome)]
  if (outcome.status === 'error') {
    const error = outcome.error
    texts.push(error.message, JSON.stringify(error.toJSON()), String(error.stack))
    for (const surface of ['dispatch', 'cli', 'http'] as const) texts.push(JSON.stringify(error.forSurface(surface)))
  }
  return texts
}

const PADS = fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 100, max: 205 }), fc.integer({ min: 400, max: 505 }))

describe('no part of a canary secret reaches any surface', () => {
  const texts: string[] = []
  const log = (fields: unknown, message: string) => void texts.push(JSON.stringify(fields), message)
  let dir: string
  let stores: SqliteApprovalStores
  let dispatcher: Dispatcher
  let client: Client
  let close: () => Promise<void>

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'result-views-canary-'))
    stores = createSqliteApprovalStores({ filename: join(dir, 'approvals.db') })
    dispatcher = createDispatcher({ tools, logger: { debug: log, info: log, warn: log, error: log }, approvals: stores })
    for (const event of ['tool.pre_call', 'tool.post_call', 'tool.post_error'] as const) dispatcher.hook(event, (payload: unknown) => void texts.push(JSON.stringify(payload)))
    const server = createMcpServer(dispatcher, { name: 'vault', version: '1.0.0' })
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
    await server.connect(serverTransport)
    client = new Client({ name: 'canary-client', version: '1.0.0' })
    await client.connect(clientTransport)
    close = async () => (await client.close(), await server.close())
  })
  afterAll(async () => {
    await close?.()
    stores?.close()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  const sqliteText = (): string =>
    ['approvals.db', 'approvals.db-wal'].map((name) => join(dir, name)).filter(existsSync).map((file) => readFileSync(file).toString('latin1')).join('\n')

  it('property: events, logs, errors, previews, MCP error results and the SQLite file hold no part of it', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        secretCanaryArbitrary(),
        fc.constantFrom<Kind>('creds', 'deep.a.b', 'items[].token'),
        fc.constantFrom<Mode>('echo', 'throw', 'stringify', 'pointer', 'nonjson', 'percent-json', 'form-json'),
        fc.constantFrom('value', 'key', 'both') as fc.Arbitrary<'value' | 'key' | 'both'>,
        fc.integer({ min: 0, max: 4 }),
        PADS,
        fc.boolean(),
        async (canary, kind, mode, as, depth, pad, approved) => {
          texts.length = 0
          const value = planted(canary, as, depth, mode)
          const seen: string[] = []
          const outcome = await dispatcher.invoke(requestOf(approved ? 'vault__approve' : 'vault__use', kind, mode, pad, value))
          seen.push(...outcomeTexts(outcome))
          if (outcome.status === 'approval_pending') {
            const resolved = await dispatcher.approvals.resolve(outcome.approval_id, { decision: 'approved', profile_id: SCOPE.profile_id })
            const shown = await dispatcher.approvals.show(outcome.approval_id, { profile_id: SCOPE.profile_id })
            seen.push(JSON.stringify(resolved), JSON.stringify(shown), sqliteText())
          }
          if (kind === 'creds' && !approved) {
            // Over MCP only per-tool fields apply; an ok result's text is the tool's own record.
            const over = await client.callTool({ name: 'vault__use', arguments: requestOf('vault__use', kind, mode, pad, value).input as Record<string, unknown> })
            if (over.isError === true) seen.push(JSON.stringify(over))
          }
          for (const text of [...seen, ...texts]) {
            const leak = findSecretLeak(text, canary)
            if (leak !== undefined) expect.fail(`${leak.form} part ${JSON.stringify(leak.part)} of ${JSON.stringify(canary)} in ${text.slice(0, 2_000)}`)
          }
          // The property is not vacuous: something was written for every run.
          expect(seen.length + texts.length).toBeGreaterThan(2)
        },
      ),
      { numRuns: 100 },
    )
  })
})
