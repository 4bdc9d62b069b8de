// Every options object and request shape refuses one misspelt key made from its own key list
// (edit distance 1–2, case and snake/camel variants) with a typed refusal naming the key, on
// every entry and every surface (in process, HTTP bodies, MCP arguments, CLI flags).
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import fc from 'fast-check'
import Type from 'typebox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createDispatcher,
  createMemoryApprovalStores,
  createPatternPolicy,
  createRetiredIdFilter,
  defineApprovalTools,
  defineTool,
  invokeTool,
  isUsageError,
  type Dispatcher,
} from 'result-views'
import { toAiSdkTools } from 'result-views/ai'
import { compareContracts, contractLock, measureViews } from 'result-views/contracts'
import { createFetchHandler, createHttpHandler } from 'result-views/http'
import { createMcpServer, measureCatalog } from 'result-views/mcp'
import { toAgentsTools } from 'result-views/openai-agents'
import { createPostgresApprovalStores } from 'result-views/postgres'
import { createSqliteApprovalStores } from 'result-views/sqlite'
import { assertViewBudget } from 'result-views/testing'
import { runCli } from '../cli/support.js'

const record = { id: 'n1', body: 'b' }
const note = defineTool({
  id: 'notes__read',
  description: 'reads a note',
  input: Type.Object({ id: Type.String() }, { additionalProperties: false }),
  output: { compact: Type.Object({ id: Type.String() }), full: Type.Object({ id: Type.String(), body: Type.String() }) },
  handler: () => record,
})
const dispatcher = createDispatcher({ tools: [note] })
const pool = { query: () => undefined, connect: () => undefined }

/** One misspelling of `key` at edit distance 1–2, or its case or snake/camel variant. */
function misspelt(key: string): fc.Arbitrary<string> {
  const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz')
  const at = fc.nat({ max: key.length - 1 })
  const camel = key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
  const snake = key.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase())
  const one: fc.Arbitrary<string> = fc.oneof(
    fc.constant(key.toUpperCase()),
    fc.constant(key[0]!.toUpperCase() + key.slice(1)),
    fc.constant(camel),
    fc.constant(snake),
    at.map((i) => key.slice(0, i) + key.slice(i + 1)),
    fc.tuple(at, letter).map(([i, c]) => key.slice(0, i) + c + key.slice(i)),
    fc.tuple(at, letter).map(([i, c]) => key.slice(0, i) + c + key.slice(i + 1)),
    at.filter((i) => i + 1 < key.length).map((i) => key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2)),
  )
  return fc.oneof(one, fc.tuple(at, letter).map(([i, c]) => key.slice(0, i) + c + key.slice(i)).map((k) => k + 's'))
}

/** A misspelt key of `keys` that is none of them (and no JSON-parsing hazard). */
function misspeltOf(keys: readonly string[]): fc.Arbitrary<string> {
  return fc.constantFrom(...keys).chain(misspelt).filter((k) => k.length > 0 && !keys.includes(k) && k !== '__proto__')
}

/** The problems of the UsageError `run` throws (or rejects with). */
async function refusal(run: () => unknown): Promise<Array<{ path: string; code: string; message: string }>> {
  let error: unknown
  try {
    await run()
  } catch (thrown) {
    error = thrown
  }
  expect(isUsageError(error), 'a typed UsageError').toBe(true)
  return [...(error as { problems: Array<{ path: string; code: string; message: string }> }).problems]
}

const pointerToken = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1')

