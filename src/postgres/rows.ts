import type pg from 'pg'

/** The one query method the stores use: a pool's (each call runs on some connection of the pool, as one statement). */
export type Query = (text: string, values: readonly unknown[]) => Promise<pg.QueryResult>

/** A query function bound to the pool. */
export function queryOn(pool: pg.Pool): Query {
  return (text, values) => pool.query(text, values as unknown[])
}

/**
 * A record read back: the `record` column's JSON text, parsed into a new object (so every read is
 * a copy; JSON-parsed `__proto__` keys stay own data keys).
 *
 * @throws TypeError when the column is not text (a host type parser changed it): the call then
 *   fails closed.
 */
export function parseRecord<T>(row: { record?: unknown } | undefined): T | undefined {
  if (row === undefined) return undefined
  if (typeof row.record !== 'string') throw new TypeError('the record column did not come back as text')
  return JSON.parse(row.record) as T
}

/**
 * True for a string PostgreSQL text holds exactly as sent: no U+0000 (the server refuses it) and
 * no lone surrogate (node-postgres sends it as U+FFFD, which would make `"a\ud800"` and
 * `"a\ufffd"` one key). A lookup by any other key finds nothing, without asking the server; a
 * write of one is refused ({@link requireTextKey}). Workspace IDs, which callers choose, are keyed
 * as JSON text instead, so every string works there (see `docs/approvals.md` "The tables").
 */
export function isTextKey(value: unknown): value is string {
  return typeof value === 'string' && !value.includes('\u0000') && (value as string & { isWellFormed(): boolean }).isWellFormed()
}

/**
 * Refuses to write a key column PostgreSQL text cannot hold exactly: the store call then fails
 * (and the dispatcher fails closed with `approval_unavailable`) instead of storing a record that
 * no lookup could find. The library's own IDs (UUIDs, hex hashes) always pass.
 *
 * @throws RangeError naming the field.
 */
export function requireTextKey(value: unknown, field: string): string {
  if (!isTextKey(value)) throw new RangeError(`${field} holds U+0000 or a lone surrogate, which a PostgreSQL text key cannot hold exactly`)
  return value
}

/**
 * The SQL of an instant given as epoch milliseconds (a `$n` parameter): `to_timestamp($n::float8 / 1000)`.
 * Instants go to the server as the numbers `Date.parse` reads from the records' ISO strings, so the
 * database compares exactly what the dispatcher compares, for every date JavaScript can hold
 * (PostgreSQL's own parser refuses the `+010000-…` form of years past 9999); `NaN` is refused by
 * the server, so a record with an unreadable time is never stored.
 */
export const instant = (parameter: string): string => `to_timestamp(${parameter}::float8 / 1000)`
