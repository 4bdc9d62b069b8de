// The continuation store conformance suite passed a store that never drops expired results first
// (with one TTL and puts in clock order, the expired result is always the oldest, so dropping the
// oldest looked right) and a store that keeps the caller's object by reference. The suite now has
// a case for each; run here on such wrong stores, each fails exactly where it should, and the
// memory store passes every case.
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createMemoryContinuationStore, type ContinuationRead, type ContinuationResult, type ContinuationStore } from 'result-views/http'
import { describeContinuationStoreConformance, type ContinuationStoreFactory } from 'result-views/testing'

type Bounds = Parameters<ContinuationStoreFactory>[0]

/** A store right in everything but `bug`. */
function handStore(bounds: Bounds, bug: 'noExpiredFirst' | 'byReference' | 'none'): ContinuationStore {
  const entries = new Map<string, { result: ContinuationResult; expiresAt: number }>()
  return {
    async put(result, now) {
      if (result.total_bytes > bounds.maxBytes) return undefined
      if (bug !== 'noExpiredFirst') for (const [id, entry] of entries) if (entry.expiresAt <= now) entries.delete(id)
      const bytes = () => [...entries.values()].reduce((sum, entry) => sum + entry.result.total_bytes, 0)
      while (entries.size > 0 && (entries.size >= bounds.maxEntries || bytes() + result.total_bytes > bounds.maxBytes)) entries.delete(entries.keys().next().value!)
      const id = randomUUID()
      entries.set(id, { result: bug === 'byReference' ? result : structuredClone(result), expiresAt: now + bounds.ttlMs })
      return id
    },
    async read(id, start, scopeKey, now): Promise<ContinuationRead> {
      const entry = entries.get(id)
      const part = entry?.result.parts.find((candidate) => candidate.start === start)
      if (entry === undefined || part === undefined) return { kind: 'unknown' }
      if (entry.expiresAt <= now) {
        entries.delete(id)
        return { kind: 'expired' }
      }
      if (entry.result.scope_key !== scopeKey) return { kind: 'foreign' }
      const found = { ...part, tool_id: entry.result.tool_id, total_bytes: entry.result.total_bytes }
      return { kind: 'found', part: entry.result.result_view === undefined ? found : { ...found, result_view: entry.result.result_view } }
    },
    async deleteExpired(now) {
      let dropped = 0
      for (const [id, entry] of entries) if (entry.expiresAt <= now && entries.delete(id)) dropped++
      return dropped
    },
  }
}

/** Runs the suite on `factory` outside the runner: the name of every case that fails. */
async function failingCases(factory: ContinuationStoreFactory): Promise<string[]> {
  const cases: Array<[string, () => Promise<void>]> = []
  describeContinuationStoreConformance('under test', factory, { describe: (_name, body) => body(), it: (name, body) => void cases.push([name, body]), expect })
  const failed: string[] = []
  for (const [name, body] of cases) await body().catch(() => failed.push(name))
  return failed
}

describe('the continuation store conformance suite on wrong stores', () => {
  it('fails a store that drops the oldest result before an expired newer one, in that case only', async () => {
    expect(await failingCases((bounds) => handStore(bounds, 'noExpiredFirst'))).toEqual(['drops an expired result even when it is newer than a live one (puts from clocks that disagree)'])
  })

  it("fails a store that keeps the caller's result by reference, in that case only", async () => {
    expect(await failingCases((bounds) => handStore(bounds, 'byReference'))).toEqual(["keeps a copy: changing the caller's result or a read part afterwards changes no later read"])
  })

  it('passes the same store without the bug, and the memory store', async () => {
    expect(await failingCases((bounds) => handStore(bounds, 'none'))).toEqual([])
    expect(await failingCases((bounds) => createMemoryContinuationStore(bounds))).toEqual([])
  })
})
