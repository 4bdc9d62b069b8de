// Sealed pending inputs: with approvals.sealKey, a pending approval whose call has sensitive input
// fields carries its real input encrypted (AES-256-GCM, bound to the approval ID), so another
// dispatcher on the same stores (standing for another process) runs the approved call on the real
// input; whatever does not open fails closed and leaves the approval pending.
import { randomBytes } from 'node:crypto'
import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import {
  REDACTED,
  createDispatcher,
  createMemoryApprovalStores,
  defineTool,
  isApprovalConfigError,
  isToolError,
  type ApprovalOptions,
  type ApprovalStores,
  type Logger,
  type PendingApprovalRecord,
  type ToolError,
} from 'result-views'
import { thrown } from '../support/outcomes.js'
import { SCOPE, approvalIdOf, deployTool, manualClock, recordingStores, rejectionOf } from './fixtures.js'

const SECRET = 'pw-"seal"/~canary\\9f2c41'
const secretCall = { tool_id: 'ops__deploy', input: { target: 'prod', note: SECRET }, scope: SCOPE, sensitive_input_fields: ['note'] }
const owner = { profile_id: SCOPE.profile_id }
const approve = { decision: 'approved' as const, profile_id: SCOPE.profile_id }

/** Two dispatchers on the same stores, each standing for one process of a host. */
function instances(stores: ApprovalStores, first: Partial<ApprovalOptions>, second: Partial<ApprovalOptions> = first) {
  const runs: unknown[] = []
  const opener = createDispatcher({ tools: [deployTool()], approvals: { ...stores, ...first } })
  const resolver = createDispatcher({ tools: [deployTool(runs)], approvals: { ...stores, ...second } })
  return { opener, resolver, runs }
}

async function openSealed(stores: ApprovalStores, sealKey: Uint8Array): Promise<string> {
  const opener = createDispatcher({ tools: [deployTool()], approvals: { ...stores, sealKey } })
  return approvalIdOf(await opener.invoke(secretCall))
}

async function storedRecord(stores: ApprovalStores, id: string): Promise<PendingApprovalRecord> {
  const record = await stores.pending.get(id)
  expect(record).toBeDefined()
  return record!
}

/** Replaces the stored pending record with `change(record)` (what a writer with database access could do). */
async function tamper(stores: ApprovalStores, id: string, change: (record: PendingApprovalRecord) => unknown): Promise<void> {
  const record = await storedRecord(stores, id)
  expect(await stores.pending.update(id, 'pending', change(structuredClone(record)) as PendingApprovalRecord)).toBe(true)
}

function flipFirstByte(base64url: string): string {
  const bytes = Buffer.from(base64url, 'base64url')
  bytes[0] = bytes[0]! ^ 0x01
  return bytes.toString('base64url')
}

