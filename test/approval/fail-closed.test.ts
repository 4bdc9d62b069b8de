import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, type ApprovalStores, type InvokeOutcome, type PolicyDecision } from 'result-views'
import { SCOPE, approvalIdOf, codeOf, deployTool, rejectionOf } from './fixtures.js'

type Mode = 'throw' | 'reject' | 'hang'
const TIMEOUT_MS = 15

/** Memory stores where the named methods fail in the given way; records which failing methods were hit. */
function failingStores(failing: Partial<Record<string, Mode>>) {
  const inner = createMemoryApprovalStores()
  const hit: string[] = []
  const wrap = <T extends object>(name: string, store: T): T =>
    new Proxy(store, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown
        const mode = failing[`${name}.${String(key)}`]
        if (typeof value !== 'function' || mode === undefined) return value
        return () => {
          hit.push(`${name}.${String(key)}`)
          if (mode === 'throw') throw new Error('store down')
          if (mode === 'reject') return Promise.reject(new Error('store down'))
          return new Promise(() => {})
        }
      },
    })
  const stores: ApprovalStores = { tokens: wrap('tokens', inner.tokens), grants: wrap('grants', inner.grants), pending: wrap('pending', inner.pending) }
  return { stores, inner, hit }
}

const METHODS = ['tokens.get', 'tokens.consume', 'tokens.insert', 'tokens.deleteExpired', 'grants.get', 'grants.put', 'pending.insert', 'pending.get', 'pending.update']

