// Property tests over what hosts answer: every host callback (pre-call hook, policy, prompt,
// checkOwner, every store method, the tool's preview, the handler) answering unreadable, hostile,
// hung or late values, and inputs with `undefined`-valued members. Judged: invoke and every
// management call settle (never reject, never hang), only with registered codes and reasons, the
// handler never runs when the approval step failed, and Object.prototype never changes.
import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, defineTool, isToolError, ToolErrorCodes, type ApprovalStores, type InvokeOutcome } from 'result-views'
import { hostileInputArbitrary } from 'result-views/testing'

/** Cases per property: 10⁴ in CI (`npm test`), 10⁵ with `npm run fuzz` (FUZZ_RUNS). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000)
/** Hung callbacks cost their (short) budget each: a hundredth of the runs. */
const HUNG_RUNS = Math.max(50, RUNS / 100)
/** An answer not settled within this long counts as unsettled (every budget below is far shorter). */
const SETTLE_MS = 2_000

const SCOPE = { workspace_id: 'ws-1', session_id: 'sess-1', agent_name: 'a', profile_id: 'p' }
const CALLBACKS = [
  'hook',
  'policy',
  'prompt',
  'checkOwner',
  'preview',
  'handler',
  'tokens.get',
  'tokens.consume',
  'tokens.insert',
  'tokens.deleteExpired',
  'grants.get',
  'grants.list',
  'grants.put',
  'grants.delete',
  'pending.insert',
  'pending.get',
  'pending.update',
] as const
type Callback = (typeof CALLBACKS)[number]

const thrower = (): never => {
  throw new Error('trap')
}

/** Answers that throw when read, in every way a value can. */
const UNREADABLE: fc.Arbitrary<() => unknown> = fc.oneof(
  fc.subarray(['get', 'has', 'ownKeys', 'getOwnPropertyDescriptor', 'getPrototypeOf'] as const, { minLength: 1 }).map((traps) => () => new Proxy({}, Object.fromEntries(traps.map((trap) => [trap, thrower])))),
  fc.constant(() => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    return proxy
  }),
  fc.constant(() => ({ then: thrower })),
  fc.constant(() => Object.defineProperty({}, 'then', { get: thrower })),
  fc.constant(() => Object.defineProperty(Promise.resolve(true), 'constructor', { get: thrower })),
  fc.uniqueArray(fc.constantFrom('decision', 'deny', 'tool_input', 'token_hash', 'state', 'length', '0', 'approval_id', 'scope'), { minLength: 1, maxLength: 4 }).map(
    (keys) => () => Object.defineProperties({}, Object.fromEntries(keys.map((key) => [key, { enumerable: true, get: thrower }]))),
  ),
)

/** Any answer: unreadable ones, hostile values, plain JSON, odd scalars, each maybe behind a promise. */
const ANSWER: fc.Arbitrary<() => unknown> = fc
  .tuple(
    fc.oneof(
      { weight: 4, arbitrary: UNREADABLE },
      { weight: 3, arbitrary: hostileInputArbitrary().map((value) => () => value) },
      { weight: 2, arbitrary: fc.jsonValue().map((value) => () => value) },
      { weight: 2, arbitrary: fc.constantFrom<unknown>(undefined, null, true, false, 'yes', 0, 1, NaN, [], {}, 'allow_once', 'ok', { decision: 'allow' }).map((value) => () => value) },
      { weight: 1, arbitrary: fc.constant(thrower) },
    ),
    fc.constantFrom('sync', 'resolved', 'rejected'),
  )
  .map(([make, how]) => () => (how === 'sync' ? make() : how === 'resolved' ? Promise.resolve().then(make) : Promise.reject(new Error('rejected'))))

function registered(error: unknown): boolean {
  return isToolError(error) && Object.prototype.hasOwnProperty.call(ToolErrorCodes, error.code) && (ToolErrorCodes[error.code].reasons as readonly string[]).includes(error.reason)
}