describe('a sealed pending input', () => {
  it('runs the approved call in another dispatcher with the key, on the real input, exactly once', async () => {
    const key = randomBytes(32)
    const stores = createMemoryApprovalStores()
    const { opener, resolver, runs } = instances(stores, { sealKey: key })
    const id = approvalIdOf(await opener.invoke(secretCall))

    const record = await storedRecord(stores, id)
    expect(record.input).toEqual({ target: 'prod', note: REDACTED })
    expect(record.sealed_input).toMatchObject({ alg: 'AES-256-GCM', key_id: expect.stringMatching(/^[0-9a-f]{16}$/) })
    expect(Buffer.from(record.sealed_input!.iv, 'base64url')).toHaveLength(12)
    expect(Buffer.from(record.sealed_input!.tag, 'base64url')).toHaveLength(16)
    expect(JSON.stringify(record)).not.toContain('seal"/~canary')

    const [first, second] = await Promise.allSettled([resolver.approvals.resolve(id, approve), resolver.approvals.resolve(id, approve)])
    const views = [first, second].filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<{ execution_status?: string }>).value)
    expect(views.map((v) => v.execution_status)).toEqual(['completed'])
    expect(runs).toEqual([{ target: 'prod', note: SECRET }])
    const done = await storedRecord(stores, id)
    expect(done.state).toBe('completed')
    expect(done).not.toHaveProperty('sealed_input')
    // Decided means it never runs again, in any dispatcher.
    expect(await rejectionOf(opener.approvals.resolve(id, approve))).toEqual(['approval_state', 'approval_resolved'])
    expect(runs).toHaveLength(1)
  })

  it('is opened from the record even in the dispatcher that opened it: nothing is held in memory', async () => {
    const stores = createMemoryApprovalStores()
    const runs: unknown[] = []
    const dispatcher = createDispatcher({ tools: [deployTool(runs)], approvals: { ...stores, sealKey: randomBytes(32) } })
    const id = approvalIdOf(await dispatcher.invoke(secretCall))
    await tamper(stores, id, (record) => ({ ...record, sealed_input: { ...record.sealed_input!, ciphertext: flipFirstByte(record.sealed_input!.ciphertext) } }))
    expect(await rejectionOf(dispatcher.approvals.resolve(id, approve))).toEqual(['approval_unavailable', 'seal_invalid'])
    expect(runs).toEqual([])
  })

  it('keeps the input held in memory without a key: another dispatcher refuses to approve it, and it stays pending', async () => {
    const stores = createMemoryApprovalStores()
    const { opener, resolver, runs } = instances(stores, {})
    const id = approvalIdOf(await opener.invoke(secretCall))
    expect(await storedRecord(stores, id)).not.toHaveProperty('sealed_input')
    expect(await rejectionOf(resolver.approvals.resolve(id, approve))).toEqual(['approval_unavailable', 'input_held_elsewhere'])
    expect((await storedRecord(stores, id)).state).toBe('pending')
    expect(runs).toEqual([])
  })

  it('is not added when the call has no sensitive fields (its record holds nothing secret)', async () => {
    const stores = createMemoryApprovalStores()
    const { opener, resolver, runs } = instances(stores, { sealKey: randomBytes(32) }, {})
    const id = approvalIdOf(await opener.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE }))
    expect(await storedRecord(stores, id)).not.toHaveProperty('sealed_input')
    expect(await resolver.approvals.resolve(id, approve)).toMatchObject({ execution_status: 'completed' })
    expect(runs).toEqual([{ target: 'prod' }])
  })

  it('is dropped by a denial, a cancel and an expiry', async () => {
    const clock = manualClock()
    const stores = createMemoryApprovalStores()
    const dispatcher = createDispatcher({ tools: [deployTool()], approvals: { ...stores, sealKey: randomBytes(32), now: clock.now, pendingTtlMs: 1_000 } })
    const denied = approvalIdOf(await dispatcher.invoke(secretCall))
    const canceled = approvalIdOf(await dispatcher.invoke(secretCall))
    const expired = approvalIdOf(await dispatcher.invoke(secretCall))
    await dispatcher.approvals.resolve(denied, { decision: 'denied', profile_id: SCOPE.profile_id })
    await dispatcher.approvals.cancel(canceled, owner)
    clock.advance(1_000)
    expect((await dispatcher.approvals.show(expired, owner)).status).toBe('expired')
    for (const [id, state] of [[denied, 'denied'], [canceled, 'canceled'], [expired, 'expired']] as const) {
      const record = await storedRecord(stores, id)
      expect(record.state).toBe(state)
      expect(record).not.toHaveProperty('sealed_input')
    }
  })
})

