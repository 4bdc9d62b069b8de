import { clockFailed } from './errors.js'

// The instants approval records hold: ISO 8601 UTC strings with four-digit years, so that they
// compare as strings (`docs/approvals.md` "Implementing the stores (for hosts)"). Every instant the
// library writes comes from the dispatcher's clock plus at most one life (`MAX_TTL_MS`), so a
// clock answer in range and a life in range always give a valid string; a clock that answers
// anything else fails the approval operation closed (`approval_unavailable` / `clock_failed`).

/** Longest life of a pending approval or an approval token: 100 years of 365.25 days, in milliseconds. */
export const MAX_TTL_MS = 3_155_760_000_000

/** The last instant with a four-digit year: 9999-12-31T23:59:59.999Z. */
const LAST_INSTANT_MS = 253_402_300_799_999

/** The latest clock reading accepted: one longest life before the last four-digit year instant. */
const LATEST_CLOCK_MS = LAST_INSTANT_MS - MAX_TTL_MS

/**
 * The dispatcher's clock (`createDispatcher({ clock })` or `approvals.now`, a host callback) made
 * safe to read: each reading must be a finite number of epoch milliseconds from 1970 to about 9899.
 *
 * @returns a function giving the reading.
 * @throws ToolError `approval_unavailable` / `clock_failed` (from the returned function) when the
 *   host's clock throws or answers anything else (a string such as `Date()` gives, `NaN`, a `Date`).
 */
export function checkedClock(clock: () => number): () => number {
  return () => {
    let reading: unknown
    try {
      reading = clock()
    } catch (cause) {
      throw clockFailed(cause)
    }
    if (typeof reading !== 'number' || !(reading >= 0 && reading <= LATEST_CLOCK_MS)) throw clockFailed()
    return reading
  }
}

/** Whether a life in milliseconds (a token's `ttlMs`, `pendingTtlMs`) is a positive integer of at most {@link MAX_TTL_MS}. */
export function isLife(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= MAX_TTL_MS
}