/** A dispatcher whose one `callback` answers `answer()`, with short budgets; counts handler runs. */
function dispatcherWith(callback: Callback, answer: () => unknown, budgetMs: number) {
  const runs = { handler: 0, invalid: 0 }
  const inner = createMemoryApprovalStores()
  const stores: Record<string, object> = { tokens: { ...inner.tokens }, grants: { ...inner.grants }, pending: { ...inner.pending } }
  if (callback.includes('.')) {
    const [store, method] = callback.split('.') as [keyof ApprovalStores, string]
    ;(stores[store] as Record<string, unknown>)[method] = () => answer()
  }
  const tool = defineTool({
    id: 'ops__deploy',
    description: 'd',
    approval: 'required',
    input: Type.Object({ target: Type.String(), note: Type.Optional(Type.String()) }, { additionalProperties: false }),
    output: Type.Object({ target: Type.String() }),
    ...(callback === 'preview' ? { preview: () => answer() as string } : {}),
    handlerTimeoutMs: budgetMs,
    handler: (input) => {
      runs.handler++
      // The input the handler gets is the validated copy: no `undefined` member, no selector.
      if (typeof input.target !== 'string' || Object.values(input as Record<string, unknown>).includes(undefined) || 'result_view' in input) runs.invalid++
      return callback === 'handler' ? (answer() as never) : { target: input.target }
    },
  })
  const dispatcher = createDispatcher({
    tools: [tool],
    hookTimeoutMs: budgetMs,
    ...(callback === 'hook' ? { hooks: { 'tool.pre_call': () => answer() as never } } : {}),
    ...(callback === 'policy' ? { policy: { decide: () => answer() as never } } : {}),
    approvals: {
      ...(stores as unknown as ApprovalStores),
      timeoutMs: budgetMs,
      promptTimeoutMs: budgetMs,
      ...(callback === 'prompt' ? { prompt: () => answer() as never } : {}),
      ...(callback === 'checkOwner' ? { checkOwner: () => answer() as never } : {}),
    },
  })
  return { dispatcher, runs }
}

const UNSETTLED = Symbol('unsettled')

/** What `promise` settles to: `{ value }`, `{ error }`, or UNSETTLED past SETTLE_MS. */
async function settle(promise: Promise<unknown>): Promise<{ value?: unknown; error?: unknown } | typeof UNSETTLED> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<typeof UNSETTLED>((resolve) => (timer = setTimeout(() => resolve(UNSETTLED), SETTLE_MS)))
  try {
    return await Promise.race([promise.then((value) => ({ value }), (error: unknown) => ({ error })), late])
  } finally {
    clearTimeout(timer)
  }
}

interface Tally {
  cases: number
  uncaught: number
  unsettled: number
  unregistered: number
  unapprovedRuns: number
  invalidInputRuns: number
}

/** Runs one case: an invoke (pending or prompted), then every management call. */
async function runCase(callback: Callback, answer: () => unknown, budgetMs: number, input: unknown, tally: Tally): Promise<void> {
  tally.cases++
  const { dispatcher, runs } = dispatcherWith(callback, answer, budgetMs)
  const api = dispatcher.approvals
  const judge = (settled: Awaited<ReturnType<typeof settle>>, isInvoke: boolean): void => {
    if (settled === UNSETTLED) return void tally.unsettled++
    if ('error' in settled) {
      if (isInvoke) tally.uncaught++
      else if (!registered(settled.error)) tally.unregistered++
      return
    }
    if (isInvoke) {
      const outcome = settled.value as InvokeOutcome
      if (outcome.status === 'error' && !registered(outcome.error)) tally.unregistered++
    }
  }
  const first = await settle(dispatcher.invoke({ tool_id: 'ops__deploy', input, scope: SCOPE }))
  judge(first, true)
  // Without a prompt the call waits on a pending approval: the handler must not have run. A policy
  // may allow the call outright (its answer read as `{ decision: 'allow' }`), so it is exempt.
  if (callback !== 'prompt' && callback !== 'policy' && runs.handler > 0) tally.unapprovedRuns++
  const id = first !== UNSETTLED && 'value' in first && (first.value as InvokeOutcome).status === 'approval_pending' ? (first.value as { approval_id: string }).approval_id : 'missing'
  const ran = runs.handler
  for (const call of [
    () => api.show(id, { profile_id: 'p' }),
    () => api.resolve(id, { profile_id: 'p', decision: 'approved' }),
    () => api.cancel(id, { profile_id: 'p' }),
    () => api.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' } }),
    () => api.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' }),
    () => api.listGrants({ workspace_id: 'ws-1' }),
    () => api.revokeGrant({ workspace_id: 'ws-1', grant_id: 'g' }),
    () => dispatcher.describe('ops__deploy', SCOPE) as Promise<unknown>,
  ]) {
    judge(await settle(Promise.resolve().then(call)), false)
  }
  // resolve runs the approved call at most once.
  if (runs.handler - ran > 1) tally.unapprovedRuns++
  tally.invalidInputRuns += runs.invalid
}

