// A call's scope is read in one pass (each own field once), checked and normalized. The model
// below is the rule the docs state, written out: each own field read once in key order, a throwing read is
// an unreadable request, else the first problem in key order, else a frozen scope of the defined
// known fields in their fixed order. invoke, describe(scope) and list(scope) must all agree with it.
import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool, type CallScope } from 'result-views'

const KNOWN = ['workspace_id', 'session_id', 'agent_name', 'profile_id'] as const

type Field = { readonly key: string; readonly value: { kind: 'string'; text: string } | { kind: 'number' } | { kind: 'undefined' } | { kind: 'throws' } }

const field: fc.Arbitrary<Field> = fc.record({
  key: fc.constantFrom(...KNOWN, 'workspaceId', '__proto__', 'constructor', 'toString', 'extra'),
  value: fc.oneof(
    { weight: 6, arbitrary: fc.string({ maxLength: 6 }).map((text) => ({ kind: 'string' as const, text })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'number' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'undefined' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'throws' as const }) },
  ),
})

/** The scope object of some fields (later fields of the same key are dropped), and how many times each getter ran. */
function scopeOf(fields: readonly Field[]): { scope: Record<string, unknown>; reads: Map<string, number>; order: Field[] } {
  const scope: Record<string, unknown> = {}
  const reads = new Map<string, number>()
  const order: Field[] = []
  for (const f of fields) {
    if (Object.hasOwn(scope, f.key)) continue
    order.push(f)
    Object.defineProperty(scope, f.key, {
      enumerable: true,
      configurable: true,
      get() {
        reads.set(f.key, (reads.get(f.key) ?? 0) + 1)
        if (f.value.kind === 'throws') throw new Error('getter threw')
        return f.value.kind === 'string' ? f.value.text : f.value.kind === 'number' ? 7 : undefined
      },
    })
  }
  return { scope, reads, order }
}

/** What the rule says: `unreadable`, the problem's start, or the normalized scope. */
function expected(order: readonly Field[]): { kind: 'unreadable' } | { kind: 'problem'; starts: string } | { kind: 'ok'; scope: CallScope } {
  if (order.some((f) => f.value.kind === 'throws')) return { kind: 'unreadable' }
  for (const f of order) {
    if (!(KNOWN as readonly string[]).includes(f.key)) return { kind: 'problem', starts: `scope has an unknown field "${f.key}"` }
    if (f.value.kind === 'number') return { kind: 'problem', starts: `scope field ${f.key} must be a string` }
  }
  const scope: Record<string, string> = {}
  for (const key of KNOWN) {
    const f = order.find((o) => o.key === key)
    if (f !== undefined && f.value.kind === 'string') scope[key] = f.value.text
  }
  return { kind: 'ok', scope }
}

describe('a scope is read once, checked and normalized', () => {
  let seen: Readonly<CallScope> | undefined
  const dispatcher = createDispatcher({
    tools: [
      defineTool({
        id: 'probe__scope',
        description: 'records the scope it ran with',
        input: Type.Object({}),
        output: Type.Object({}),
        handler: (_input, context) => {
          seen = context.scope
          return {}
        },
      }),
    ],
  })

  it('invoke agrees with the rule, and reads each field once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(field, { maxLength: 6 }), async (fields) => {
        const { scope, reads, order } = scopeOf(fields)
        seen = undefined
        const outcome = await dispatcher.invoke({ tool_id: 'probe__scope', input: {}, scope: scope as CallScope })
        // Each field at most once; every field up to the first whose read throws (then the read stops).
        const stop = order.findIndex((f) => f.value.kind === 'throws')
        order.forEach((f, i) => expect(reads.get(f.key) ?? 0, f.key).toBe(stop === -1 || i <= stop ? 1 : 0))
        const want = expected(order)
        if (want.kind === 'ok') {
          expect(outcome.status).toBe('ok')
          expect(Object.isFrozen(seen)).toBe(true)
          // Same keys in the same (fixed) order, same values.
          expect(JSON.stringify(seen)).toBe(JSON.stringify(want.scope))
          return
        }
        expect(outcome.status).toBe('error')
        const error = (outcome as { error: { code: string; reason: string; message: string } }).error
        expect([error.code, error.reason]).toEqual(['tool_invalid_input', 'request_invalid'])
        if (want.kind === 'unreadable') expect(error.message).toContain('the scope could not be read (a getter or a Proxy threw)')
        else expect(error.message).toContain(want.starts)
      }),
      { numRuns: 300 },
    )
  })

  it('describe(scope) and list(scope) refuse and accept the same scopes as invoke', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(field, { maxLength: 6 }), async (fields) => {
        const want = expected(scopeOf(fields).order)
        const described = await dispatcher.describe('probe__scope', scopeOf(fields).scope as CallScope).then(
          () => 'ok',
          (error: { reason?: string; message?: string }) => `${error.reason}: ${error.message}`,
        )
        const listed = await dispatcher.list(scopeOf(fields).scope as CallScope).then(
          () => 'ok',
          (error: { reason?: string; message?: string }) => `${error.reason}: ${error.message}`,
        )
        expect(listed).toBe(described)
        if (want.kind === 'ok') expect(described).toBe('ok')
        else if (want.kind === 'unreadable') expect(described).toMatch(/^request_invalid: .*the scope could not be read/)
        else expect(described).toContain(want.starts)
      }),
      { numRuns: 200 },
    )
  })

  it('a deferred call runs with its stored scope normalized', async () => {
    // Covered end to end by the approvals tests; here: a scope with an explicit undefined field runs as if the field were absent.
    const outcome = await dispatcher.invoke({ tool_id: 'probe__scope', input: {}, scope: { workspace_id: 'ws', session_id: undefined } })
    expect(outcome.status).toBe('ok')
    expect(Object.keys(seen!)).toEqual(['workspace_id'])
  })
})
