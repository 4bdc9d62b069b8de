// Host answers that throw when read: every host callback's answer is read inside the guard that
// types its failure, and the management calls reject only with registered ToolErrors.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { ApprovalConfigError, createDispatcher, createMemoryApprovalStores, defineTool, isToolError, ToolErrorCodes, type ApprovalStores } from 'result-views'
import { SCOPE, approvalIdOf, codeOf, deployTool, rejectionOf } from './fixtures.js'

const OWNER = { profile_id: 'prof-owner' }

/** Every way an answer can throw when it is read. */
const UNREADABLE: Record<string, () => unknown> = {
  'a Proxy whose get throws': () =>
    new Proxy(
      {},
      {
        get() {
          throw 1
        },
      },
    ),
  'a Proxy whose every trap throws': () =>
    new Proxy(
      {},
      {
        get() {
          throw 1
        },
        has() {
          throw 1
        },
        ownKeys() {
          throw 1
        },
        getOwnPropertyDescriptor() {
          throw 1
        },
        getPrototypeOf() {
          throw 1
        },
      },
    ),
  'a revoked Proxy': () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    return proxy
  },
  'a thenable whose then throws': () => ({
    then() {
      throw 1
    },
  }),
  'a thenable whose then is a throwing getter': () =>
    Object.defineProperty({}, 'then', {
      get() {
        throw 1
      },
    }),
  'an object with throwing getters': () => {
    const answer = {}
    // The fields each callback's answer is read by: a policy's `decision`, a hook's `deny` and `tool_input`.
    for (const key of ['decision', 'deny', 'tool_input']) {
      Object.defineProperty(answer, key, {
        enumerable: true,
        get() {
          throw 1
        },
      })
    }
    return answer
  },
}
const CASES = Object.entries(UNREADABLE)

function registered(error: unknown): boolean {
  return isToolError(error) && Object.prototype.hasOwnProperty.call(ToolErrorCodes, error.code) && (ToolErrorCodes[error.code].reasons as readonly string[]).includes(error.reason)
}

describe('host answers that throw when read become the documented typed error', () => {
  it.each(CASES)('a pre_call hook returning %s → tool_hook_failed / hook_threw', async (_name, answer) => {
    const calls: unknown[] = []
    const dispatcher = createDispatcher({ tools: [deployTool(calls)], hooks: { 'tool.pre_call': () => answer() as never }, approvals: { prompt: () => 'allow_once' } })
    expect(codeOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE }))).toEqual(['tool_hook_failed', 'hook_threw'])
    expect(calls).toEqual([])
  })

  it.each(CASES)('a policy decide returning %s → tool_denied / policy_failed', async (_name, answer) => {
    const calls: unknown[] = []
    const dispatcher = createDispatcher({ tools: [deployTool(calls)], policy: { decide: () => answer() as never } })
    expect(codeOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE }))).toEqual(['tool_denied', 'policy_failed'])
    expect(calls).toEqual([])
  })

  it.each(CASES)('a prompt returning %s → approval_unavailable / prompt_failed', async (_name, answer) => {
    const calls: unknown[] = []
    const dispatcher = createDispatcher({ tools: [deployTool(calls)], approvals: { prompt: () => answer() as never } })
    expect(codeOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE }))).toEqual(['approval_unavailable', 'prompt_failed'])
    expect(calls).toEqual([])
  })

  it.each(CASES)('a checkOwner returning %s → resolve rejects with approval_unavailable / owner_check_failed', async (_name, answer) => {
    const calls: unknown[] = []
    const dispatcher = createDispatcher({ tools: [deployTool(calls)], approvals: { checkOwner: () => answer() as never } })
    const id = approvalIdOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE }))
    expect(await rejectionOf(dispatcher.approvals.resolve(id, { ...OWNER, decision: 'approved' }))).toEqual(['approval_unavailable', 'owner_check_failed'])
    expect(calls).toEqual([])
  })

  it.each(CASES)("a tool's preview returning %s → the default preview of the record, not a rejection", async (_name, answer) => {
    const tool = defineTool({ id: 'p', description: 'd', input: Type.Object({}), output: Type.Object({ n: Type.Number() }), preview: () => answer() as never, handler: () => ({ n: 1 }) })
    const outcome = await createDispatcher({ tools: [tool] }).invoke({ tool_id: 'p', input: {} })
    expect(outcome).toMatchObject({ status: 'ok', result: { structured: { n: 1 }, preview: '{"n":1}' } })
  })

  it("a tool's preview returning a rejected promise: the default preview, and no unhandled rejection", async () => {
    const unhandled: unknown[] = []
    const listener = (reason: unknown) => void unhandled.push(reason)
    process.on('unhandledRejection', listener)
    try {
      const tool = defineTool({ id: 'p', description: 'd', input: Type.Object({}), output: Type.Object({ n: Type.Number() }), preview: () => Promise.reject(new Error('late label')) as never, handler: () => ({ n: 1 }) })
      const outcome = await createDispatcher({ tools: [tool] }).invoke({ tool_id: 'p', input: {} })
      expect(outcome).toMatchObject({ status: 'ok', result: { preview: '{"n":1}' } })
      await new Promise((resolve) => setTimeout(resolve, 10))
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', listener)
    }
  })

  it.each(CASES)('a handler returning %s → tool_output_invalid (a bad record), not handler_failed', async (name, answer) => {
    const tool = defineTool({ id: 'h', description: 'd', input: Type.Object({}), output: Type.Object({}), handler: () => answer() as never })
    const [code] = codeOf(await createDispatcher({ tools: [tool] }).invoke({ tool_id: 'h', input: {} }))
    // A thenable whose `then` throws when called is a promise that rejects: the handler failed.
    expect(code).toBe(name === 'a thenable whose then throws' ? 'tool_execution_failed' : 'tool_output_invalid')
  })
})

