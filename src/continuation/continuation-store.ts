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

/** One part of a kept result after the first (the first is returned by the call itself). */
export interface ContinuationPart {
  /** Code-unit index of the part's first character in the whole JSON text (a handle names it). Integer ≥ 1. */
  readonly start: number
  /** 1-based index of the part (2 for the first one kept). */
  readonly part: number
  /** UTF-8 byte offset of the part in the whole JSON text. */
  readonly bytes_from: number
  /** The part's JSON text: well-formed, never cut inside a surrogate pair or an escape. */
  readonly text: string
  /** The `start` of the next part; absent on the last part. */
  readonly next?: number
}

/** What a surface keeps of one cut result: who made it, and every part after the first. Never the call's input. */
export interface ContinuationResult {
  /** The canonical key of the scope that made the result (only the same scope reads its parts). */
  readonly scope_key: string
  /** The tool that made the result. */
  readonly tool_id: string
  /** The view the result holds, when the tool has views. */
  readonly result_view?: string
  /** UTF-8 bytes of the whole JSON text (the first part included): what counts against `maxBytes`. */
  readonly total_bytes: number
  /** Parts 2 to n, in order. */
  readonly parts: readonly ContinuationPart[]
}

/** One part found, with the facts of its result a part's note names. */
export interface ContinuationFound extends ContinuationPart {
  /** The tool that made the result. */
  readonly tool_id: string
  /** The view the result holds, when the tool has views. */
  readonly result_view?: string
  /** UTF-8 bytes of the whole JSON text. */
  readonly total_bytes: number
}

/**
 * What a read finds: the part; `unknown` (no such result or part, or one no longer kept),
 * `expired` (past its TTL at `now`: the result is dropped, so the next read is `unknown`), or
 * `foreign` (kept for another scope key: nothing of it is answered).
 */
export type ContinuationRead = { readonly kind: 'found'; readonly part: ContinuationFound } | { readonly kind: 'unknown' | 'expired' | 'foreign' }

/**
 * The store behind result continuations (`docs/mcp.md` "Result size limits"), pluggable as the
 * approval stores are: the memory store of each surface by default (`createMemoryContinuationStore`),
 * or one on a database that several instances share (`createPostgresContinuationStore` of
 * `result-views/postgres`), so that a handle issued by one instance is read back on any other.
 *
 * A store is bounded by entries, bytes and time ({@link ContinuationStoreOptions}, given to its
 * factory): `put` drops expired results first, then the oldest, until the new one fits. Instants
 * are epoch milliseconds from the surface's clock. A method that throws or rejects fails that call
 * typed (`continuation_unavailable` / `store_failed`; past the surface's bound, `store_timeout`);
 * nothing else is changed by it. `result-views/testing` has a conformance suite
 * (`describeContinuationStoreConformance`).
 */
export interface ContinuationStore {
  /**
   * Keeps the parts of a result. Resolves to the result's ID (`[0-9a-f-]{36}`, a random UUID, as
   * handles name it), or `undefined` when nothing was kept: the result alone is larger than
   * `maxBytes` (its `total_bytes`). The stores of this package throw a `RangeError` naming the
   * field for a `now` that is not finite or a count that is not an integer (`NaN` included).
   */
  put(result: ContinuationResult, now: number): Promise<string | undefined>
  /** Reads the part of result `id` that starts at code unit `start`, for the scope key asking (see {@link ContinuationRead}). */
  read(id: string, start: number, scopeKey: string, now: number): Promise<ContinuationRead>
  /** Drops every result past its TTL at `now`. Resolves to how many were dropped. */
  deleteExpired(now: number): Promise<number>
}

/**
 * Checks the numbers of a `put` every store takes alike, so a store never keeps (or a database
 * driver never refuses raw) a result it could not count: `now` a finite number, `total_bytes` an
 * integer ≥ 0, each part's `start` and `part` integers ≥ 1, `bytes_from` an integer ≥ 0 and `next`,
 * when given, an integer ≥ 1.
 *
 * @throws RangeError naming the field (the surface reports a put that throws as nothing kept).
 */
export function checkContinuationPut(result: ContinuationResult, now: number): void {
  if (!Number.isFinite(now)) throw new RangeError('put: now must be a finite number of epoch milliseconds')
  if (!(Number.isSafeInteger(result.total_bytes) && result.total_bytes >= 0)) throw new RangeError('put: total_bytes must be an integer ≥ 0')
  for (const [i, part] of result.parts.entries()) {
    for (const [field, least] of [['start', 1], ['part', 1], ['bytes_from', 0]] as const) {
      if (!(Number.isSafeInteger(part[field]) && part[field] >= least)) throw new RangeError(`put: parts[${i}].${field} must be an integer ≥ ${least}`)
    }
    if (part.next !== undefined && !(Number.isSafeInteger(part.next) && part.next >= 1)) throw new RangeError(`put: parts[${i}].next must be an integer ≥ 1`)
  }
}