describe('fail closed: a failing store never lets a call that needs approval run', () => {
  it.each([
    ['tokens.get', 'throw', 'store_failed'],
    ['tokens.get', 'reject', 'store_failed'],
    ['tokens.get', 'hang', 'store_timeout'],
    ['tokens.consume', 'throw', 'store_failed'],
    ['tokens.consume', 'hang', 'store_timeout'],
  ] as const)('a supplied token with %s that %ss → approval_unavailable / %s', async (method, mode, reason) => {
    const calls: unknown[] = []
    const { stores, inner } = failingStores({ [method]: mode })
    const minting = createDispatcher({ tools: [deployTool()], approvals: inner })
    const { token } = await minting.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' } })
    const dispatcher = createDispatcher({ tools: [deployTool(calls)], approvals: { ...stores, timeoutMs: TIMEOUT_MS } })
    const outcome = await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE, approval_token: token })
    expect(codeOf(outcome)).toEqual(['approval_unavailable', reason])
    expect(outcome.status === 'error' && outcome.error.details).toMatchObject({ store: 'tokens', operation: method.split('.')[1] })
    expect(calls).toEqual([])
  })

  it.each(['throw', 'reject', 'hang'] as const)('the grant store that %ss → approval_unavailable, no prompt, no pending approval', async (mode) => {
    const calls: unknown[] = []
    let prompted = false
    const { stores } = failingStores({ 'grants.get': mode })
    const dispatcher = createDispatcher({ tools: [deployTool(calls)], approvals: { ...stores, timeoutMs: TIMEOUT_MS, prompt: () => ((prompted = true), 'allow_once') } })
    expect(codeOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE }))[0]).toBe('approval_unavailable')
    expect([calls, prompted]).toEqual([[], false])
  })

  it.each(['throw', 'reject', 'hang'] as const)('the pending store that %ss on insert → approval_unavailable', async (mode) => {
    const { stores } = failingStores({ 'pending.insert': mode })
    const dispatcher = createDispatcher({ tools: [deployTool()], approvals: { ...stores, timeoutMs: TIMEOUT_MS } })
    expect(codeOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE }))[0]).toBe('approval_unavailable')
  })

  it('a token store whose consume() answers "yes" is a failing store (approval_unavailable / store_failed), not a replay', async () => {
    const calls: unknown[] = []
    const inner = createMemoryApprovalStores()
    const dispatcher = createDispatcher({ tools: [deployTool(calls)], approvals: { ...inner, tokens: { ...inner.tokens, consume: () => 'yes' as never } } })
    const { token } = await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' } })
    expect(codeOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE, approval_token: token }))).toEqual(['approval_unavailable', 'store_failed'])
    expect(calls).toEqual([])
  })

  it('property: whenever a consulted store method fails, the call fails with approval_unavailable and the tool never runs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom(...METHODS), fc.constantFrom<Mode>('throw', 'reject', 'hang'), { maxKeys: 3 }),
        fc.constantFrom('token', 'grant', 'prompt_always', 'pending'),
        async (failing, scenario) => {
          const calls: unknown[] = []
          const { stores, inner, hit } = failingStores(failing)
          const setupDispatcher = createDispatcher({ tools: [deployTool()], approvals: inner })
          const token = scenario === 'token' ? (await setupDispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' } })).token : undefined
          if (scenario === 'grant') await setupDispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' })
          const dispatcher = createDispatcher({
            tools: [deployTool(calls)],
            approvals: { ...stores, timeoutMs: TIMEOUT_MS, ...(scenario === 'prompt_always' ? { prompt: () => 'allow_always' as const } : {}) },
          })
          const outcome: InvokeOutcome = await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE, ...(token ? { approval_token: token } : {}) })
          if (hit.length > 0) {
            expect(codeOf(outcome)[0]).toBe('approval_unavailable')
            expect(calls).toEqual([])
          } else {
            expect(outcome.status).toBe(scenario === 'pending' ? 'approval_pending' : 'ok')
          }
        },
      ),
      { numRuns: 60 },
    )
  })

  it('management calls reject with approval_unavailable when their store fails', async () => {
    const { stores } = failingStores({ 'tokens.insert': 'throw', 'grants.put': 'reject', 'grants.list': 'hang', 'grants.delete': 'throw', 'pending.get': 'hang' })
    const dispatcher = createDispatcher({ tools: [deployTool()], approvals: { ...stores, timeoutMs: TIMEOUT_MS } })
    const api = dispatcher.approvals
    expect((await rejectionOf(api.mintApprovalToken({ tool_id: 'ops__deploy', input: {} })))[0]).toBe('approval_unavailable')
    expect((await rejectionOf(api.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' })))[0]).toBe('approval_unavailable')
    expect(await rejectionOf(api.listGrants({ workspace_id: 'ws-1' }))).toEqual(['approval_unavailable', 'store_timeout'])
    expect(await rejectionOf(api.revokeGrant({ workspace_id: 'ws-1', grant_id: 'g' }))).toEqual(['approval_unavailable', 'store_failed'])
    expect(await rejectionOf(api.show('a', { profile_id: 'p' }))).toEqual(['approval_unavailable', 'store_timeout'])
  })

  it('a failing purge of expired tokens is logged and does not fail the mint', async () => {
    const { stores } = failingStores({ 'tokens.deleteExpired': 'throw' })
    const warnings: string[] = []
    const logger = { debug() {}, info() {}, error() {}, warn: (fields: Record<string, unknown>) => void warnings.push(String(fields.event)) }
    const dispatcher = createDispatcher({ tools: [deployTool()], approvals: stores, logger })
    expect((await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', input: {} })).token).toMatch(/^[\w-]{43}$/)
    expect(warnings).toEqual(['approval.token_purge_failed'])
  })

  it('the outcome of an approved call that cannot be recorded is still returned, and logged', async () => {
    const inner = createMemoryApprovalStores()
    let updates = 0
    const errors: string[] = []
    const dispatcher = createDispatcher({
      tools: [deployTool()],
      logger: { debug() {}, info() {}, warn() {}, error: (fields: Record<string, unknown>) => void errors.push(String(fields.event)) },
      approvals: { ...inner, pending: { ...inner.pending, update: (id, from, next) => (++updates === 2 ? Promise.reject(new Error('disk full')) : inner.pending.update(id, from, next)) } },
    })
    const id = approvalIdOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE }))
    expect((await dispatcher.approvals.resolve(id, { profile_id: SCOPE.profile_id, decision: 'approved' })).execution_status).toBe('completed')
    expect(errors).toContain('approval.outcome_not_recorded')
  })
})

describe('fail closed: a failing policy denies', () => {
  it.each([
    ['throws', () => { throw new Error('policy db down') }, 'threw'],
    ['rejects', () => Promise.reject(new Error('policy db down')), 'threw'],
    ['hangs', () => new Promise<PolicyDecision>(() => {}), 'timeout'],
    ['returns nothing', () => undefined as never, 'invalid_decision'],
    ['returns a deny without reason', () => ({ decision: 'deny' }) as never, 'invalid_decision'],
    ['returns a made-up decision', () => ({ decision: 'allow_all' }) as never, 'invalid_decision'],
  ] as const)('a policy that %s → tool_denied / policy_failed', async (_name, decide, problem) => {
    const calls: unknown[] = []
    const dispatcher = createDispatcher({ tools: [deployTool(calls)], policy: { decide }, approvals: { timeoutMs: TIMEOUT_MS, prompt: () => 'allow_once' } })
    const outcome = await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE })
    expect(codeOf(outcome)).toEqual(['tool_denied', 'policy_failed'])
    expect(outcome.status === 'error' && outcome.error.details).toEqual({ problem })
    expect(calls).toEqual([])
  })
})