/** Each options object: its keys, and a call with valid members plus `extra`. */
const entries: Array<[string, readonly string[], string, (extra: Record<string, unknown>) => unknown]> = [
  ['createDispatcher', ['tools', 'policy', 'approvals', 'hooks', 'hookTimeoutMs', 'handlerTimeoutMs', 'logger', 'clock'], '', (x) => createDispatcher({ tools: [], ...x })],
  ['createDispatcher approvals', ['tokens', 'grants', 'pending', 'prompt', 'timeoutMs', 'promptTimeoutMs', 'pendingTtlMs', 'checkOwner', 'now', 'sealKey', 'previousSealKeys'], '/approvals', (x) => createDispatcher({ tools: [], approvals: { ...createMemoryApprovalStores(), ...x } })],
  ['createPatternPolicy', ['owner', 'tools', 'toolsets', 'deny_tools', 'approval', 'retired'], '', (x) => createPatternPolicy({ owner: 'agent:x', ...x })],
  ['createRetiredIdFilter', ['tools', 'toolsets', 'logger'], '', (x) => createRetiredIdFilter({ ...x })],
  ['defineApprovalTools', ['approvals', 'prefix', 'setApproval', 'revokeApproval', 'toolsets'], '', (x) => defineApprovalTools({ approvals: () => dispatcher.approvals, ...x })],
  ['defineTool', ['id', 'description', 'input', 'output', 'handler', 'origin', 'risk', 'approval', 'toolsets', 'sensitiveInputFields', 'inputErrorCode', 'preview', 'handlerTimeoutMs', 'omitWhen'], '', (x) => defineTool({ id: 'a', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => ({}), ...x } as never)],
  ['createHttpHandler', ['basePath', 'maxBodyBytes', 'bodyTimeoutMs', 'authenticate', 'authenticateTimeoutMs', 'challenge', 'logger', 'maxResultBytes', 'continuations'], '/options', (x) => createHttpHandler(dispatcher, x)],
  ['createFetchHandler continuations', ['maxEntries', 'maxBytes', 'ttlMs'], '/options/continuations', (x) => createFetchHandler(dispatcher, { maxResultBytes: 4096, continuations: x })],
  ['createMcpServer', ['name', 'version', 'scope', 'toolCallIdPrefix', 'instructions', 'maxResultBytes', 'continuations', 'continuationToolPrefix'], '', (x) => createMcpServer(dispatcher, { name: 'n', version: '1', ...x })],
  ['measureCatalog', ['countTokens', 'tokens'], '', (x) => measureCatalog([note], { tokens: false, ...x })],
  ['toAiSdkTools', ['scope', 'approvals', 'approvalTokenTtlMs', 'onApprovalPending'], '/options', (x) => toAiSdkTools(dispatcher, x)],
  ['toAgentsTools', ['scope', 'approvals', 'approvalTokenTtlMs', 'onApprovalPending'], '/options', (x) => toAgentsTools(dispatcher, x)],
  ['createPostgresApprovalStores', ['pool', 'connectionString', 'tablePrefix'], '', (x) => createPostgresApprovalStores({ pool, ...x } as never)],
  ['createSqliteApprovalStores', ['filename', 'busyTimeoutMs'], '', (x) => createSqliteApprovalStores({ filename: ':memory:', ...x })],
  ['contractLock', ['fixtures', 'countTokens', 'tokenizer'], '', (x) => contractLock([note], x as never)],
  ['compareContracts', ['acceptUnproven', 'budgetTolerance', 'fixtures', 'countTokens', 'tokenizer'], '', (x) => compareContracts([note], [note], x as never)],
  ['measureViews', ['countTokens', 'tokenizer'], '', (x) => measureViews(note, [record], x as never)],
  ['assertViewBudget', ['records', 'maxCompactTokens', 'maxCompactBytes', 'minSavingsRatio', 'countTokens'], '', (x) => assertViewBudget(note, { records: [record], maxCompactBytes: 1e6, ...x })],
]

describe('a misspelt option key is refused, naming it, on every options object', () => {
  for (const [name, keys, at, run] of entries) {
    it(name, async () => {
      await fc.assert(
        fc.asyncProperty(misspeltOf(keys), async (key) => {
          const problems = await refusal(() => run({ [key]: 1 }))
          expect(problems).toContainEqual({ path: `${at}/${pointerToken(key)}`, code: 'unknown_option', message: expect.stringContaining(JSON.stringify(key)) })
        }),
        { numRuns: 25 },
      )
    })
  }
})

/** A dispatcher whose handler and hooks count what ran. */
function counted(): { dispatcher: Dispatcher; ran: string[] } {
  const ran: string[] = []
  const tool = defineTool({ id: 't__s', description: 'd', input: Type.Object({ secret_ref: Type.String() }), output: Type.Object({}), handler: () => (ran.push('handler'), {}) })
  const counting = createDispatcher({ tools: [tool], hooks: { 'tool.pre_call': () => void ran.push('pre_call'), 'tool.post_error': () => void ran.push('post_error') } })
  return { dispatcher: counting, ran }
}

const REQUEST_KEYS = ['tool_id', 'input', 'scope', 'tool_call_id', 'approval_token', 'sensitive_input_fields', 'pinned_result_view', 'signal']
const SCOPE_KEYS = ['workspace_id', 'session_id', 'agent_name', 'profile_id']

