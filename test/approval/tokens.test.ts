import { createHash } from 'node:crypto'
import Type from 'typebox'
import { describe, expect, it, vi } from 'vitest'
import { createDispatcher, createMemoryApprovalStores, createPatternPolicy, defineTool, inputDigest, type ApprovalTokenRecord, type CallScope } from 'result-views'
import { SCOPE, codeOf, deployTool, errorOf, extensionTool, manualClock, recordingStores, rejectionOf, statusTool } from './fixtures.js'

const crypto = vi.hoisted(() => ({ timingSafeEqualCalls: 0 }))
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>()
  return {
    ...actual,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      crypto.timingSafeEqualCalls++
      return actual.timingSafeEqual(a, b)
    },
  }
})

function setup(options: { prompt?: () => 'allow_once'; clock?: ReturnType<typeof manualClock> } = {}) {
  const calls: unknown[] = []
  const ext: unknown[] = []
  const recorded = recordingStores()
  const prompt = vi.fn(options.prompt ?? (() => 'allow_once' as const))
  const dispatcher = createDispatcher({
    tools: [deployTool(calls), statusTool(), extensionTool(ext)],
    approvals: { ...recorded.stores, ...(options.prompt ? { prompt } : {}), ...(options.clock ? { now: options.clock.now } : {}) },
  })
  const mint = (over: { tool_id?: string; scope?: CallScope; input?: unknown; input_digest?: string; ttlMs?: number } = {}) =>
    dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, ...(over.input_digest ? {} : { input: { target: 'prod' } }), ttlMs: 60_000, ...over })
  const deploy = (token: string | undefined, input: unknown = { target: 'prod' }, scope: CallScope = SCOPE) =>
    dispatcher.invoke({ tool_id: 'ops__deploy', input, scope, ...(token === undefined ? {} : { approval_token: token }) })
  return { dispatcher, calls, ext, recorded, prompt, mint, deploy }
}

describe('mintApprovalToken', () => {
  it('returns 32 random bytes as base64url and an ISO expiry ttlMs ahead', async () => {
    const clock = manualClock()
    const { mint } = setup({ clock })
    const minted = await mint({ ttlMs: 90_000 })
    expect(minted.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(minted.token, 'base64url')).toHaveLength(32)
    expect(minted.expires_at).toBe(new Date(clock.now() + 90_000).toISOString())
    expect((await mint()).token).not.toBe(minted.token)
  })

  it('stores only the SHA-256 hash of the token, bound to tool, workspace, session, agent and input digest', async () => {
    const { mint, recorded } = setup()
    const { token } = await mint()
    const inserted = recorded.seen.find((args) => Array.isArray(args) && (args[0] as ApprovalTokenRecord)?.token_hash !== undefined) as [ApprovalTokenRecord]
    expect(inserted[0]).toEqual({
      token_hash: createHash('sha256').update(token).digest('hex'),
      tool_id: 'ops__deploy',
      workspace_id: 'ws-1',
      session_id: 'sess-1',
      agent_name: 'reviewer',
      input_digest: inputDigest({ target: 'prod' }),
      created_at: expect.any(String),
      expires_at: expect.any(String),
    })
    expect(JSON.stringify(recorded.seen)).not.toContain(token)
  })

  it('rejects bad arguments with typed errors', async () => {
    const { dispatcher } = setup()
    const mint = (request: unknown) => dispatcher.approvals.mintApprovalToken(request as never)
    expect(await rejectionOf(mint({ tool_id: 'nope__tool', input: {} }))).toEqual(['tool_not_found', 'unknown_tool'])
    expect(await rejectionOf(mint({ tool_id: 'ops__deploy' }))).toEqual(['approval_request_invalid', 'field_invalid'])
    expect(await rejectionOf(mint({ tool_id: 'ops__deploy', input: {}, input_digest: inputDigest({}) }))).toEqual(['approval_request_invalid', 'field_invalid'])
    expect(await rejectionOf(mint({ tool_id: 'ops__deploy', input_digest: 'sha256:xyz' }))).toEqual(['approval_request_invalid', 'field_invalid'])
    expect(await rejectionOf(mint({ tool_id: 'ops__deploy', input: { at: new Date() } }))).toEqual(['approval_request_invalid', 'field_invalid'])
    for (const ttlMs of [0, -1, 1.5, Number.NaN, '60000']) {
      expect(await rejectionOf(mint({ tool_id: 'ops__deploy', input: {}, ttlMs }))).toEqual(['approval_request_invalid', 'field_invalid'])
    }
    expect(await rejectionOf(mint({ tool_id: 'ops__deploy', input: {}, scope: { workspace_id: 3 } }))).toEqual(['approval_request_invalid', 'field_invalid'])
    expect(await rejectionOf(mint({ tool_id: 'ops__deploy', input: {}, extra: true }))).toEqual(['approval_request_invalid', 'field_invalid'])
  })
})

