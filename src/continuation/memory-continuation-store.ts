import { randomUUID } from 'node:crypto'
import type { UsageProblem } from 'result-views'
import { optionsTable, readOptions } from '../options/options.js'
import { appendPointer } from '../json/pointer.js'
import { CONTINUATION_DEFAULTS, checkContinuationPut, type ContinuationPart, type ContinuationRead, type ContinuationResult, type ContinuationStore, type ContinuationStoreOptions } from './continuation-store.js'
import { ContinuationStoreOptionsError } from './continuation-store-options-error.js'

/** One kept result. */
interface Entry {
  readonly id: string
  readonly scopeKey: string
  readonly toolId: string
  readonly resultView: string | undefined
  readonly totalBytes: number
  readonly expiresAt: number
  readonly parts: ReadonlyMap<number, ContinuationPart>
}

/** The bounds `continuations` (and the store factories) know. */
export const STORE_OPTIONS = optionsTable(['maxEntries', 'maxBytes', 'ttlMs'])

/**
 * Reads the bounds of a continuation store (`maxEntries`, `maxBytes`, `ttlMs`: each an integer
 * ≥ 1), pushing `invalid_limit` for a bad value and the options reader's `unknown_option`
 * (with "did you mean"), `unreadable_option`, `invalid_option` at their JSON Pointers under `path`.
 *
 * @returns a plain copy of the bounds that were given.
 */
export function readStoreBounds(given: unknown, path: string, problems: UsageProblem[], extraKeys: readonly string[] = []): ContinuationStoreOptions & Record<string, unknown> {
  const table = extraKeys.length === 0 ? STORE_OPTIONS : optionsTable([...STORE_OPTIONS.keys, ...extraKeys])
  const values = readOptions(given, table, path, problems) as Record<string, unknown>
  const read: ContinuationStoreOptions & Record<string, unknown> = {}
  for (const key of extraKeys) if (values[key] !== undefined) read[key] = values[key]
  for (const key of STORE_OPTIONS.keys) {
    const value = values[key]
    if (value === undefined) continue
    if (!Number.isSafeInteger(value) || (value as number) < 1) problems.push({ path: appendPointer(path, key), code: 'invalid_limit', message: `${key} must be an integer ≥ 1` })
    else read[key as keyof ContinuationStoreOptions] = value as number
  }
  return read
}

/**
 * A continuation store in this process's memory (the default of `result-views/http` and
 * `result-views/mcp`): a `Map` in insertion order, bounded by entries and bytes (oldest dropped
 * first) and by time (an expired result answers `expired` once, until swept). Its handles are read
 * back only by the process that made them: behind a load balancer, give every instance one store on
 * a shared database (`result-views/postgres`, `docs/deploy.md` "Several instances").
 *
 * @param options - `{ maxEntries?, maxBytes?, ttlMs? }` (defaults 100, 64 MiB, 10 min).
 * @throws ContinuationStoreOptionsError (`continuation_store_options_invalid`) listing every bad option.
 */
export function createMemoryContinuationStore(options: ContinuationStoreOptions = {}): ContinuationStore {
  const problems: UsageProblem[] = []
  const bounds = readStoreBounds(options, '', problems)
  if (problems.length > 0) throw new ContinuationStoreOptionsError(problems)
  return memoryStore({ ...CONTINUATION_DEFAULTS, ...bounds })
}

/** The memory store of checked bounds. */
export function memoryStore(bounds: Required<ContinuationStoreOptions>): ContinuationStore {
  const { maxEntries, maxBytes, ttlMs } = bounds
  const entries = new Map<string, Entry>()
  let bytes = 0
  const drop = (entry: Entry): void => {
    if (entries.delete(entry.id)) bytes -= entry.totalBytes
  }
  const sweep = (now: number): number => {
    let dropped = 0
    for (const entry of entries.values()) {
      if (now >= entry.expiresAt) {
        drop(entry)
        dropped++
      }
    }
    return dropped
  }
  return Object.freeze({
    async put(result: ContinuationResult, now: number): Promise<string | undefined> {
      checkContinuationPut(result, now)
      const totalBytes = result.total_bytes
      if (totalBytes > maxBytes) return undefined
      // Expired entries stay (answering `expired`) until room is needed.
      if (entries.size >= maxEntries || bytes + totalBytes > maxBytes) sweep(now)
      while (entries.size >= maxEntries || bytes + totalBytes > maxBytes) {
        const oldest = entries.values().next()
        if (oldest.done) break
        drop(oldest.value)
      }
      const parts = new Map<number, ContinuationPart>()
      for (const part of result.parts) parts.set(part.start, { ...part })
      const entry: Entry = { id: randomUUID(), scopeKey: result.scope_key, toolId: result.tool_id, resultView: result.result_view, totalBytes, expiresAt: now + ttlMs, parts }
      entries.set(entry.id, entry)
      bytes += totalBytes
      return entry.id
    },
    async read(id: string, start: number, scopeKey: string, now: number): Promise<ContinuationRead> {
      const entry = entries.get(id)
      const part = entry?.parts.get(start)
      if (entry === undefined || part === undefined) return { kind: 'unknown' }
      if (now >= entry.expiresAt) {
        drop(entry)
        return { kind: 'expired' }
      }
      if (entry.scopeKey !== scopeKey) return { kind: 'foreign' }
      const found = { ...part, tool_id: entry.toolId, total_bytes: entry.totalBytes }
      return { kind: 'found', part: entry.resultView === undefined ? found : { ...found, result_view: entry.resultView } }
    },
    async deleteExpired(now: number): Promise<number> {
      return sweep(now)
    },
  })
}
