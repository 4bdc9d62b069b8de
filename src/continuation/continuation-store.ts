import { randomUUID } from 'node:crypto'

/**
 * Options of the bounded store that keeps the rest of results cut into parts
 * (`docs/mcp.md` "Result size limits"). Every bound is enforced on each store: the oldest entries
 * are dropped first.
 */
export interface ContinuationStoreOptions {
  /** Most results kept at once. Integer ≥ 1, default 100. */
  maxEntries?: number
  /** Most UTF-8 bytes of JSON text kept over all results. Integer ≥ 1, default 64 MiB (67,108,864). */
  maxBytes?: number
  /** How long a result's continuation stays usable after the call that made it, in milliseconds. Integer ≥ 1, default 600,000 (10 min). */
  ttlMs?: number
}

/** The defaults of {@link ContinuationStoreOptions}. */
export const CONTINUATION_DEFAULTS = Object.freeze({ maxEntries: 100, maxBytes: 64 * 1024 * 1024, ttlMs: 600_000 })

/** One kept result: its JSON text, where its parts end, and whom it belongs to. Never the call's input. */
export interface ContinuationEntry {
  readonly id: string
  /** The JSON text of the selected view's record, whole. */
  readonly text: string
  /** UTF-8 bytes of `text`. */
  readonly totalBytes: number
  /** The canonical key of the scope that made the result. */
  readonly scopeKey: string
  /** The tool that made the result. */
  readonly toolId: string
  /** The view the result holds, when the tool has views. */
  readonly resultView: string | undefined
  /** Epoch milliseconds after which the entry is expired. */
  readonly expiresAt: number
  /** Part starts handed out (code-unit index → 1-based part number and UTF-8 byte offset). */
  readonly starts: Map<number, { readonly part: number; readonly bytesFrom: number }>
}

/** What a look-up finds. */
export type ContinuationLookup =
  | { readonly kind: 'found'; readonly entry: ContinuationEntry; readonly start: number; readonly part: number; readonly bytesFrom: number }
  | { readonly kind: 'unknown' | 'expired' | 'foreign' }

/** The handle format: `rvc_<uuid>_<start>`. */
const HANDLE = /^rvc_([0-9a-f-]{36})_(0|[1-9][0-9]{0,15})$/

/**
 * The store behind result continuations: a `Map` in insertion order, bounded by entries and
 * bytes (oldest dropped first) and by time (expired entries answer `expired` until swept).
 */
export class ContinuationStore {
  readonly #entries = new Map<string, ContinuationEntry>()
  readonly #maxEntries: number
  readonly #maxBytes: number
  readonly #ttlMs: number
  readonly #now: () => number
  #bytes = 0

  constructor(options: Required<ContinuationStoreOptions>, now: () => number = Date.now) {
    this.#maxEntries = options.maxEntries
    this.#maxBytes = options.maxBytes
    this.#ttlMs = options.ttlMs
    this.#now = now
  }

  /** How many results are kept, and their UTF-8 bytes (for tests and metrics). */
  get size(): { readonly entries: number; readonly bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes }
  }

  /**
   * Keeps a result whose first part ends at `firstEnd`. Returns `undefined` (nothing kept) when the
   * text alone is larger than `maxBytes`.
   */
  put(init: { text: string; totalBytes: number; scopeKey: string; toolId: string; resultView: string | undefined }): ContinuationEntry | undefined {
    if (init.totalBytes > this.#maxBytes) return undefined
    // Expired entries stay (answering `expired`) until room is needed.
    if (this.#entries.size >= this.#maxEntries || this.#bytes + init.totalBytes > this.#maxBytes) this.#sweep()
    while (this.#entries.size >= this.#maxEntries || this.#bytes + init.totalBytes > this.#maxBytes) this.#dropOldest()
    const entry: ContinuationEntry = { id: randomUUID(), ...init, expiresAt: this.#now() + this.#ttlMs, starts: new Map() }
    this.#entries.set(entry.id, entry)
    this.#bytes += init.totalBytes
    return entry
  }

  /** The handle of the part of `entry` that starts at code unit `start`, recorded as usable. */
  handleOf(entry: ContinuationEntry, start: number, part: number, bytesFrom: number): string {
    entry.starts.set(start, { part, bytesFrom })
    return `rvc_${entry.id}_${start}`
  }

  /** Finds the part a handle names, for the scope asking. */
  lookup(handle: unknown, scopeKey: string): ContinuationLookup {
    const match = typeof handle === 'string' ? HANDLE.exec(handle) : null
    if (match === null) return { kind: 'unknown' }
    const entry = this.#entries.get(match[1]!)
    const start = Number(match[2])
    const issued = entry?.starts.get(start)
    if (entry === undefined || issued === undefined) return { kind: 'unknown' }
    if (this.#now() >= entry.expiresAt) {
      this.#delete(entry)
      return { kind: 'expired' }
    }
    if (entry.scopeKey !== scopeKey) return { kind: 'foreign' }
    return { kind: 'found', entry, start, part: issued.part, bytesFrom: issued.bytesFrom }
  }

  #sweep(): void {
    const now = this.#now()
    for (const entry of this.#entries.values()) if (now >= entry.expiresAt) this.#delete(entry)
  }

  #dropOldest(): void {
    const oldest = this.#entries.values().next()
    if (!oldest.done) this.#delete(oldest.value)
  }

  #delete(entry: ContinuationEntry): void {
    if (this.#entries.delete(entry.id)) this.#bytes -= entry.totalBytes
  }
}