/** Memory stores with one method replaced by one that answers `answer()`. */
function storesAnswering(method: string, answer: () => unknown): ApprovalStores {
  const inner = createMemoryApprovalStores()
  const [store, name] = method.split('.') as [keyof ApprovalStores, string]
  return { ...inner, [store]: Object.assign(Object.create(null), inner[store], { [name]: () => answer() }) } as ApprovalStores
}

describe('store answers that throw when read', () => {
  const STORE_CASES = CASES.flatMap(([name, answer]) => ['tokens.get', 'tokens.consume', 'grants.get', 'grants.list', 'pending.insert', 'pending.get', 'pending.update'].map((method) => [method, name, answer] as const))

  it.each(STORE_CASES)('%s answering %s: invoke and every management call settle with a registered ToolError, never a TypeError', async (method, _name, answer) => {
    const calls: unknown[] = []
    const dispatcher = createDispatcher({ tools: [deployTool(calls)], approvals: storesAnswering(method, answer) })
    const api = dispatcher.approvals
    const settled = async (promise: Promise<unknown>) => {
      try {
        return await promise
      } catch (error) {
        expect(registered(error), `${method}: ${String(error)}`).toBe(true)
        return error
      }
    }
    const outcome = await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE })
    if (outcome.status === 'error') expect(registered(outcome.error)).toBe(true)
    await settled(api.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' } }))
    await settled(api.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', decision: 'allow', scope: 'tool' }))
    await settled(api.listGrants({ workspace_id: 'ws-1' }))
    await settled(api.revokeGrant({ workspace_id: 'ws-1', grant_id: 'g-1' }))
    await settled(dispatcher.describe('ops__deploy', SCOPE) as Promise<unknown>)
    const id = outcome.status === 'approval_pending' ? outcome.approval_id : 'missing'
    await settled(api.show(id, OWNER))
    await settled(api.resolve(id, { ...OWNER, decision: 'approved' }))
    await settled(api.cancel(id, OWNER))
    // At most the one run the owner approved through resolve.
    expect(calls.length).toBeLessThanOrEqual(1)
  })

  it('grants.list returning a non-array: listGrants rejects with approval_unavailable / store_failed', async () => {
    const dispatcher = createDispatcher({ tools: [deployTool()], approvals: storesAnswering('grants.list', () => ({ length: 1 })) })
    expect(await rejectionOf(dispatcher.approvals.listGrants({ workspace_id: 'ws-1' }))).toEqual(['approval_unavailable', 'store_failed'])
  })

  it('deleteExpired returning an unreadable value is logged and ignored: the token is minted', async () => {
    const lines: unknown[] = []
    const logger = { warn: (...args: unknown[]) => lines.push(args), error: (...args: unknown[]) => lines.push(args), info: () => undefined, debug: () => undefined }
    const dispatcher = createDispatcher({ tools: [deployTool()], logger, approvals: storesAnswering('tokens.deleteExpired', UNREADABLE['a Proxy whose every trap throws']!) })
    const minted = await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' } })
    expect(typeof minted.token).toBe('string')
    expect(JSON.stringify(lines)).toContain('approval.token_purge_failed')
    expect((await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE, approval_token: minted.token })).status).toBe('ok')
  })

  it('the final pending update failing after the tool ran: resolve answers with outcome_recorded: false', async () => {
    const calls: unknown[] = []
    const inner = createMemoryApprovalStores()
    const pending = Object.assign(Object.create(null), inner.pending, {
      update: (id: string, from: string, next: { state: string }) => (next.state === 'completed' ? UNREADABLE['a revoked Proxy']!() : inner.pending.update(id, from as never, next as never)),
    })
    const dispatcher = createDispatcher({ tools: [deployTool(calls)], approvals: { ...inner, pending } })
    const id = approvalIdOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE }))
    const view = await dispatcher.approvals.resolve(id, { ...OWNER, decision: 'approved' })
    expect(calls).toEqual([{ target: 'prod' }])
    expect(view).toMatchObject({ execution_status: 'completed', outcome_recorded: false, outcome: { status: 'ok' } })
  })

  it('a token store whose consume() answers "yes" is approval_unavailable / store_failed, and the tool does not run', async () => {
    const calls: unknown[] = []
    const dispatcher = createDispatcher({ tools: [deployTool(calls)], approvals: storesAnswering('tokens.consume', () => 'yes') })
    const { token } = await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' } })
    expect(codeOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE, approval_token: token }))).toEqual(['approval_unavailable', 'store_failed'])
    expect(calls).toEqual([])
  })
})

