// Regression: 05-http-continue-accepts-malformed-scope. `POST /results/continue` served the next
// part for a scope an invoke refuses (an unknown field, a null field, a `constructor` key): it now
// checks the scope with the invoke's one check and answers 400 `request_invalid` the same way.
import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { createFetchHandler } from 'result-views/http'

const dump = defineTool({
  id: 'docs__dump',
  description: 'd',
  input: Type.Object({ n: Type.Integer() }),
  output: Type.Object({ e: Type.Array(Type.String()) }),
  handler: ({ n }) => ({ e: Array.from({ length: n }, (_, i) => `item${i}`) }),
})
const handle = createFetchHandler(createDispatcher({ tools: [dump] }), { maxResultBytes: 256 })

async function post(path: string, body: string): Promise<{ status: number; body: any }> {
  const reply = await handle(new Request(`http://x/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }), { local: true })
  return { status: reply.status, body: await reply.json() }
}

/** A continuation handle of a result made in workspace `w`. */
async function continuation(): Promise<string> {
  const first = await post('/tools/docs__dump/invoke', JSON.stringify({ input: { n: 100 }, scope: { workspace_id: 'w' } }))
  return first.body.result_part.continuation
}

describe('05-http-continue-accepts-malformed-scope', () => {
  // Raw JSON text, so `__proto__` arrives as an own key, as from any client.
  const malformed: Record<string, string> = {
    'an unknown field': '{"workspace_id":"w","bogus":1}',
    'agent_name null': '{"workspace_id":"w","agent_name":null}',
    'a constructor key': '{"workspace_id":"w","constructor":"x"}',
    'a __proto__ key': '{"workspace_id":"w","__proto__":{"agent_name":"a"}}',
    'a number field': '{"workspace_id":5}',
    'an array': '["w"]',
    'a string': '"w"',
    null: 'null',
  }
  for (const [name, scope] of Object.entries(malformed)) {
    it(`refuses ${name} with 400 request_invalid, as an invoke does`, async () => {
      const invoke = await post('/tools/docs__dump/invoke', `{"input":{"n":100},"scope":${scope}}`)
      const next = await post('/results/continue', `{"continuation":${JSON.stringify(await continuation())},"scope":${scope}}`)
      expect(invoke.status).toBe(400)
      expect(invoke.body.error).toMatchObject({ code: 'tool_invalid_input', reason: 'request_invalid' })
      expect(next.status).toBe(400)
      expect(next.body.error).toMatchObject({ code: 'tool_invalid_input', reason: 'request_invalid' })
      expect(next.body.result_part).toBeUndefined()
    })
  }

  it('still serves the next part for the scope that made the result', async () => {
    const next = await post('/results/continue', JSON.stringify({ continuation: await continuation(), scope: { workspace_id: 'w' } }))
    expect(next.status).toBe(200)
    expect(next.body.result_part.part).toBe(2)
  })

  it('accepts a scope on continue exactly when an invoke accepts it (property)', async () => {
    const key = fc.constantFrom('workspace_id', 'session_id', 'agent_name', 'profile_id', 'bogus', 'constructor', '__proto__', 'workspaceId')
    const value = fc.oneof(fc.constant('w'), fc.string({ maxLength: 3 }), fc.constant(null), fc.integer(), fc.boolean(), fc.constant({}))
    const scope = fc.oneof(fc.dictionary(key, value, { maxKeys: 3 }), value)
    await fc.assert(
      fc.asyncProperty(scope, async (sent) => {
        const text = JSON.stringify(sent)
        const invoke = await post('/tools/docs__dump/invoke', `{"input":{"n":100},"scope":${text}}`)
        const next = await post('/results/continue', `{"continuation":${JSON.stringify(await continuation())},"scope":${text}}`)
        const invokeRefused = invoke.body.error?.reason === 'request_invalid'
        expect(next.body.error?.reason === 'request_invalid').toBe(invokeRefused)
      }),
      { numRuns: 60 },
    )
  })
})
