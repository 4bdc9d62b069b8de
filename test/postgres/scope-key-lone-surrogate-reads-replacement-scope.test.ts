// At the store level on PostgreSQL, scope keys 'S\ud800' and 'S\ufffd' read each other's results:
// the scope digest hashed UTF-8, where a lone surrogate becomes U+FFFD. The memory store answers
// `foreign`. The digest now hashes the key's WTF-8 bytes (a lone surrogate keeps its own three
// bytes), equal to UTF-8 for every well-formed key, so rows kept before stay readable.
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createMemoryContinuationStore, type ContinuationStore } from 'result-views/http'
import { createPostgresContinuationStore, migrate } from 'result-views/postgres'
import { useTestDatabase } from './support/database.js'

const db = useTestDatabase('scope_surrogate')
const result = (scope_key: string) => ({ scope_key, tool_id: 'docs__dump', total_bytes: 20, parts: [{ start: 10, part: 2, bytes_from: 10, text: 'x'.repeat(10) }] })

async function stores(tablePrefix: string): Promise<Array<[string, ContinuationStore]>> {
  await migrate({ pool: db.pool, tablePrefix })
  return [
    ['memory', createMemoryContinuationStore()],
    ['postgres', createPostgresContinuationStore({ pool: db.pool, tablePrefix })],
  ]
}

describe('scope keys with a lone surrogate', () => {
  it("'S\\ud800' and 'S\\ufffd' are two scopes on PostgreSQL as in memory", async () => {
    const now = Date.now()
    for (const [name, store] of await stores('surr1_')) {
      const lone = await store.put(result('S\ud800'), now)
      const replaced = await store.put(result('S\ufffd'), now)
      expect([name, await store.read(lone!, 10, 'S\ufffd', now)]).toEqual([name, { kind: 'foreign' }])
      expect([name, await store.read(replaced!, 10, 'S\ud800', now)]).toEqual([name, { kind: 'foreign' }])
      expect([name, (await store.read(lone!, 10, 'S\ud800', now)).kind]).toEqual([name, 'found'])
      expect([name, (await store.read(replaced!, 10, 'S\ufffd', now)).kind]).toEqual([name, 'found'])
    }
  })

  it('any two different scope keys are two scopes on PostgreSQL (surrogate halves, escapes, U+FFFD)', { timeout: 60_000 }, async () => {
    await migrate({ pool: db.pool, tablePrefix: 'surr2_' })
    const store = createPostgresContinuationStore({ pool: db.pool, tablePrefix: 'surr2_' })
    const now = Date.now()
    const key = fc.array(fc.constantFrom('S', '\ud800', '\udc00', '\ud83d', '\ude00', '\ufffd', '\\', 'u'), { maxLength: 5 }).map((units) => units.join(''))
    await fc.assert(
      fc.asyncProperty(key, key, async (a, b) => {
        fc.pre(a !== b)
        const id = await store.put(result(a), now)
        expect((await store.read(id!, 10, b, now)).kind).toBe('foreign')
        expect((await store.read(id!, 10, a, now)).kind).toBe('found')
      }),
      { numRuns: 60 },
    )
  })

  it('a row kept before the change (digest of the UTF-8 bytes) is still read by its well-formed scope', async () => {
    const tablePrefix = 'surr3_'
    await migrate({ pool: db.pool, tablePrefix })
    const store = createPostgresContinuationStore({ pool: db.pool, tablePrefix })
    const now = Date.now()
    const scope = JSON.stringify({ workspace_id: 'ws-é😀' })
    const id = await store.put(result(scope), now)
    const { rows } = await db.pool.query(`SELECT scope_digest FROM "${tablePrefix}continuations" WHERE result_id = $1`, [id])
    expect(rows[0].scope_digest).toBe(createHash('sha256').update(scope, 'utf8').digest('hex'))
  })
})
