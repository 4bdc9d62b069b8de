import Type from 'typebox'
import { createDispatcher, defineTool, isToolError } from 'result-views'
import type { ApprovalGrant, ApprovalStores, ApprovalTokenRecord, Awaitable, InvokeOutcome, InvokePending, PendingApprovalRecord } from 'result-views'

/** Stores under test, with an optional `close` the suite calls after each test. */
export type ConformanceStores = ApprovalStores & { close?(): Awaitable<void> }

/** Builds fresh, empty stores for one test (a new file, a new schema, a cleared table...). */
export type ApprovalStoresFactory = () => Awaitable<ConformanceStores>

/**
 * The runner's `describe`, as the suite calls it: a name and a body that registers tests.
 * vitest's, Jest's, Mocha's and `node:test`'s fit.
 */
export type ConformanceDescribe = (name: string, body: () => void) => unknown

/** The runner's `it`, as the suite calls it: a name and a test body that returns a promise. */
export type ConformanceIt = (name: string, body: () => Promise<void>) => unknown

/** The matchers the suite uses on `expect(actual)` (vitest's and Jest's have them all). */
export interface ConformanceMatchers {
  /** `Object.is` equality. */
  toBe(expected: unknown): unknown
  /** Deep equality. */
  toEqual(expected: unknown): unknown
  /** The value's fields include these (deeply). */
  toMatchObject(expected: object): unknown
  /** The array or string contains the item. */
  toContain(item: unknown): unknown
  /** The array or string has this length. */
  toHaveLength(length: number): unknown
  /** The value is not `undefined`. */
  toBeDefined(): unknown
  /** The value is `undefined`. */
  toBeUndefined(): unknown
}

/**
 * The runner's `expect`, as the suite calls it: a value in (and, on some assertions, a message
 * naming the case, which vitest prints and a runner may ignore), the {@link ConformanceMatchers}
 * out; a failed matcher throws.
 */
export type ConformanceExpect = (actual: unknown, message?: string) => ConformanceMatchers

/**
 * Options of {@link describeApprovalStoreConformance}: the test runner's `describe`, `it` and
 * `expect`, passed in so that this entry loads without a test runner (and from CommonJS). They are
 * typed by what the suite calls (no runner's types are imported): vitest's and Jest's fit as they are.
 */
export interface ApprovalStoreConformanceOptions {
/** The runner's `describe` (vitest's, Jest's, or one with the same shape). */
  describe: ConformanceDescribe
/** The runner's `it` (or `test`). */
  it: ConformanceIt
/** The runner's `expect`. */
  expect: ConformanceExpect
  /** Concurrent callers in the single-use races (`consume`, `update`). Default 50. */
  concurrency?: number
}

const HASH_A = 'a'.repeat(64)
const HASH_B = 'b'.repeat(64)
const DIGEST_A = 'sha256:' + '1'.repeat(64)
const DIGEST_B = 'sha256:' + '2'.repeat(64)

function tokenRecord(overrides: Partial<ApprovalTokenRecord> = {}): ApprovalTokenRecord {
  return {
    token_hash: HASH_A,
    tool_id: 'conformance__tool',
    workspace_id: 'ws-1',
    session_id: 'sess-1',
    agent_name: 'reviewer',
    input_digest: DIGEST_A,
    created_at: '2026-11-10T14:00:00.000Z',
    expires_at: '2026-11-10T14:05:00.000Z',
    ...overrides,
  }
}

function grant(overrides: Partial<ApprovalGrant> = {}): ApprovalGrant {
  return {
    grant_id: 'grant-1',
    workspace_id: 'ws-1',
    tool_id: 'conformance__tool',
    scope: 'agent',
    agent_name: 'reviewer',
    decision: 'allow',
    origin: 'management',
    created_at: '2026-11-10T14:00:00.000Z',
    ...overrides,
  }
}

function toolGrant(overrides: Partial<ApprovalGrant> = {}): ApprovalGrant {
  const { agent_name: _agent, ...rest } = grant({ scope: 'tool', ...overrides })
  return rest
}