describe('fail closed: a store or host callback whose answer cannot be read', () => {
  const trap = (): never => {
    throw new Error('trap')
  }
  /** An answer every property read of which throws, `then` included. */
  const hostile = () => new Proxy({}, { get: trap, getPrototypeOf: trap, ownKeys: trap })

  it.each([
    ['tokens.get', 'token'],
    ['grants.get', 'grant'],
  ] as const)('fails the call closed when %s answers a Proxy whose traps throw, never rejecting invoke', async (method, path) => {
    const inner = createMemoryApprovalStores()
    const [store, name] = method.split('.') as ['tokens' | 'grants', 'get']
    const stores = { ...inner, [store]: { ...inner[store], [name]: () => hostile() } } as ApprovalStores
    const dispatcher = createDispatcher({ tools: [deployTool()], approvals: stores })
    const minted = path === 'token' ? (await createDispatcher({ tools: [deployTool()], approvals: inner }).approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' } })).token : undefined
    const outcome = await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE, ...(minted === undefined ? {} : { approval_token: minted }) })
    expect(outcome).toMatchObject({ status: 'error', error: { code: 'approval_unavailable', reason: 'store_failed', details: { store, operation: 'get' } } })
  })

  it('rejects management calls with store_failed when a store answers a getter that throws or a sparse list', async () => {
    const inner = createMemoryApprovalStores()
    const sparse: unknown[] = []
    sparse.length = 2 ** 32 - 1
    const unreadable = Object.defineProperty({}, 'approval_id', { enumerable: true, get: trap })
    const stores: ApprovalStores = { ...inner, grants: { ...inner.grants, list: () => sparse as never }, pending: { ...inner.pending, get: () => unreadable as never } }
    const dispatcher = createDispatcher({ tools: [deployTool()], approvals: stores })
    expect(await rejectionOf(dispatcher.approvals.listGrants({ workspace_id: 'ws-1' }))).toEqual(['approval_unavailable', 'store_failed'])
    expect(await rejectionOf(dispatcher.approvals.show('a-1', { profile_id: 'prof-owner' }))).toEqual(['approval_unavailable', 'store_failed'])
  })

  it('fails the call closed when a policy, a prompt or a pre-call hook answers such a Proxy; an observer that does is logged', async () => {
    const approvalTool = deployTool()
    const viaPolicy = createDispatcher({ tools: [approvalTool], policy: { decide: () => hostile() as never } })
    expect(codeOf(await viaPolicy.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE }))).toEqual(['tool_denied', 'policy_failed'])
    const viaPrompt = createDispatcher({ tools: [approvalTool], approvals: { prompt: () => hostile() as never } })
    expect(await viaPrompt.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE })).toMatchObject({ error: { code: 'approval_unavailable', reason: 'prompt_failed' } })
    const viaHook = createDispatcher({ tools: [approvalTool], hooks: { 'tool.pre_call': () => hostile() as never } })
    expect(await viaHook.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE })).toMatchObject({ error: { code: 'tool_hook_failed', reason: 'hook_threw' } })
    const logged: unknown[] = []
    const logger = { debug() {}, info() {}, warn() {}, error: (fields: unknown) => void logged.push(fields) }
    const viaObserver = createDispatcher({ tools: [approvalTool], policy: { decide: () => ({ decision: 'allow' }) }, logger, hooks: { 'tool.post_call': () => hostile() as never } })
    expect((await viaObserver.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE })).status).toBe('ok')
    expect(logged).toEqual([expect.objectContaining({ event: 'tool.post_call', timed_out: false })])
  })

  it('reads a policy decision inside the guard: a decision whose getter throws is invalid_decision', async () => {
    const decision = Object.defineProperty({}, 'decision', { enumerable: true, get: trap })
    const dispatcher = createDispatcher({ tools: [deployTool()], policy: { decide: () => decision as never } })
    expect(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE })).toMatchObject({
      error: { code: 'tool_denied', reason: 'policy_failed', details: { problem: 'invalid_decision' } },
    })
  })
})
