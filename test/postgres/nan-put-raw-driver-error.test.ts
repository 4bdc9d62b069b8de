// The PostgreSQL continuation store rejected a put with NaN (as total_bytes, or as now) with the
// driver's raw error, while the memory store kept it (a result it could not count against maxBytes,
// or that never expires). Both now refuse it the same typed way: a RangeError naming the field,
// before anything is sent or kept.
import { describe, expect, it } from 'vitest'
import { createMemoryContinuationStore, type ContinuationStore } from 'result-views/http'
import { createPostgresContinuationStore, migrate } from 'result-views/postgres'
import { useTestDatabase } from './support/database.js'

const db = useTestDatabase('nan_put')
const result = { scope_key: 'S', tool_id: 'docs__dump', total_bytes: 20, parts: [{ start: 10, part: 2, bytes_from: 10, text: 'x'.repeat(10) }] }

describe('a put with a number that is not one', () => {
  it('memory and PostgreSQL refuse it alike with a RangeError naming the field, and keep nothing', async () => {
    const tablePrefix = 'nan1_'
    await migrate({ pool: db.pool, tablePrefix })
    const stores: Array<[string, ContinuationStore]> = [
      ['memory', createMemoryContinuationStore()],
      ['postgres', createPostgresContinuationStore({ pool: db.pool, tablePrefix })],
    ]
    const now = Date.now()
    const cases: Array<[Parameters<ContinuationStore['put']>, string]> = [
      [[{ ...result, total_bytes: NaN }, now], 'put: total_bytes must be an integer ≥ 0'],
      [[{ ...result, total_bytes: -1 }, now], 'put: total_bytes must be an integer ≥ 0'],
      [[result, NaN], 'put: now must be a finite number of epoch milliseconds'],
      [[result, Infinity], 'put: now must be a finite number of epoch milliseconds'],
      [[{ ...result, parts: [{ ...result.parts[0]!, bytes_from: NaN }] }, now], 'put: parts[0].bytes_from must be an integer ≥ 0'],
      [[{ ...result, parts: [{ ...result.parts[0]!, start: 1.5 }] }, now], 'put: parts[0].start must be an integer ≥ 1'],
      [[{ ...result, parts: [{ ...result.parts[0]!, next: NaN }] }, now], 'put: parts[0].next must be an integer ≥ 1'],
    ]
    for (const [name, store] of stores) {
      for (const [args, message] of cases) {
        const refused = await store.put(...args).catch((error: unknown) => error)
        expect([name, refused instanceof RangeError, (refused as Error).message]).toEqual([name, true, message])
      }
    }
    expect((await db.pool.query(`SELECT count(*)::int AS n FROM "${tablePrefix}continuations"`)).rows[0].n).toBe(0)
  })
})
