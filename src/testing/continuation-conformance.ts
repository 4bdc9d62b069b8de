import type { Awaitable } from 'result-views'
import type { ContinuationPart, ContinuationResult, ContinuationStore, ContinuationStoreOptions } from '../continuation/continuation-store.js'
import type { ConformanceDescribe, ConformanceExpect, ConformanceIt } from './conformance.js'

/** A continuation store under test, with an optional `close` the suite calls after each test. */
export type ConformanceContinuationStore = ContinuationStore & { close?(): Awaitable<void> }

/**
 * Builds a fresh, empty continuation store for one test, with exactly these bounds (a new table
 * prefix, cleared tables, ...). Every bound is given.
 */
export type ContinuationStoreFactory = (bounds: Required<ContinuationStoreOptions>) => Awaitable<ConformanceContinuationStore>

/** Options of {@link describeContinuationStoreConformance}: the test runner's `describe`, `it` and `expect`. */
export interface ContinuationStoreConformanceOptions {
  /** The runner's `describe` (vitest's, Jest's, or one with the same shape). */
  describe: ConformanceDescribe
  /** The runner's `it` (or `test`). */
  it: ConformanceIt
  /** The runner's `expect`. */
  expect: ConformanceExpect
  /** Concurrent `put`s in the bounds race. Default 20. */
  concurrency?: number
}

const T0 = Date.parse('2026-11-10T14:00:00.000Z')
const TTL = 60_000
const SCOPE = JSON.stringify({ agent_name: 'reviewer', profile_id: 'alice', session_id: 'sess-1', workspace_id: 'ws-1' })
const OTHER_SCOPE = JSON.stringify({ agent_name: 'reviewer', profile_id: 'bob', session_id: 'sess-1', workspace_id: 'ws-1' })
const ID = /^[0-9a-f-]{36}$/

/** A result of `texts` as parts 2..n (part 1 of `firstBytes` bytes, not kept), as a surface cuts it. */
function resultOf(texts: readonly string[], overrides: Partial<ContinuationResult> = {}, firstBytes = 10): ContinuationResult {
  const parts: ContinuationPart[] = []
  let start = firstBytes
  let from = firstBytes
  texts.forEach((text, i) => {
    const part: ContinuationPart = { start, part: i + 2, bytes_from: from, text }
    const next = start + text.length
    parts.push(i < texts.length - 1 ? { ...part, next } : part)
    start = next
    from += Buffer.byteLength(text, 'utf8')
  })
  const total = from
  return { scope_key: SCOPE, tool_id: 'conformance__dump', result_view: 'full', total_bytes: total, parts, ...overrides }
}

/**
 * Registers a conformance suite for a `ContinuationStore` (`result-views/http`,
 * `result-views/mcp`; `docs/mcp.md` "Result size limits") under the runner's `describe`: parts read
 * back exactly (text, numbering, offsets, the next part's start), `unknown` for what was never kept,
 * `foreign` for another scope, `expired` once past `ttlMs` and `unknown` after, `maxEntries` and
 * `maxBytes` held by dropping expired results first (also one newer than a live one, put by a
 * clock behind) and then the oldest (also under concurrent `put`s), a result larger than
 * `maxBytes` not kept, the result kept as a copy (changing the caller's object or a read part
 * afterwards changes no read), and `deleteExpired` counting what it drops.
 * The memory store and `result-views/postgres`'s pass it.
 *
 * @param name - names the suite (`continuation store conformance: <name>`).
 * @param factory - a fresh store of the given bounds per test.
 */
