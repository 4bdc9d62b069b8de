import { randomBytes } from 'node:crypto'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import {
  createDispatcher,
  defineTool,
  isApprovalConfigError,
  isDispatcherOptionsError,
  isPolicyDefinitionError,
  type DispatcherOptions,
} from 'result-views'

// Regression: 01-approvals-option-getters-throw-raw. A Proxy or throwing getter anywhere in the
// options made createDispatcher throw the host's own Error (or a TypeError) instead of its misuse error.

const tool = defineTool({ id: 't', description: 'x', input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })
const key = randomBytes(32)
const boom = (): never => {
  throw new Error('host boom')
}
const throwing = (name: string, base: object = {}): object => Object.defineProperty(base, name, { enumerable: true, get: boom })
const revoked = <T extends object>(target: T): T => {
  const proxy = Proxy.revocable(target, {})
  proxy.revoke()
  return proxy.proxy
}

function thrown(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  return undefined
}

function problemsOf(error: unknown): unknown {
  return (error as { problems?: unknown }).problems
}

describe('01-approvals-option-getters-throw-raw', () => {
  const approvalCases: Record<string, { approvals: unknown; path: string }> = {
    'previousSealKeys whose length trap throws': {
      approvals: { sealKey: key, previousSealKeys: new Proxy([], { get: (t, p) => (p === 'length' ? boom() : Reflect.get(t, p)) }) },
      path: '/approvals/previousSealKeys',
    },
    'previousSealKeys whose index trap throws': {
      approvals: { sealKey: key, previousSealKeys: new Proxy([key], { get: (t, p) => (p === '0' ? boom() : Reflect.get(t, p)) }) },
      path: '/approvals/previousSealKeys/0',
    },
    'previousSealKeys with a throwing index getter': { approvals: { sealKey: key, previousSealKeys: throwing('0', [key]) }, path: '/approvals/previousSealKeys/0' },
    'a revoked Proxy as previousSealKeys': { approvals: { sealKey: key, previousSealKeys: revoked([]) }, path: '/approvals/previousSealKeys' },
    'a throwing sealKey getter': { approvals: throwing('sealKey'), path: '/approvals/sealKey' },
    'a throwing timeoutMs getter': { approvals: throwing('timeoutMs'), path: '/approvals/timeoutMs' },
    'a throwing previousSealKeys getter': { approvals: throwing('previousSealKeys', { sealKey: key }), path: '/approvals/previousSealKeys' },
    'a store whose method getter throws': { approvals: { tokens: throwing('insert') }, path: '/approvals/tokens' },
    'a revoked Proxy as approvals': { approvals: revoked({}), path: '/approvals' },
  }
  for (const [name, { approvals, path }] of Object.entries(approvalCases)) {
    it(`refuses ${name} with ApprovalConfigError / unreadable_option at ${path}`, () => {
      const error = thrown(() => createDispatcher({ tools: [tool], approvals: approvals as DispatcherOptions['approvals'] }))
      expect(isApprovalConfigError(error)).toBe(true)
      expect(problemsOf(error)).toEqual([{ path, code: 'unreadable_option', message: expect.stringContaining('could not be read') }])
    })
  }

  it('keeps a Proxy Uint8Array as sealKey an invalid_seal_key, without running its traps', () => {
    let trapped = 0
    const sealKey = new Proxy(new Uint8Array(32), { get: () => (trapped++, boom()) })
    const error = thrown(() => createDispatcher({ tools: [tool], approvals: { sealKey } }))
    expect(isApprovalConfigError(error)).toBe(true)
    expect(problemsOf(error)).toEqual([expect.objectContaining({ path: '/approvals/sealKey', code: 'invalid_seal_key' })])
    expect(trapped).toBe(0)
  })

  it('reads each approvals option once: a getter that answers differently the second time changes nothing', () => {
    let reads = 0
    const approvals = Object.defineProperty({}, 'timeoutMs', { enumerable: true, get: () => (++reads === 1 ? 1000 : 'late') })
    expect(() => createDispatcher({ tools: [tool], approvals: approvals as DispatcherOptions['approvals'] })).not.toThrow()
    expect(reads).toBe(1)
  })

  it('lists an unreadable approvals option next to the other problems', () => {
    const error = thrown(() => createDispatcher({ tools: [tool], approvals: throwing('sealKey', { timeoutMs: -1, bogus: 1 }) as DispatcherOptions['approvals'] }))
    expect(isApprovalConfigError(error)).toBe(true)
    expect((problemsOf(error) as Array<{ path: string; code: string }>).map(({ path, code }) => [path, code]).sort()).toEqual([
      ['/approvals/bogus', 'unknown_option'],
      ['/approvals/sealKey', 'unreadable_option'],
      ['/approvals/timeoutMs', 'invalid_duration'],
    ])
  })

  // Each option is read by createDispatcher's own options reader: a throwing getter is its own
  // DispatcherOptionsError, whatever the option holds.
  const dispatcherCases: Array<[string, (error: unknown) => boolean]> = ['tools', 'clock', 'handlerTimeoutMs', 'logger', 'hooks', 'hookTimeoutMs', 'policy', 'approvals'].map((option) => [option, isDispatcherOptionsError])
  for (const [option, guard] of dispatcherCases) {
    it(`refuses a throwing ${option} getter on createDispatcher's options with ${guard.name.slice(2)} / unreadable_option`, () => {
      const options = throwing(option, option === 'tools' ? {} : { tools: [tool] })
      const error = thrown(() => createDispatcher(options as DispatcherOptions))
      expect(guard(error)).toBe(true)
      expect(problemsOf(error)).toEqual([{ path: `/${option}`, code: 'unreadable_option', message: expect.any(String) }])
    })
  }

  it('refuses a policy whose decide getter throws with PolicyDefinitionError / unreadable_option', () => {
    const error = thrown(() => createDispatcher({ tools: [tool], policy: throwing('decide') as DispatcherOptions['policy'] }))
    expect(isPolicyDefinitionError(error)).toBe(true)
    expect(problemsOf(error)).toEqual([{ path: '/policy', code: 'unreadable_option', message: expect.any(String) }])
  })

  it('refuses a revoked Proxy as the options with DispatcherOptionsError, not a TypeError of its own', () => {
    const error = thrown(() => createDispatcher(revoked({ tools: [tool] })))
    expect(isDispatcherOptionsError(error)).toBe(true)
    expect((problemsOf(error) as Array<{ code: string }>).every((problem) => problem.code === 'unreadable_option')).toBe(true)
  })

  it('reads each of its own options once', () => {
    const reads: string[] = []
    const options = new Proxy({ tools: [tool] } as DispatcherOptions, { get: (t, p, r) => (reads.push(String(p)), Reflect.get(t, p, r)) })
    createDispatcher(options)
    expect(reads.filter((name, i) => reads.indexOf(name) !== i)).toEqual([])
  })
})