describe('a sealed input that does not open fails closed with a typed error, and the approval stays pending', () => {
  const cases: Array<[string, (record: PendingApprovalRecord) => unknown, string]> = [
    ['a changed ciphertext', (r) => ({ ...r, sealed_input: { ...r.sealed_input!, ciphertext: flipFirstByte(r.sealed_input!.ciphertext) } }), 'seal_invalid'],
    ['a changed tag', (r) => ({ ...r, sealed_input: { ...r.sealed_input!, tag: flipFirstByte(r.sealed_input!.tag) } }), 'seal_invalid'],
    ['a cut tag (12 of 16 bytes)', (r) => ({ ...r, sealed_input: { ...r.sealed_input!, tag: Buffer.from(r.sealed_input!.tag, 'base64url').subarray(0, 12).toString('base64url') } }), 'seal_invalid'],
    ['a changed nonce', (r) => ({ ...r, sealed_input: { ...r.sealed_input!, iv: flipFirstByte(r.sealed_input!.iv) } }), 'seal_invalid'],
    ['a character outside base64url (which a lenient decoder would skip)', (r) => ({ ...r, sealed_input: { ...r.sealed_input!, ciphertext: r.sealed_input!.ciphertext + '!' } }), 'seal_invalid'],
    ['another algorithm', (r) => ({ ...r, sealed_input: { ...r.sealed_input!, alg: 'AES-128-GCM' } }), 'seal_invalid'],
    ['a malformed key ID', (r) => ({ ...r, sealed_input: { ...r.sealed_input!, key_id: 'K1' } }), 'seal_invalid'],
    ['a seal that is not an object', (r) => ({ ...r, sealed_input: 'sealed' }), 'seal_invalid'],
    ['a key ID no key has', (r) => ({ ...r, sealed_input: { ...r.sealed_input!, key_id: '0123456789abcdef' } }), 'seal_key_unknown'],
  ]
  for (const [what, change, reason] of cases) {
    it(`${what}: ${reason}`, async () => {
      const key = randomBytes(32)
      const stores = createMemoryApprovalStores()
      const { resolver, runs } = instances(stores, { sealKey: key })
      const id = await openSealed(stores, key)
      await tamper(stores, id, change)
      expect(await rejectionOf(resolver.approvals.resolve(id, approve))).toEqual(['approval_unavailable', reason])
      expect(runs).toEqual([])
      expect((await resolver.approvals.show(id, owner)).status).toBe('pending')
    })
  }

  it("a seal copied from another approval (another approval ID as associated data): seal_invalid, neither input runs in the other's place", async () => {
    const key = randomBytes(32)
    const stores = createMemoryApprovalStores()
    const opener = createDispatcher({ tools: [deployTool()], approvals: { ...stores, sealKey: key } })
    const victim = approvalIdOf(await opener.invoke({ ...secretCall, input: { target: 'staging', note: 'harmless' } }))
    const donor = approvalIdOf(await opener.invoke(secretCall))
    const donorSeal = (await storedRecord(stores, donor)).sealed_input
    await tamper(stores, victim, (record) => ({ ...record, sealed_input: donorSeal }))
    const { resolver, runs } = instances(stores, { sealKey: key })
    const error = await resolver.approvals.resolve(victim, approve).catch((e: unknown) => e as ToolError)
    expect(isToolError(error)).toBe(true)
    expect([(error as ToolError).code, (error as ToolError).reason]).toEqual(['approval_unavailable', 'seal_invalid'])
    expect((error as ToolError).message).toContain(victim)
    expect(runs).toEqual([])
    // The donor itself still opens.
    expect(await resolver.approvals.resolve(donor, approve)).toMatchObject({ execution_status: 'completed' })
    expect(runs).toEqual([{ target: 'prod', note: SECRET }])
  })

  it('a dispatcher without the key: seal_key_unknown naming the key ID; one with the key resolves it afterwards', async () => {
    const key = randomBytes(32)
    const stores = createMemoryApprovalStores()
    const id = await openSealed(stores, key)
    const keyId = (await storedRecord(stores, id)).sealed_input!.key_id
    for (const approvals of [{}, { sealKey: randomBytes(32) }]) {
      const stranger = createDispatcher({ tools: [deployTool()], approvals: { ...stores, ...approvals } })
      const error = (await stranger.approvals.resolve(id, approve).catch((e: unknown) => e)) as ToolError
      expect([error.code, error.reason, error.details]).toEqual(['approval_unavailable', 'seal_key_unknown', { key_id: keyId }])
    }
    const { resolver, runs } = instances(stores, { sealKey: key })
    expect(await resolver.approvals.resolve(id, approve)).toMatchObject({ execution_status: 'completed' })
    expect(runs).toEqual([{ target: 'prod', note: SECRET }])
  })

  it('a denial needs no key: it records the decision without opening the seal', async () => {
    const stores = createMemoryApprovalStores()
    const id = await openSealed(stores, randomBytes(32))
    const keyless = createDispatcher({ tools: [deployTool()], approvals: stores })
    expect(await keyless.approvals.resolve(id, { decision: 'denied', profile_id: SCOPE.profile_id })).toMatchObject({ status: 'denied' })
  })
})