describe('a supplied approval token (spec 001: checked first, and final)', () => {
  it('authorises exactly one call', async () => {
    const { mint, deploy, calls, prompt } = setup({ prompt: () => 'allow_once' })
    const { token } = await mint()
    expect(await deploy(token)).toMatchObject({ status: 'ok', result: { structured: { target: 'prod' } } })
    expect(calls).toEqual([{ target: 'prod' }])
    expect(prompt).not.toHaveBeenCalled()
  })

  it('refuses a replay with approval_invalid / token_replayed and never falls through to the prompt', async () => {
    const { mint, deploy, calls, prompt } = setup({ prompt: () => 'allow_once' })
    const { token } = await mint()
    await deploy(token)
    expect(codeOf(await deploy(token))).toEqual(['approval_invalid', 'token_replayed'])
    expect(calls).toHaveLength(1)
    expect(prompt).not.toHaveBeenCalled()
  })

  it('refuses an expired token with token_expired', async () => {
    const clock = manualClock()
    const { mint, deploy, calls } = setup({ clock })
    const { token, expires_at } = await mint({ ttlMs: 1_000 })
    clock.advance(1_000)
    const error = errorOf(await deploy(token))
    expect([error.code, error.reason, error.details]).toEqual(['approval_invalid', 'token_expired', { expires_at }])
    expect(calls).toEqual([])
  })

  it('refuses an unknown token with token_unknown, and never opens a pending approval', async () => {
    const { deploy, calls, recorded } = setup()
    expect(codeOf(await deploy('A'.repeat(43)))).toEqual(['approval_invalid', 'token_unknown'])
    expect(codeOf(await deploy(''))).toEqual(['approval_invalid', 'token_unknown'])
    expect(calls).toEqual([])
    expect(recorded.calls.filter((c) => c.startsWith('pending.'))).toEqual([])
  })

  it.each([
    ['another tool', { tool_id: 'ops__status', input: { target: 'prod' } }, ['tool']],
    ['another workspace', { scope: { ...SCOPE, workspace_id: 'ws-2' } }, ['workspace']],
    ['another session', { scope: { ...SCOPE, session_id: 'sess-2' } }, ['session']],
    ['another agent', { scope: { ...SCOPE, agent_name: 'builder' } }, ['agent']],
    ['no agent', { scope: { workspace_id: 'ws-1', session_id: 'sess-1', profile_id: 'prof-owner' } }, ['agent']],
    ['another input', { input: { target: 'staging' } }, ['input']],
  ] as const)('refuses a token minted for %s with token_mismatch, and keeps it usable for its own call', async (_name, over, mismatch) => {
    const { dispatcher, mint, deploy, calls } = setup()
    const minted = { tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE, ...over } as { tool_id: string; input: unknown; scope: CallScope }
    const { token } = await mint(minted)
    const error = errorOf(await deploy(token))
    expect([error.code, error.reason, error.details]).toEqual(['approval_invalid', 'token_mismatch', { mismatch }])
    expect(calls).toEqual([])
    expect((await dispatcher.invoke({ ...minted, approval_token: token })).status).toBe('ok')
  })

  it('does not bind the profile: another profile of the same session may use it', async () => {
    const { mint, deploy } = setup()
    const { token } = await mint()
    expect((await deploy(token, { target: 'prod' }, { ...SCOPE, profile_id: 'prof-other' })).status).toBe('ok')
  })

  it('serves the same call with result_view added (minted from the input without it)', async () => {
    for (const view of ['full', 'compact'] as const) {
      const { mint, deploy, calls } = setup()
      const { token } = await mint({ input: { target: 'prod' } })
      expect(await deploy(token, { target: 'prod', result_view: view })).toMatchObject({ status: 'ok', result_view: view })
      expect(calls).toEqual([{ target: 'prod' }])
    }
  })

  it('matches a token minted from the input digest, computed without result_view, in any key order', async () => {
    const { mint, deploy } = setup()
    const { token } = await mint({ input_digest: inputDigest({ note: 'n', target: 'prod' }) })
    expect((await deploy(token, { target: 'prod', result_view: 'full', note: 'n' })).status).toBe('ok')
  })

  it("keeps an extension tool's own result_view in the binding", async () => {
    const { dispatcher, ext } = setup()
    const { token } = await dispatcher.approvals.mintApprovalToken({ tool_id: 'ext__render', scope: SCOPE, input: { result_view: 1 } })
    expect(codeOf(await dispatcher.invoke({ tool_id: 'ext__render', input: { result_view: 2 }, scope: SCOPE, approval_token: token }))).toEqual(['approval_invalid', 'token_mismatch'])
    expect((await dispatcher.invoke({ tool_id: 'ext__render', input: { result_view: 1 }, scope: SCOPE, approval_token: token })).status).toBe('ok')
    expect(ext).toEqual([{ result_view: 1 }])
  })

  it('is checked even where the policy needs no approval', async () => {
    const { dispatcher } = setup()
    expect(codeOf(await dispatcher.invoke({ tool_id: 'ops__status', input: { target: 'prod' }, scope: SCOPE, approval_token: 'forged' }))).toEqual(['approval_invalid', 'token_unknown'])
  })

  it('never turns a policy deny into an allow, and is not consumed by the denied call', async () => {
    const stores = createMemoryApprovalStores()
    const calls: unknown[] = []
    let deny = true
    const dispatcher = createDispatcher({
      tools: [deployTool(calls)],
      policy: { decide: () => (deny ? { decision: 'deny', reason: 'frozen' } : { decision: 'approval_required' }) },
      approvals: stores,
    })
    const { token } = await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' } })
    expect(codeOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE, approval_token: token }))).toEqual(['tool_denied', 'policy_denied'])
    deny = false
    expect((await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE, approval_token: token })).status).toBe('ok')
    expect(calls).toHaveLength(1)
  })

  it('is compared in constant time (crypto.timingSafeEqual)', async () => {
    const { mint, deploy } = setup()
    const { token } = await mint()
    const before = crypto.timingSafeEqualCalls
    await deploy(token)
    expect(crypto.timingSafeEqualCalls).toBeGreaterThan(before)
  })

  it('is refused when the store answers with a record of another hash (a store that matches loosely)', async () => {
    const inner = createMemoryApprovalStores()
    const calls: unknown[] = []
    let first: ApprovalTokenRecord | undefined
    const dispatcher = createDispatcher({
      tools: [deployTool(calls)],
      approvals: {
        ...inner,
        tokens: {
          insert: (record) => void (first ??= record),
          get: () => first,
          consume: () => true,
        },
      },
    })
    await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' } })
    expect(codeOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE, approval_token: 'B'.repeat(43) }))).toEqual(['approval_invalid', 'token_unknown'])
    expect(calls).toEqual([])
  })

  it('of 50 concurrent calls with one token, exactly one runs', async () => {
    const { mint, deploy, calls } = setup()
    const { token } = await mint()
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => deploy(token)))
    expect(outcomes.filter((o) => o.status === 'ok')).toHaveLength(1)
    expect(outcomes.filter((o) => o.status === 'error').map((o) => codeOf(o)[1])).toEqual(Array(49).fill('token_replayed'))
    expect(calls).toHaveLength(1)
  })

  it('purges records expired for more than an hour when minting', async () => {
    const clock = manualClock()
    const { mint, deploy } = setup({ clock })
    const old = await mint({ ttlMs: 1_000 })
    clock.advance(1_000)
    expect(codeOf(await deploy(old.token))).toEqual(['approval_invalid', 'token_expired'])
    clock.advance(60 * 60_000 + 1)
    await mint()
    expect(codeOf(await deploy(old.token))).toEqual(['approval_invalid', 'token_unknown'])
  })
})

describe('the dispatcher clock', () => {
  it('drives token expiry (createDispatcher({ clock }))', async () => {
    let now = Date.parse('2026-11-10T14:00:00Z')
    const tool = defineTool({ id: 'c2', description: 'd', approval: 'required', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })
    const dispatcher = createDispatcher({ tools: [tool], clock: () => now })
    const { token, expires_at } = await dispatcher.approvals.mintApprovalToken({ tool_id: 'c2', input: {}, ttlMs: 1000 })
    expect(expires_at).toBe('2026-11-10T14:00:01.000Z')
    now += 2000
    expect(errorOf(await dispatcher.invoke({ tool_id: 'c2', input: {}, approval_token: token })).reason).toBe('token_expired')
  })
})