describe('a misspelt request key is request_invalid, naming it, and nothing runs', () => {
  it('invoke', async () => {
    await fc.assert(
      fc.asyncProperty(misspeltOf(REQUEST_KEYS), async (key) => {
        const { dispatcher: d, ran } = counted()
        const outcome = await d.invoke({ tool_id: 't__s', input: { secret_ref: 'vault://x' }, [key]: ['secret_ref'] } as never)
        expect(outcome).toMatchObject({ status: 'error', error: { code: 'tool_invalid_input', reason: 'request_invalid', message: expect.stringContaining(JSON.stringify(key)) } })
        expect(ran).toEqual([])
      }),
      { numRuns: 40 },
    )
  })

  it('invokeTool', async () => {
    await fc.assert(
      fc.asyncProperty(misspeltOf(REQUEST_KEYS.filter((k) => k !== 'tool_id')), async (key) => {
        const outcome = await invokeTool(dispatcher, note, { input: { id: 'n1' }, [key]: 1 } as never)
        expect(outcome).toMatchObject({ status: 'error', error: { reason: 'request_invalid', message: expect.stringContaining(JSON.stringify(key)) } })
      }),
      { numRuns: 25 },
    )
  })

  it('scopes of invoke, describe and list', async () => {
    await fc.assert(
      fc.asyncProperty(misspeltOf(SCOPE_KEYS), async (key) => {
        const scope = { [key]: 'w' } as never
        const outcome = await dispatcher.invoke({ tool_id: 'notes__read', input: { id: 'n1' }, scope })
        expect(outcome).toMatchObject({ status: 'error', error: { reason: 'request_invalid', message: expect.stringContaining(JSON.stringify(key)) } })
        for (const run of [() => dispatcher.describe('notes__read', scope), () => dispatcher.list(scope)]) {
          await expect(run()).rejects.toMatchObject({ reason: 'request_invalid', message: expect.stringContaining(JSON.stringify(key)) })
        }
      }),
      { numRuns: 25 },
    )
  })
})

describe('on every surface', () => {
  const handler = createFetchHandler(dispatcher)
  let client: Client
  beforeAll(async () => {
    const server = createMcpServer(dispatcher, { name: 'n', version: '1' })
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
    await server.connect(serverTransport)
    client = new Client({ name: 'c', version: '1' })
    await client.connect(clientTransport)
  })
  afterAll(async () => client.close())

  it('HTTP invoke bodies: 400 request_invalid naming the field', async () => {
    await fc.assert(
      fc.asyncProperty(misspeltOf(['input', 'approval_token', 'sensitive_input_fields', 'scope', 'tool_call_id']), async (key) => {
        const response = await handler(new Request('http://127.0.0.1/api/tools/notes__read/invoke', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: { id: 'n1' }, [key]: 1 }) }), { remoteAddress: '127.0.0.1' })
        expect(response.status).toBe(400)
        const body = (await response.json()) as { error: { code: string; reason: string } }
        expect(body.error).toMatchObject({ code: 'tool_invalid_input', reason: 'request_invalid' })
      }),
      { numRuns: 20 },
    )
  })

  it('MCP arguments of a closed input: an error result naming the property', async () => {
    await fc.assert(
      fc.asyncProperty(misspeltOf(['id']).filter((k) => k !== 'result_view'), async (key) => {
        const result = (await client.callTool({ name: 'notes__read', arguments: { id: 'n1', [key]: 1 } })) as { isError?: boolean; content: Array<{ text: string }> }
        expect(result.isError).toBe(true)
        expect(result.content[0]!.text).toContain(key)
      }),
      { numRuns: 15 },
    )
  })

  it('CLI flags: exit 2, naming the flag, with a suggestion when one is near', async () => {
    await fc.assert(
      fc.asyncProperty(misspeltOf(['input', 'input-file', 'approval-token', 'workspace-id', 'session-id', 'agent-name', 'profile-id', 'timeout-ms']).filter((k) => /^[a-z][a-z-]*$/i.test(k)), async (flag) => {
        const run = await runCli(['tool', 'invoke', 'notes__read', '--url', 'http://127.0.0.1:9', `--${flag}`, 'x'])
        expect(run.code).toBe(2)
        expect(run.stderr).toContain(`unknown option '--${flag}'`)
      }),
      { numRuns: 20 },
    )
  })
})