describe('seal key rotation', () => {
  it('the new key seals, previousSealKeys open what older keys sealed, and a dispatcher with only the new key cannot', async () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)]
    const stores = createMemoryApprovalStores()
    const sealedOld = await openSealed(stores, oldKey)
    const rotated = createDispatcher({ tools: [deployTool()], approvals: { ...stores, sealKey: newKey, previousSealKeys: [oldKey] } })
    const sealedNew = approvalIdOf(await rotated.invoke(secretCall))
    const oldId = (await storedRecord(stores, sealedOld)).sealed_input!.key_id
    const newId = (await storedRecord(stores, sealedNew)).sealed_input!.key_id
    expect(newId).not.toBe(oldId)
    // The key ID depends only on the key: a second dispatcher with the new key seals under the same ID.
    expect((await storedRecord(stores, await openSealed(stores, newKey))).sealed_input!.key_id).toBe(newId)

    const newOnly = createDispatcher({ tools: [deployTool()], approvals: { ...stores, sealKey: newKey } })
    expect(await rejectionOf(newOnly.approvals.resolve(sealedOld, approve))).toEqual(['approval_unavailable', 'seal_key_unknown'])
    const runs: unknown[] = []
    const resolver = createDispatcher({ tools: [deployTool(runs)], approvals: { ...stores, sealKey: newKey, previousSealKeys: [oldKey] } })
    expect(await resolver.approvals.resolve(sealedOld, approve)).toMatchObject({ execution_status: 'completed' })
    expect(await resolver.approvals.resolve(sealedNew, approve)).toMatchObject({ execution_status: 'completed' })
    expect(runs).toEqual([{ target: 'prod', note: SECRET }, { target: 'prod', note: SECRET }])
  })

  it('copies the keys: a host that zeroes its buffer afterwards changes nothing', async () => {
    const key = randomBytes(32)
    const copy = Buffer.from(key)
    const stores = createMemoryApprovalStores()
    const opener = createDispatcher({ tools: [deployTool()], approvals: { ...stores, sealKey: key } })
    key.fill(7)
    const id = approvalIdOf(await opener.invoke(secretCall))
    const { resolver, runs } = instances(stores, { sealKey: copy })
    expect(await resolver.approvals.resolve(id, approve)).toMatchObject({ execution_status: 'completed' })
    expect(runs).toEqual([{ target: 'prod', note: SECRET }])
  })
})

