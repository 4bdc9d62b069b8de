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
 * True for a string PostgreSQL text can hold as sent: no U+0000 (the server refuses it). A lookup
 * by a key it cannot hold finds nothing, without asking the server. (Lone surrogates reach the
 * server as U+FFFD; the columns they could confuse hold JSON text instead: see docs/approvals.md
 * "Running on several machines".)
 */
export function storable(value: unknown): value is string {
  return typeof value === 'string' && !value.includes('\u0000')
}

/**
 * The SQL of an instant given as epoch milliseconds (a `$n` parameter): `to_timestamp($n::float8 / 1000)`.
 * Instants go to the server as the numbers `Date.parse` reads from the records' ISO strings, so the
 * database compares exactly what the dispatcher compares, for every date JavaScript can hold
 * (PostgreSQL's own parser refuses the `+010000-…` form of years past 9999); `NaN` is refused by
 * the server, so a record with an unreadable time is never stored.
 */
export const instant = (parameter: string): string => `to_timestamp(${parameter}::float8 / 1000)`
