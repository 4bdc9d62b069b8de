// A host's continuation store that fails: a read that throws or answers nonsense is 503
// continuation_unavailable / store_failed (never a wrong part, never a crash); a put that fails
// leaves the call as it ran, its first part without a continuation.
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { createFetchHandler, createMemoryContinuationStore, type ContinuationStore } from 'result-views/http'

const dump = defineTool({
  id: 'docs__dump',
  description: 'Dump.',
  input: Type.Object({ count: Type.Integer() }),
  output: Type.Object({ items: Type.Array(Type.String()) }),
  handler: ({ count }) => ({ items: Array.from({ length: count }, (_, i) => `item-${i}-é😀`) }),
})
const dispatcher = createDispatcher({ tools: [dump] })

async function post(store: ContinuationStore, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const handler = createFetchHandler(dispatcher, { maxResultBytes: 256, continuationStore: store })
  const response = await handler(new Request(`http://127.0.0.1/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), { remoteAddress: '127.0.0.1' })
  return { status: response.status, body: await response.json() }
}

describe('a continuation store that fails', () => {
  const memory = createMemoryContinuationStore()
  const broken = (read: ContinuationStore['read']): ContinuationStore => ({ ...memory, read })

  it('a read that throws, rejects or answers nonsense is 503 continuation_unavailable / store_failed', async () => {
    const first = await post(memory, '/tools/docs__dump/invoke', { input: { count: 50 } })
    const handle = first.body.result_part.continuation as string
    expect(handle).toMatch(/^rvc_/)
    const reads: Array<ContinuationStore['read']> = [
      () => {
        throw new Error('ECONNREFUSED')
      },
      () => Promise.reject(new Error('relation does not exist')),
      () => Promise.resolve({ kind: 'found', part: { text: 42 } } as never),
      () => Promise.resolve({ kind: 'maybe' } as never),
      () => Promise.resolve(null as never),
    ]
    for (const read of reads) {
      const reply = await post(broken(read), '/results/continue', { continuation: handle })
      expect([reply.status, reply.body.error.code, reply.body.error.reason]).toEqual([503, 'continuation_unavailable', 'store_failed'])
      expect(JSON.stringify(reply.body)).not.toContain('ECONNREFUSED')
    }
    // The store is unchanged: the same handle still reads its part.
    expect((await post(memory, '/results/continue', { continuation: handle })).status).toBe(200)
  })

  it('a put that fails or answers something that is not a result ID: the call succeeds, its first part has no continuation', async () => {
    for (const put of [() => Promise.reject(new Error('down')), () => Promise.resolve('not-an-id')] as Array<ContinuationStore['put']>) {
      const reply = await post({ ...memory, put }, '/tools/docs__dump/invoke', { input: { count: 50 } })
      expect(reply.status).toBe(200)
      expect(reply.body.result_part).toMatchObject({ part: 1 })
      expect(reply.body.result_part.continuation).toBeUndefined()
    }
  })
})