describe('seal key misuse throws ApprovalConfigError with every problem', () => {
  const problemsOf = (approvals: Record<string, unknown>) => {
    const error = thrown(() => createDispatcher({ tools: [], approvals: approvals as ApprovalOptions }))
    expect(isApprovalConfigError(error), String(error)).toBe(true)
    return (error as { problems: Array<{ path: string; code: string }> }).problems.map((p) => [p.path, p.code])
  }
  const sparse: Uint8Array[] = []
  sparse.length = 2 ** 32 - 1

  it.each<[string, unknown]>([
    ['31 bytes', randomBytes(31)],
    ['33 bytes', randomBytes(33)],
    ['a base64 string', randomBytes(32).toString('base64')],
    ['a Uint16Array of 32 bytes', new Uint16Array(16).fill(7)],
    ['an ArrayBuffer', randomBytes(32).buffer],
    ['32 zero bytes', new Uint8Array(32)],
    ['a Proxy of a Uint8Array', new Proxy(randomBytes(32), {})],
    ['null', null],
  ])('a sealKey that is %s', (_what, sealKey) => {
    expect(problemsOf({ sealKey })).toEqual([['/approvals/sealKey', 'invalid_seal_key']])
  })

  it('bad previousSealKeys: not an array, a hole (a sparse list of 2^32-1 refused at once), a bad entry, no sealKey', () => {
    expect(problemsOf({ sealKey: randomBytes(32), previousSealKeys: randomBytes(32) })).toEqual([['/approvals/previousSealKeys', 'invalid_seal_key']])
    expect(problemsOf({ sealKey: randomBytes(32), previousSealKeys: sparse })).toEqual([['/approvals/previousSealKeys/0', 'invalid_seal_key']])
    expect(problemsOf({ sealKey: randomBytes(32), previousSealKeys: [randomBytes(32), 'k', randomBytes(16)] })).toEqual([
      ['/approvals/previousSealKeys/1', 'invalid_seal_key'],
      ['/approvals/previousSealKeys/2', 'invalid_seal_key'],
    ])
    expect(problemsOf({ previousSealKeys: [randomBytes(32)] })).toEqual([['/approvals/previousSealKeys', 'seal_key_missing']])
    expect(problemsOf({ sealKey: randomBytes(8), timeoutMs: 0 })).toEqual([
      ['/approvals/timeoutMs', 'invalid_duration'],
      ['/approvals/sealKey', 'invalid_seal_key'],
    ])
  })

  it('never echoes a key in the error', () => {
    const key = randomBytes(31)
    const error = thrown(() => createDispatcher({ tools: [], approvals: { sealKey: key } }))
    const text = String(error) + JSON.stringify(error)
    for (const encoding of ['hex', 'base64', 'base64url'] as const) expect(text).not.toContain(key.toString(encoding).slice(0, 16))
  })

  it('accepts a Buffer, a plain Uint8Array and the same key twice', () => {
    const key = randomBytes(32)
    expect(createDispatcher({ tools: [], approvals: { sealKey: new Uint8Array(key), previousSealKeys: [key, Buffer.from(key)] } })).toBeDefined()
  })
})