describe('lives that are not finite never make invoke throw', () => {
  it('createDispatcher({ approvals: { pendingTtlMs: Infinity } }) is refused with ApprovalConfigError / invalid_duration', () => {
    let error: unknown
    try {
      createDispatcher({ tools: [deployTool()], approvals: { pendingTtlMs: Infinity } })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ApprovalConfigError)
    expect((error as ApprovalConfigError).problems).toEqual([
      { path: '/approvals/pendingTtlMs', code: 'invalid_duration', message: 'pendingTtlMs must be a positive integer of milliseconds of at most 3155760000000 (100 years)' },
    ])
  })

  it('mintApprovalToken({ ttlMs: Number.MAX_SAFE_INTEGER }) rejects with approval_request_invalid, not a RangeError', async () => {
    const dispatcher = createDispatcher({ tools: [deployTool()] })
    const minting = dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' }, ttlMs: Number.MAX_SAFE_INTEGER })
    await expect(minting).rejects.toMatchObject({ code: 'approval_request_invalid', reason: 'field_invalid', message: 'invalid approvals request: ttlMs must be a positive integer of milliseconds of at most 3155760000000 (100 years)' })
  })

  it('a clock answering NaN makes invoke answer approval_unavailable / clock_failed, never throw', async () => {
    const dispatcher = createDispatcher({ tools: [deployTool()], clock: () => Number.NaN })
    expect(codeOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE }))).toEqual(['approval_unavailable', 'clock_failed'])
  })
})