export function describeContinuationStoreConformance(name: string, factory: ContinuationStoreFactory, options: ContinuationStoreConformanceOptions): void {
  const { describe, it, expect } = options
  const concurrency = options.concurrency ?? 20
  const bounds = (given: Partial<ContinuationStoreOptions> = {}): Required<ContinuationStoreOptions> => ({ maxEntries: 10, maxBytes: 1_000_000, ttlMs: TTL, ...given })

  async function withStore(given: Partial<ContinuationStoreOptions>, run: (store: ContinuationStore) => Promise<void>): Promise<void> {
    const store = await factory(bounds(given))
    try {
      await run(store)
    } finally {
      await store.close?.()
    }
  }

  /** Whether result `id` still answers its first kept part. */
  async function kept(store: ContinuationStore, id: string | undefined, result: ContinuationResult, at = T0 + 1): Promise<boolean> {
    if (id === undefined) return false
    return (await store.read(id, result.parts[0]!.start, result.scope_key, at)).kind === 'found'
  }

  describe(`continuation store conformance: ${name}`, () => {
    it('reads back every part exactly: text, numbering, offsets, the next start, the result facts', () =>
      withStore({}, async (store) => {
        const result = resultOf(['{"a":"é\\n', '🙂\\u0000', '"}'])
        const id = await store.put(result, T0)
        expect(typeof id === 'string' && ID.test(id), `id ${String(id)}`).toBe(true)
        for (const part of result.parts) {
          const read = await store.read(id!, part.start, SCOPE, T0 + 1)
          expect(read).toEqual({ kind: 'found', part: { ...part, tool_id: 'conformance__dump', result_view: 'full', total_bytes: result.total_bytes } })
        }
      }))

    it('leaves result_view absent when the tool has no views', () =>
      withStore({}, async (store) => {
        const { result_view: _view, ...single } = resultOf(['[1,2]'])
        const id = await store.put(single, T0)
        const read = await store.read(id!, single.parts[0]!.start, SCOPE, T0 + 1)
        expect(read.kind).toBe('found')
        expect(read.kind === 'found' && 'result_view' in read.part).toBe(false)
      }))

    it('answers unknown for an ID never issued and for a start that is not a part', () =>
      withStore({}, async (store) => {
        const result = resultOf(['abc', 'def'])
        const id = await store.put(result, T0)
        expect(await store.read('00000000-0000-0000-0000-000000000000', result.parts[0]!.start, SCOPE, T0 + 1)).toEqual({ kind: 'unknown' })
        expect(await store.read(id!, result.parts[0]!.start + 1, SCOPE, T0 + 1)).toEqual({ kind: 'unknown' })
        expect(await store.read(id!, 1, SCOPE, T0 + 1)).toEqual({ kind: 'unknown' })
      }))

    it('answers foreign to another scope, and nothing of the part', () =>
      withStore({}, async (store) => {
        const result = resultOf(['secret-part'])
        const id = await store.put(result, T0)
        expect(await store.read(id!, result.parts[0]!.start, OTHER_SCOPE, T0 + 1)).toEqual({ kind: 'foreign' })
        expect((await store.read(id!, result.parts[0]!.start, SCOPE, T0 + 1)).kind).toBe('found')
      }))

    it('answers expired once past ttlMs, then unknown (the result is dropped)', () =>
      withStore({}, async (store) => {
        const result = resultOf(['abc'])
        const id = await store.put(result, T0)
        expect((await store.read(id!, result.parts[0]!.start, SCOPE, T0 + TTL - 1)).kind).toBe('found')
        expect(await store.read(id!, result.parts[0]!.start, SCOPE, T0 + TTL)).toEqual({ kind: 'expired' })
        expect(await store.read(id!, result.parts[0]!.start, SCOPE, T0 + TTL)).toEqual({ kind: 'unknown' })
      }))

    it('holds maxEntries by dropping the oldest', () =>
      withStore({ maxEntries: 2 }, async (store) => {
        const results = [resultOf(['a']), resultOf(['b']), resultOf(['c'])]
        const ids: (string | undefined)[] = []
        for (const [i, result] of results.entries()) ids.push(await store.put(result, T0 + i))
        expect(await Promise.all(results.map((result, i) => kept(store, ids[i], result, T0 + 3)))).toEqual([false, true, true])
      }))

    it('drops expired results before the oldest live one', () =>
      withStore({ maxEntries: 2 }, async (store) => {
        const [a, b, c] = [resultOf(['a']), resultOf(['b']), resultOf(['c'])]
        const idA = await store.put(a, T0)
        const idB = await store.put(b, T0 + TTL / 2)
        const idC = await store.put(c, T0 + TTL + 1)
        const at = T0 + TTL + 2
        expect([await kept(store, idB, b, at), await kept(store, idC, c, at)]).toEqual([true, true])
        expect((await store.read(idA!, a.parts[0]!.start, SCOPE, at)).kind === 'found').toBe(false)
      }))

    it('drops an expired result even when it is newer than a live one (puts from clocks that disagree)', () =>
      withStore({ maxEntries: 2 }, async (store) => {
        // Put first but by a clock ahead (lives longer), then put by a clock behind: the newer result expires first.
        const [ahead, behind, last] = [resultOf(['ahead']), resultOf(['behind']), resultOf(['last'])]
        const idAhead = await store.put(ahead, T0 + TTL / 2)
        const idBehind = await store.put(behind, T0)
        const idLast = await store.put(last, T0 + TTL + 1)
        const at = T0 + TTL + 2
        expect([await kept(store, idAhead, ahead, at), await kept(store, idLast, last, at)], 'the live older result and the new one stay').toEqual([true, true])
        expect((await store.read(idBehind!, behind.parts[0]!.start, SCOPE, at)).kind === 'found').toBe(false)
      }))

    it("keeps a copy: changing the caller's result or a read part afterwards changes no later read", () =>
      withStore({}, async (store) => {
        const result = resultOf(['{"a":', '1}'])
        const original = JSON.parse(JSON.stringify(result)) as ContinuationResult
        const id = await store.put(result, T0)
        const mutable = result as unknown as { tool_id: string; total_bytes: number; scope_key: string; parts: Array<Record<string, unknown>> }
        mutable.parts[0]!.text = 'changed'
        mutable.parts[0]!.next = 99
        mutable.parts[1]!.text = 'changed too'
        mutable.tool_id = 'changed__tool'
        mutable.total_bytes = 1
        mutable.parts.push({ start: 99, part: 9, bytes_from: 99, text: 'added' })
        for (const part of original.parts) {
          const read = await store.read(id!, part.start, SCOPE, T0 + 1)
          expect(read).toEqual({ kind: 'found', part: { ...part, tool_id: 'conformance__dump', result_view: 'full', total_bytes: original.total_bytes } })
          if (read.kind === 'found') (read.part as unknown as Record<string, unknown>).text = 'read and changed'
        }
        expect(await store.read(id!, 99, SCOPE, T0 + 1)).toEqual({ kind: 'unknown' })
        const again = await store.read(id!, original.parts[0]!.start, SCOPE, T0 + 1)
        expect(again.kind === 'found' && again.part.text).toBe(original.parts[0]!.text)
      }))

    it('holds maxBytes by dropping the oldest, and keeps nothing of a result larger than maxBytes', () =>
      withStore({ maxBytes: 100 }, async (store) => {
        const [a, b] = [resultOf(['x'.repeat(30)], {}, 10), resultOf(['y'.repeat(30)], {}, 10)]
        const idA = await store.put(a, T0)
        const idB = await store.put(b, T0 + 1)
        expect([await kept(store, idA, a), await kept(store, idB, b)]).toEqual([true, true])
        const c = resultOf(['z'.repeat(40)], {}, 10)
        const idC = await store.put(c, T0 + 2)
        expect([await kept(store, idA, a), await kept(store, idB, b), await kept(store, idC, c)]).toEqual([false, true, true])
        expect(await store.put(resultOf(['w'.repeat(95)], {}, 10), T0 + 3)).toBeUndefined()
        expect(await kept(store, idB, b)).toBe(true)
      }))

    it(`holds maxEntries under ${concurrency} concurrent puts: exactly maxEntries results stay`, () =>
      withStore({ maxEntries: 5 }, async (store) => {
        const results = Array.from({ length: concurrency }, (_, i) => resultOf([`part-${i}`]))
        const ids = await Promise.all(results.map((result) => store.put(result, T0)))
        expect(new Set(ids).size).toBe(concurrency)
        const alive = await Promise.all(results.map((result, i) => kept(store, ids[i], result)))
        expect(alive.filter(Boolean)).toHaveLength(5)
      }))

    it('deleteExpired drops what is past ttlMs and counts it', () =>
      withStore({}, async (store) => {
        const [a, b] = [resultOf(['a']), resultOf(['b'])]
        const idA = await store.put(a, T0)
        const idB = await store.put(b, T0 + TTL / 2)
        expect(await store.deleteExpired(T0 + TTL)).toBe(1)
        expect(await store.read(idA!, a.parts[0]!.start, SCOPE, T0 + TTL)).toEqual({ kind: 'unknown' })
        expect(await kept(store, idB, b, T0 + TTL)).toBe(true)
      }))
  })
}