describe('the clear value never reaches a store, a log, an event, an error or a view', () => {
  it('a planted secret, in every encoding, across opening, resolving in another dispatcher, tampering and a keyless dispatcher', async () => {
    const key = randomBytes(32)
    const out: unknown[] = []
    const log = (level: string) => (fields: Record<string, unknown>, message: string) => void out.push({ level, fields, message })
    const logger: Logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') }
    const recorded = recordingStores()
    const runs: unknown[] = []
    const make = (approvals: Partial<ApprovalOptions>, calls: unknown[] = []) => {
      const dispatcher = createDispatcher({ tools: [deployTool(calls)], logger, approvals: { ...recorded.stores, ...approvals } })
      for (const event of ['tool.pre_call', 'tool.post_call', 'tool.post_error'] as const) dispatcher.hook(event, (payload: unknown) => void out.push(payload))
      return dispatcher
    }
    const opener = make({ sealKey: key })
    const resolver = make({ sealKey: key }, runs)
    const keyless = make({})
    const ids = []
    for (let i = 0; i < 3; i++) ids.push(approvalIdOf(await opener.invoke(secretCall)))
    out.push(await keyless.approvals.resolve(ids[0]!, approve).catch((e: unknown) => e))
    await tamper(recorded.stores, ids[1]!, (r) => ({ ...r, sealed_input: { ...r.sealed_input!, tag: flipFirstByte(r.sealed_input!.tag) } }))
    out.push(await resolver.approvals.resolve(ids[1]!, approve).catch((e: unknown) => e))
    out.push(await resolver.approvals.resolve(ids[2]!, approve))
    for (const id of ids) out.push(await resolver.approvals.show(id, owner))
    expect(runs).toEqual([{ target: 'prod', note: SECRET }])

    const emitted = [...out, ...recorded.seen]
      .map((value) => (value instanceof Error ? [String(value), value.stack, JSON.stringify(value), JSON.stringify((value as ToolError).forSurface?.('http'))].join('\n') : JSON.stringify(value)))
      .join('\n')
    expect(emitted).toContain(REDACTED)
    expect(emitted).toContain('approval.sealed_input_refused')
    const encodings = [SECRET, JSON.stringify(SECRET).slice(1, -1), SECRET.replace(/~/g, '~0').replace(/\//g, '~1'), SECRET.slice(0, 10), SECRET.slice(-10)]
    for (const secret of [...encodings, key.toString('hex').slice(0, 16), key.toString('base64').slice(0, 16), key.toString('base64url').slice(0, 16)]) {
      expect(emitted, secret).not.toContain(secret)
    }
  })
})

describe('sealed inputs round-trip every plain JSON value exactly', () => {
  const vaultTool = (seen: unknown[] = []) =>
    defineTool({
      id: 'vault__store',
      description: 'Stores a secret value.',
      approval: 'required',
      input: Type.Object({ label: Type.String(), secret: Type.Unknown() }, { additionalProperties: false }),
      output: Type.Object({ stored: Type.Boolean() }, { additionalProperties: false }),
      sensitiveInputFields: ['secret'],
      handler: (input) => (seen.push(input), { stored: true }),
    })

  it('the handler of another dispatcher gets exactly the input sent (unicode, lone surrogates, __proto__ keys, nesting)', async () => {
    const key = randomBytes(32)
    const stores = createMemoryApprovalStores()
    const seen: unknown[] = []
    const opener = createDispatcher({ tools: [vaultTool()], approvals: { ...stores, sealKey: key } })
    const resolver = createDispatcher({ tools: [vaultTool(seen)], approvals: { ...stores, sealKey: key } })
    const value = fc.jsonValue({ depthSize: 'small' })
    const protoKeyed = fc.constant(JSON.parse('{"__proto__":{"polluted":true},"constructor":"x"}'))
    await fc.assert(
      fc.asyncProperty(fc.oneof(value, fc.string({ unit: 'binary' }), protoKeyed), async (secret) => {
        seen.length = 0
        const input = { label: 'l', secret }
        const id = approvalIdOf(await opener.invoke({ tool_id: 'vault__store', input, scope: SCOPE }))
        expect(await resolver.approvals.resolve(id, approve)).toMatchObject({ execution_status: 'completed' })
        expect(seen).toHaveLength(1)
        expect(JSON.stringify(seen[0])).toBe(JSON.stringify(input))
        expect(Object.getPrototypeOf(seen[0])).toBe(Object.prototype)
      }),
      { numRuns: 60 },
    )
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined()
  })

  it('a secret nested 2,000 deep', async () => {
    let deep: unknown = 'bottom'
    for (let i = 0; i < 2_000; i++) deep = { d: deep }
    const key = randomBytes(32)
    const stores = createMemoryApprovalStores()
    const seen: unknown[] = []
    const opener = createDispatcher({ tools: [vaultTool()], approvals: { ...stores, sealKey: key } })
    const resolver = createDispatcher({ tools: [vaultTool(seen)], approvals: { ...stores, sealKey: key } })
    const outcome = await opener.invoke({ tool_id: 'vault__store', input: { label: 'deep', secret: deep }, scope: SCOPE })
    const id = approvalIdOf(outcome)
    expect(await resolver.approvals.resolve(id, approve)).toMatchObject({ execution_status: 'completed' })
    expect(JSON.stringify(seen[0])).toBe(JSON.stringify({ label: 'deep', secret: deep }))
  })
})