/** An input for the deploy tool, maybe with `undefined`-valued members (absent in invoke). */
const INPUT = fc.oneof(
  fc.constant<unknown>({ target: 'prod' }),
  fc.constant<unknown>({ target: 'prod', note: undefined }),
  fc.constant<unknown>({ target: 'prod', result_view: undefined }),
  fc.record({ target: fc.constantFrom('prod', undefined), note: fc.option(fc.string(), { nil: undefined }) }),
)

function report(name: string, tally: Tally, started: number): void {
  console.log(
    `fuzz ${name}: ${tally.cases} cases in ${((performance.now() - started) / 1000).toFixed(1)} s, ${tally.uncaught} uncaught, ${tally.unsettled} unsettled, ${tally.unregistered} unregistered, ${tally.unapprovedRuns} unapproved handler runs, ${tally.invalidInputRuns} handler runs on invalid input`,
  )
}

describe(`host callbacks answering hostile values (${RUNS} cases)`, () => {
  it('invoke and every management call settle with registered outcomes; no unapproved run; Object.prototype unchanged', { timeout: 3_600_000 }, async () => {
    const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort()
    const tally: Tally = { cases: 0, uncaught: 0, unsettled: 0, unregistered: 0, unapprovedRuns: 0, invalidInputRuns: 0 }
    const started = performance.now()
    // Each case runs nine calls: a tenth of the runs keeps the figure comparable in time.
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CALLBACKS), ANSWER, INPUT, async (callback, answer, input) => {
        const before = { ...tally }
        await runCase(callback, answer, 1_000, input, tally)
        expect({ ...tally, cases: before.cases }).toEqual({ ...before })
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
      }),
      { numRuns: Math.max(100, RUNS / 10) },
    )
    report('hostile answers', tally, started)
    expect(tally).toEqual({ cases: tally.cases, uncaught: 0, unsettled: 0, unregistered: 0, unapprovedRuns: 0, invalidInputRuns: 0 })
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys)
  })

  it('hung and late callbacks settle within their budgets', { timeout: 3_600_000 }, async () => {
    const tally: Tally = { cases: 0, uncaught: 0, unsettled: 0, unregistered: 0, unapprovedRuns: 0, invalidInputRuns: 0 }
    const started = performance.now()
    const hung = fc.constantFrom<() => unknown>(
      () => new Promise(() => undefined),
      () => ({ then: () => undefined }),
      () => new Promise((resolve) => setTimeout(() => resolve(true), 30)),
    )
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CALLBACKS), hung, INPUT, async (callback, answer, input) => {
        const before = { ...tally }
        await runCase(callback, answer, 5, input, tally)
        expect({ ...tally, cases: before.cases }).toEqual({ ...before })
      }),
      { numRuns: HUNG_RUNS },
    )
    report('hung answers', tally, started)
    expect(tally).toEqual({ cases: tally.cases, uncaught: 0, unsettled: 0, unregistered: 0, unapprovedRuns: 0, invalidInputRuns: 0 })
  })
})
