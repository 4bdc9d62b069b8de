// A pre-call patch that sends the redacted marker back: the real value is restored only where it
// stood, never moved to another array item, and never reaches the handler as the marker.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { REDACTED, createDispatcher, defineTool } from 'result-views'
import { errorOf } from '../support/outcomes.js'

describe('redacted array items', () => {
  const make = (received: unknown[], patch: (items: Array<Record<string, unknown>>) => unknown) => {
    const dispatcher = createDispatcher({
      tools: [
        defineTool({
          id: 'batch',
          description: 'd',
          input: Type.Object({ items: Type.Array(Type.Object({ name: Type.String(), token: Type.String() })), extra: Type.Optional(Type.String()) }),
          output: Type.Object({}),
          sensitiveInputFields: ['items[].token', 'extra'],
          handler: (input) => (received.push(input), {}),
        }),
      ],
    })
    dispatcher.hook('tool.pre_call', (p) => ({ tool_input: patch((p.tool_input as { items: Array<Record<string, unknown>> }).items) }))
    return dispatcher
  }
  const input = { items: [{ name: 'i1', token: 'TOKEN-A-1111' }, { name: 'i2', token: 'TOKEN-B-2222' }] }

  it('restores unchanged items in place', async () => {
    const received: unknown[] = []
    expect((await make(received, (items) => ({ items })).invoke({ tool_id: 'batch', input })).status).toBe('ok')
    expect(received).toEqual([input])
  })

  it.each([
    ['reversed', (items: unknown[]) => ({ items: [...items].reverse() })],
    ['with the first dropped', (items: unknown[]) => ({ items: items.slice(1) })],
    ['with an item renamed', (items: Array<Record<string, unknown>>) => ({ items: [{ ...items[0], name: 'other' }, items[1]] })],
    ['with the marker in a field the call did not have', (items: unknown[]) => ({ items, extra: REDACTED })],
  ])('refuses a patch %s: a secret never moves to another item and the marker never reaches the handler', async (_name, patch) => {
    const received: unknown[] = []
    const error = errorOf(await make(received, patch as never).invoke({ tool_id: 'batch', input }))
    expect([error.code, error.reason]).toEqual(['tool_hook_failed', 'hook_patch_invalid'])
    expect(received).toEqual([])
  })
})