function pendingRecord(overrides: Partial<PendingApprovalRecord> = {}): PendingApprovalRecord {
  return {
    approval_id: 'approval-1',
    state: 'pending',
    tool_id: 'conformance__tool',
    tool_call_id: 'call-1',
    scope: { workspace_id: 'ws-1', session_id: 'sess-1', agent_name: 'reviewer', profile_id: 'prof-1' },
    input: JSON.parse('{"target":"prod ✓ \\ud83d\\ude80","nested":{"list":[1,2.5,null,true,"x"]},"__proto__":{"kept":"as a key"},"result_view":"full"}'),
    input_digest: DIGEST_A,
    sensitive_input_fields: ['nested.list'],
    pinned_result_view: 'full',
    reason: 'tool_requires_approval',
    created_at: '2026-11-10T14:00:00.000Z',
    expires_at: '2026-11-10T14:15:00.000Z',
    ...overrides,
  }
}

/** Canonical text of a record (own keys sorted, so a `__proto__` key counts), for exact comparisons. */
function text(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]]))
      : v,
  )
}

/**
 * The contract of the approval stores (`ApprovalTokenStore`, `ApprovalGrantStore`,
 * `PendingApprovalStore`), as a test suite (vitest, Jest, ...) a host runs against its own implementation — the
 * reference memory and SQLite stores pass it. Call it at the top level of a test file with the
 * runner's functions: `describeApprovalStoreConformance('pg', factory, { describe, it, expect })`.
 *
 * It checks, per store: records come back exactly as stored (absent fields stay absent, unicode
 * and `__proto__` keys survive) and as copies; `consume` and `update` are atomic (of N concurrent
 * callers exactly one wins); grants are keyed by workspace + tool + scope + agent + input digest,
 * replaced on the same key and invisible from another workspace; then the stores run a dispatcher
 * end to end (mint → use → replay, a remembered prompt answer, a pending approval resolved).
 *
 * @param name - a label for the describe block, e.g. `'postgres stores'`.
 * @param factory - fresh, empty stores for each test; `close()` (if any) is called after it.
 * @param options - `{ describe, it, expect, concurrency? }`.
 */
