// The management API's argument checks: every bad argument rejects with a ToolError, never a raw throw.
import { describe, expect, it } from 'vitest'
import { createDispatcher, isToolError } from 'result-views'
import { SCOPE, deployTool } from './fixtures.js'

const boom = (): never => {
  throw new Error('getter boom')
}

/** Arguments that cannot be read: known fields whose getters throw, a Proxy whose ownKeys trap throws. */
const unreadable = (fields: readonly string[]) => [
  Object.defineProperties({}, Object.fromEntries(fields.map((key) => [key, { enumerable: true, get: boom }]))),
  new Proxy({}, { ownKeys: boom }),
]

describe('dispatcher.approvals argument checks', () => {
  const dispatcher = createDispatcher({ tools: [deployTool()] })
  const calls: Record<string, (argument: unknown) => Promise<unknown>> = {
    mintApprovalToken: (argument) => dispatcher.approvals.mintApprovalToken(argument as never),
    setGrant: (argument) => dispatcher.approvals.setGrant(argument as never),
    listGrants: (argument) => dispatcher.approvals.listGrants(argument as never),
    revokeGrant: (argument) => dispatcher.approvals.revokeGrant(argument as never),
    show: (argument) => dispatcher.approvals.show('approval-1', argument as never),
    resolve: (argument) => dispatcher.approvals.resolve('approval-1', argument as never),
    cancel: (argument) => dispatcher.approvals.cancel('approval-1', argument as never),
  }

  for (const [name, call] of Object.entries(calls)) {
    it(`rejects ${name} with approval_request_invalid for an argument whose getter or Proxy throws`, async () => {
      for (const argument of unreadable(name === 'mintApprovalToken' ? ['tool_id'] : ['show', 'resolve', 'cancel'].includes(name) ? ['profile_id'] : ['workspace_id'])) {
        const rejected = await call(argument).then(
          () => undefined,
          (error: unknown) => error,
        )
        expect(isToolError(rejected), name).toBe(true)
        expect(rejected).toMatchObject({ code: 'approval_request_invalid', reason: 'field_invalid' })
      }
    })
  }

  it('reads each field of a mint request once: a getter that answers differently cannot swap the tool', async () => {
    let reads = 0
    const request = {
      get tool_id() {
        return ++reads === 1 ? 'ops__deploy' : 'other__tool'
      },
      scope: SCOPE,
      input: { target: 'prod' },
    }
    const minted = await dispatcher.approvals.mintApprovalToken(request)
    expect(reads).toBe(1)
    const outcome = await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE, approval_token: minted.token })
    expect(outcome.status).toBe('ok')
  })
})