export function describeApprovalStoreConformance(name: string, factory: ApprovalStoresFactory, options: ApprovalStoreConformanceOptions): void {
  const { describe, it, expect } = options
  const concurrency = options.concurrency ?? 50

  async function withStores(run: (stores: ConformanceStores) => Promise<void>): Promise<void> {
    const stores = await factory()
    try {
      await run(stores)
    } finally {
      await stores.close?.()
    }
  }

  describe(`approval store conformance: ${name}`, () => {
    describe('ApprovalTokenStore', () => {
      it('returns undefined for an unknown hash', () =>
        withStores(async ({ tokens }) => {
          expect(await tokens.get(HASH_B)).toBeUndefined()
        }))

      it('returns an inserted record exactly, absent fields absent', () =>
        withStores(async ({ tokens }) => {
          const full = tokenRecord()
          const { workspace_id: _w, session_id: _s, agent_name: _a, ...bare } = tokenRecord({ token_hash: HASH_B })
          await tokens.insert(full)
          await tokens.insert(bare)
          expect(text(await tokens.get(HASH_A))).toBe(text(full))
          expect(text(await tokens.get(HASH_B))).toBe(text(bare))
        }))

      it('hands out copies: changing a returned record changes nothing stored', () =>
        withStores(async ({ tokens }) => {
          await tokens.insert(tokenRecord())
          const got = (await tokens.get(HASH_A)) as { tool_id: string }
          got.tool_id = 'changed'
          expect((await tokens.get(HASH_A))?.tool_id).toBe('conformance__tool')
        }))

      it('consumes a token once: true, then false, and records consumed_at', () =>
        withStores(async ({ tokens }) => {
          await tokens.insert(tokenRecord())
          expect(await tokens.consume(HASH_A, '2026-11-10T14:01:00.000Z')).toBe(true)
          expect(await tokens.consume(HASH_A, '2026-11-10T14:02:00.000Z')).toBe(false)
          expect((await tokens.get(HASH_A))?.consumed_at).toBe('2026-11-10T14:01:00.000Z')
        }))

      it('never consumes an unknown hash', () =>
        withStores(async ({ tokens }) => {
          expect(await tokens.consume(HASH_B, '2026-11-10T14:01:00.000Z')).toBe(false)
          expect(await tokens.get(HASH_B)).toBeUndefined()
        }))

      it(`lets exactly one of ${concurrency} concurrent consumes win`, () =>
        withStores(async ({ tokens }) => {
          await tokens.insert(tokenRecord())
          const results = await Promise.all(Array.from({ length: concurrency }, () => Promise.resolve().then(() => tokens.consume(HASH_A, '2026-11-10T14:01:00.000Z'))))
          expect(results.filter((won) => won === true)).toHaveLength(1)
          expect(results.filter((won) => won === false)).toHaveLength(concurrency - 1)
        }))

      it('deletes only records that expired before the cut-off (when deleteExpired is implemented)', () =>
        withStores(async ({ tokens }) => {
          if (tokens.deleteExpired === undefined) return
          await tokens.insert(tokenRecord({ token_hash: HASH_A, expires_at: '2026-11-10T14:05:00.000Z' }))
          await tokens.insert(tokenRecord({ token_hash: HASH_B, expires_at: '2026-11-10T15:05:00.000Z' }))
          expect(await tokens.deleteExpired('2026-11-10T15:00:00.000Z')).toBe(1)
          expect(await tokens.get(HASH_A)).toBeUndefined()
          expect(await tokens.get(HASH_B)).toBeDefined()
        }))
    })

    describe('ApprovalGrantStore', () => {
      it('finds a grant by its exact key only', () =>
        withStores(async ({ grants }) => {
          const exact = grant({ grant_id: 'g-exact', scope: 'exact', input_digest: DIGEST_A, origin: 'prompt' })
          await grants.put(exact)
          expect(text(await grants.get({ workspace_id: 'ws-1', tool_id: 'conformance__tool', scope: 'exact', agent_name: 'reviewer', input_digest: DIGEST_A }))).toBe(text(exact))
          for (const key of [
            { workspace_id: 'ws-2', tool_id: 'conformance__tool', scope: 'exact', agent_name: 'reviewer', input_digest: DIGEST_A },
            { workspace_id: 'ws-1', tool_id: 'other__tool', scope: 'exact', agent_name: 'reviewer', input_digest: DIGEST_A },
            { workspace_id: 'ws-1', tool_id: 'conformance__tool', scope: 'exact', agent_name: 'builder', input_digest: DIGEST_A },
            { workspace_id: 'ws-1', tool_id: 'conformance__tool', scope: 'exact', agent_name: 'reviewer', input_digest: DIGEST_B },
            { workspace_id: 'ws-1', tool_id: 'conformance__tool', scope: 'exact', input_digest: DIGEST_A },
            { workspace_id: 'ws-1', tool_id: 'conformance__tool', scope: 'agent', agent_name: 'reviewer' },
            { workspace_id: 'ws-1', tool_id: 'conformance__tool', scope: 'tool' },
          ] as const) {
            expect(await grants.get(key), JSON.stringify(key)).toBeUndefined()
          }
        }))

      it('keeps an exact grant without agent apart from one with an agent', () =>
        withStores(async ({ grants }) => {
          const { agent_name: _agent, ...bare } = grant({ grant_id: 'g-bare', scope: 'exact', input_digest: DIGEST_A, decision: 'reject', origin: 'prompt' })
          await grants.put(bare)
          await grants.put(grant({ grant_id: 'g-agent', scope: 'exact', input_digest: DIGEST_A, origin: 'prompt' }))
          expect((await grants.get({ workspace_id: 'ws-1', tool_id: 'conformance__tool', scope: 'exact', input_digest: DIGEST_A }))?.grant_id).toBe('g-bare')
          expect((await grants.get({ workspace_id: 'ws-1', tool_id: 'conformance__tool', scope: 'exact', agent_name: 'reviewer', input_digest: DIGEST_A }))?.grant_id).toBe('g-agent')
        }))

      it('replaces the grant with the same key', () =>
        withStores(async ({ grants }) => {
          await grants.put(grant({ grant_id: 'g-1', decision: 'allow' }))
          await grants.put(grant({ grant_id: 'g-2', decision: 'reject' }))
          const got = await grants.get({ workspace_id: 'ws-1', tool_id: 'conformance__tool', scope: 'agent', agent_name: 'reviewer' })
          expect([got?.grant_id, got?.decision]).toEqual(['g-2', 'reject'])
          expect((await grants.list('ws-1')).map((g) => g.grant_id)).toEqual(['g-2'])
        }))

      it('lists and deletes within one workspace only', () =>
        withStores(async ({ grants }) => {
          await grants.put(toolGrant({ grant_id: 'g-1', workspace_id: 'ws-1' }))
          await grants.put(toolGrant({ grant_id: 'g-2', workspace_id: 'ws-2' }))
          await grants.put(grant({ grant_id: 'g-3', workspace_id: 'ws-1' }))
          expect((await grants.list('ws-1')).map((g) => g.grant_id).sort()).toEqual(['g-1', 'g-3'])
          expect((await grants.list('ws-2')).map((g) => g.grant_id)).toEqual(['g-2'])
          expect(await grants.list('ws-3')).toEqual([])
          expect(await grants.delete('ws-2', 'g-1')).toBe(false)
          expect(await grants.delete('ws-1', 'g-1')).toBe(true)
          expect(await grants.delete('ws-1', 'g-1')).toBe(false)
          expect((await grants.list('ws-1')).map((g) => g.grant_id)).toEqual(['g-3'])
          expect(await grants.get({ workspace_id: 'ws-1', tool_id: 'conformance__tool', scope: 'tool' })).toBeUndefined()
        }))

      it('hands out copies', () =>
        withStores(async ({ grants }) => {
          await grants.put(grant())
          const [listed] = (await grants.list('ws-1')) as unknown as Array<{ decision: string }>
          listed!.decision = 'reject'
          expect((await grants.get({ workspace_id: 'ws-1', tool_id: 'conformance__tool', scope: 'agent', agent_name: 'reviewer' }))?.decision).toBe('allow')
        }))
    })

    describe('PendingApprovalStore', () => {
      it('returns an inserted record exactly (unicode, a "__proto__" key, optional fields)', () =>
        withStores(async ({ pending }) => {
          const record = pendingRecord()
          await pending.insert(record)
          const got = await pending.get('approval-1')
          expect(text(got)).toBe(text(record))
          expect(Object.getPrototypeOf((got as { input: object }).input)).toBe(Object.prototype)
          expect(Object.keys((got as { input: object }).input)).toContain('__proto__')
          expect(await pending.get('approval-2')).toBeUndefined()
        }))

      it('updates only from the expected state', () =>
        withStores(async ({ pending }) => {
          await pending.insert(pendingRecord())
          const finished = pendingRecord({
            state: 'completed',
            decided_at: '2026-11-10T14:01:00.000Z',
            finished_at: '2026-11-10T14:01:01.000Z',
            outcome: { status: 'ok', result: { structured: { id: 'x' }, preview: 'x' }, result_view: 'full' },
          })
          expect(await pending.update('approval-1', 'dispatching', finished)).toBe(false)
          expect((await pending.get('approval-1'))?.state).toBe('pending')
          expect(await pending.update('approval-1', 'pending', pendingRecord({ state: 'dispatching' }))).toBe(true)
          expect(await pending.update('approval-1', 'dispatching', finished)).toBe(true)
          expect(text(await pending.get('approval-1'))).toBe(text(finished))
          expect(await pending.update('approval-2', 'pending', finished)).toBe(false)
          expect(await pending.get('approval-2')).toBeUndefined()
        }))

      it(`lets exactly one of ${concurrency} concurrent updates from one state win`, () =>
        withStores(async ({ pending }) => {
          await pending.insert(pendingRecord())
          const results = await Promise.all(
            Array.from({ length: concurrency }, (_, i) =>
              Promise.resolve().then(() => pending.update('approval-1', 'pending', pendingRecord({ state: i % 2 === 0 ? 'dispatching' : 'canceled' }))),
            ),
          )
          expect(results.filter((won) => won === true)).toHaveLength(1)
          expect(['dispatching', 'canceled']).toContain((await pending.get('approval-1'))?.state)
        }))

      it("lists one profile's records in every state, as stored (when list is implemented)", () =>
        withStores(async ({ pending }) => {
          if (pending.list === undefined) return
          await pending.insert(pendingRecord())
          await pending.insert(pendingRecord({ approval_id: 'approval-2' }))
          await pending.insert(pendingRecord({ approval_id: 'approval-3', scope: { workspace_id: 'ws-1', profile_id: 'prof-2' } }))
          expect(await pending.update('approval-2', 'pending', pendingRecord({ approval_id: 'approval-2', state: 'denied', decided_at: '2026-11-10T14:01:00.000Z' }))).toBe(true)
          const listed = [...(await pending.list('prof-1'))].sort((a, b) => (a.approval_id < b.approval_id ? -1 : 1))
          expect(listed.map((record) => [record.approval_id, record.state])).toEqual([['approval-1', 'pending'], ['approval-2', 'denied']])
          expect(text(listed[0])).toBe(text(pendingRecord()))
          expect(await pending.list('prof-none')).toEqual([])
        }))
    })

    describe('through a dispatcher', () => {
      const tool = defineTool({
        id: 'conformance__deploy',
        description: 'A tool that needs approval.',
        approval: 'required',
        input: Type.Object({ target: Type.String() }, { additionalProperties: false }),
        output: Type.Object({ deployed: Type.String() }, { additionalProperties: false }),
        handler: (input) => ({ deployed: input.target }),
      })
      const scope = { workspace_id: 'ws-1', session_id: 'sess-1', agent_name: 'reviewer', profile_id: 'prof-1' }
      const reasonOf = (outcome: InvokeOutcome): string | undefined => (outcome.status === 'error' && isToolError(outcome.error) ? outcome.error.reason : undefined)

      it('runs a minted token once and refuses its replay', () =>
        withStores(async (stores) => {
          const dispatcher = createDispatcher({ tools: [tool], approvals: { tokens: stores.tokens, grants: stores.grants, pending: stores.pending } })
          const { token } = await dispatcher.approvals.mintApprovalToken({ tool_id: tool.id, scope, input: { target: 'prod' }, ttlMs: 60_000 })
          const first = await dispatcher.invoke({ tool_id: tool.id, input: { target: 'prod' }, scope, approval_token: token })
          expect(first.status).toBe('ok')
          expect(reasonOf(await dispatcher.invoke({ tool_id: tool.id, input: { target: 'prod' }, scope, approval_token: token }))).toBe('token_replayed')
        }))

      it('remembers an allow_always answer for the exact call only', () =>
        withStores(async (stores) => {
          const asked: unknown[] = []
          const dispatcher = createDispatcher({
            tools: [tool],
            approvals: { tokens: stores.tokens, grants: stores.grants, pending: stores.pending, prompt: (request) => (asked.push(request.input), 'allow_always') },
          })
          expect((await dispatcher.invoke({ tool_id: tool.id, input: { target: 'prod' }, scope })).status).toBe('ok')
          expect((await dispatcher.invoke({ tool_id: tool.id, input: { target: 'prod' }, scope })).status).toBe('ok')
          expect((await dispatcher.invoke({ tool_id: tool.id, input: { target: 'staging' }, scope })).status).toBe('ok')
          expect(asked).toEqual([{ target: 'prod' }, { target: 'staging' }])
        }))

      it('keeps a pending approval until its owner resolves it', () =>
        withStores(async (stores) => {
          const dispatcher = createDispatcher({ tools: [tool], approvals: { tokens: stores.tokens, grants: stores.grants, pending: stores.pending } })
          const outcome = await dispatcher.invoke({ tool_id: tool.id, input: { target: 'prod' }, scope })
          expect(outcome.status).toBe('approval_pending')
          const { approval_id } = outcome as InvokePending
          expect((await dispatcher.approvals.show(approval_id, { profile_id: 'prof-1' })).status).toBe('pending')
          const done = await dispatcher.approvals.resolve(approval_id, { decision: 'approved', profile_id: 'prof-1' })
          expect([done.status, done.execution_status, done.outcome?.status]).toEqual(['approved', 'completed', 'ok'])
          expect((await dispatcher.approvals.show(approval_id, { profile_id: 'prof-1' })).outcome).toMatchObject({ status: 'ok', result: { structured: { deployed: 'prod' } } })
        }))
    })
  })
}
