import pg from 'pg'
import type { Query } from './rows.js'

/** Default server-side bound of one store write, in milliseconds: below the dispatcher's default `approvals.timeoutMs` (5000), leaving a second for the COMMIT round trip. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 4_000

/** SQLSTATEs of a transaction the server ended at its bound (`statement_timeout`, `lock_timeout`, `idle_in_transaction_session_timeout`): it rolled back. */
const CANCELED = new Set(['57014', '55P03', '25P03'])

/**
 * The error a store throws when it gave up on a write and nothing was written (`code:
 * 'store_timeout'`), or when it cannot tell whether the write took effect (`code:
 * 'store_outcome_unknown'`): the dispatcher reports each with that reason (`docs/approvals.md`
 * "Implementing the stores (for hosts)"). The driver's error is the `cause`.
 */
function storeError(code: 'store_timeout' | 'store_outcome_unknown', message: string, cause?: unknown): Error {
  const error = new Error(message, cause === undefined ? undefined : { cause })
  Object.defineProperty(error, 'code', { value: code, enumerable: true })
  return error
}

/**
 * A query function for writes, bounded on the server and on the client (`docs/approvals.md`
 * "PostgreSQL: `result-views/postgres`", `docs/deploy.md` "Several instances"): each write runs in
 * its own transaction on a connection of the pool, `BEGIN; SET LOCAL statement_timeout; SET LOCAL
 * lock_timeout; SET LOCAL idle_in_transaction_session_timeout` to what is left of `timeoutMs`, the
 * statement, then `COMMIT`. One deadline, `timeoutMs` from the call, covers everything before
 * COMMIT, so a write the caller is told failed can never land afterwards:
 *
 * - no connection within `timeoutMs` (the pool is exhausted): nothing is sent; a connection that
 *   arrives later is handed back at once. Throws `code: 'store_timeout'`.
 * - the server canceled the statement at its bound (SQLSTATE 57014, 55P03): rolled back. Throws
 *   `code: 'store_timeout'`.
 * - the deadline passed before COMMIT was sent (a stalled server or network, whose statements the
 *   server's own bounds do not count): the connection is destroyed, so the server rolls the
 *   transaction back, and COMMIT is never sent. Throws `code: 'store_timeout'` at once.
 * - the client stalled inside the transaction (a paused process holding a lock): the server ends
 *   its session after `timeoutMs` idle (`idle_in_transaction_session_timeout`), rolling back.
 * - the connection failed, or COMMIT got no answer within what is left of `timeoutMs` (at least
 *   250 ms), after COMMIT was sent: the outcome is unknown. The connection is destroyed. Throws
 *   `code: 'store_outcome_unknown'`.
 * - any other error before COMMIT: rolled back, the driver's error is thrown as it is.
 */
export function boundedWrites(pool: pg.Pool, timeoutMs: number): Query {
  const steps = boundedSteps(pool, timeoutMs)
  return (text, values) => steps([[text, values]])
}

/** One statement of a bounded transaction: its text and parameters. */
export type Step = readonly [text: string, values: readonly unknown[]]

/**
 * As {@link boundedWrites}, for several statements in one transaction under one bound (e.g. an
 * advisory lock, then the write it serialises): the result is the last statement's.
 */
export function boundedSteps(pool: pg.Pool, timeoutMs: number): (steps: readonly Step[]) => Promise<pg.QueryResult> {
  return async (steps) => {
    const deadline = performance.now() + timeoutMs
    return inTransaction(await connectWithin(pool, timeoutMs), steps, deadline, timeoutMs)
  }
}

/** What is left of a deadline, in whole milliseconds, at least 1. */
const leftOf = (deadline: number): number => Math.max(1, Math.floor(deadline - performance.now()))

/** The transaction of {@link boundedSteps} on a connection of the pool, which it releases (destroyed when its state is unknown). */
async function inTransaction(client: pg.PoolClient, steps: readonly Step[], deadline: number, timeoutMs: number): Promise<pg.QueryResult> {
  const left = (): number => leftOf(deadline)
  let committing = false
  let broken: Error | undefined
  try {
    const result = await beforeDeadline(left(), async () => {
      const bound = left()
      await client.query(`BEGIN; SET LOCAL statement_timeout = ${bound}; SET LOCAL lock_timeout = ${bound}; SET LOCAL idle_in_transaction_session_timeout = ${bound}`)
      let last: pg.QueryResult | undefined
      for (const [text, values] of steps) last = await client.query(text, values as unknown[])
      return last!
    })
    committing = true
    await commitWithin(client, Math.max(250, left()))
    return result
  } catch (error) {
    if (error instanceof DeadlinePassed) {
      // The connection is destroyed with the transaction open: the server can only roll it back.
      broken = error
      throw storeError('store_timeout', `the write got no answer within ${timeoutMs} ms: its connection was closed before COMMIT, so nothing was written`, error)
    }
    // A COMMIT the server answered with an error rolled back; any other failure after it was sent leaves the outcome unknown.
    if (committing && !serverAnswered(error)) {
      broken = error instanceof Error ? error : new Error('COMMIT failed')
      throw storeError('store_outcome_unknown', 'the connection failed after COMMIT was sent: the write may or may not have taken effect', error)
    }
    if (committing) throw error
    try {
      await client.query('ROLLBACK')
    } catch (rollback) {
      broken = rollback instanceof Error ? rollback : new Error('ROLLBACK failed')
    }
    if (serverAnswered(error) && CANCELED.has((error as { code: string }).code)) throw storeError('store_timeout', `the write was canceled on the server after ${timeoutMs} ms and rolled back`, error)
    throw error
  } finally {
    // A connection in an unknown state is destroyed (`release(error)`), never handed to the next caller.
    client.release(broken)
  }
}

/** How long past the server's bound a one-trip write waits for its answer, in milliseconds: the server's cancel is one round trip away. */
export const ANSWER_GRACE_MS = 250

/**
 * A query function for single-statement writes whose late landing is harmless (the token store's:
 * a late `consume` spends a token whose call did not run, a late `insert` stores a token nobody was
 * handed, a late purge deletes what had expired), in one round trip (`docs/approvals.md` "One
 * round trip for token writes"). The bounds the statement runs under, `statement_timeout` and
 * `lock_timeout` set to what is left of `timeoutMs`, travel in the same network write as the
 * statement: `SELECT set_config(…, true)` (which is `SET LOCAL`), the statement, and one Sync, so
 * both run in one implicit transaction that commits at the Sync, rolls back on any error, and
 * leaves the session's own settings (the host's pool's) as they were.
 *
 * - no connection within `timeoutMs`: nothing is sent. Throws `code: 'store_timeout'`.
 * - the server canceled the statement at its bound (SQLSTATE 57014, 55P03): rolled back. Throws
 *   `code: 'store_timeout'`.
 * - any other error the server answered: rolled back, the driver's error is thrown as it is.
 * - no answer within what is left of `timeoutMs` plus {@link ANSWER_GRACE_MS} (a frozen server or
 *   network, which the server's bounds do not count), or the connection failed: the statement was
 *   sent and commits on its own, so the outcome is unknown. The connection is destroyed. Throws
 *   `code: 'store_outcome_unknown'`.
 *
 * A connection that does not speak node-postgres' protocol interface (e.g. `pg-native`) takes the
 * transaction of {@link boundedWrites} instead.
 *
 * @throws TypeError, before anything is sent, for a parameter that is not a string, a finite or
 *   non-finite number, a boolean or null.
 */
export function oneTripWrites(pool: pg.Pool, timeoutMs: number): Query {
  return async (text, values) => {
    const deadline = performance.now() + timeoutMs
    const parameters = values.map(wireValue)
    const client = await connectWithin(pool, timeoutMs)
    if (!speaksProtocol(client)) return inTransaction(client, [[text, values]], deadline, timeoutMs)
    let broken: Error | undefined
    try {
      const bound = leftOf(deadline)
      const results = await beforeDeadline(bound + ANSWER_GRACE_MS, () => new Promise<pg.QueryResult | pg.QueryResult[]>((resolve, reject) => {
        client.query(new BoundedStatement(bound, text, parameters, (error, result) => (error ? reject(error) : resolve(result))))
      }))
      return Array.isArray(results) ? results[results.length - 1]! : results
    } catch (error) {
      if (error instanceof DeadlinePassed) {
        broken = error
        throw storeError('store_outcome_unknown', `the write was sent and got no answer within ${timeoutMs + ANSWER_GRACE_MS} ms: it may or may not have taken effect`, error)
      }
      // The server answered: the implicit transaction did not commit.
      if (serverAnswered(error)) {
        if (CANCELED.has((error as { code: string }).code)) throw storeError('store_timeout', `the write was canceled on the server after ${timeoutMs} ms and rolled back`, error)
        throw error
      }
      broken = error instanceof Error ? error : new Error('the write failed')
      throw storeError('store_outcome_unknown', 'the connection failed after the write was sent: it may or may not have taken effect', error)
    } finally {
      client.release(broken)
    }
  }
}

/** The bounds of a one-trip write, `$1` milliseconds each, local to its transaction. */
const BOUNDS = "SELECT set_config('statement_timeout', $1, true), set_config('lock_timeout', $1, true)"

/** A parameter as node-postgres sends it in text format (as its own `prepareValue` does for these types). */
function wireValue(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  throw new TypeError(`a one-trip write takes strings, numbers, booleans and null as parameters, not ${typeof value}`)
}

/** True for a node-postgres client whose connection writes protocol messages ({@link BoundedStatement} needs them). */
function speaksProtocol(client: pg.PoolClient): boolean {
  try {
    const connection = (client as { connection?: Partial<pg.Connection> }).connection
    return typeof connection === 'object' && connection !== null && ['parse', 'bind', 'describe', 'execute', 'sync'].every((name) => typeof (connection as Record<string, unknown>)[name] === 'function')
  } catch {
    return false
  }
}

/**
 * A node-postgres query (its result handling is `pg.Query`'s) that sends, in one corked network
 * write, the bounds (`set_config(…, true)`), then the statement with its parameters, then one Sync:
 * the extended protocol runs everything before a Sync in one implicit transaction. The callback
 * gets both results; the statement's is the last.
 */
class BoundedStatement extends pg.Query {
  constructor(bound: number, text: string, parameters: readonly (string | null)[], callback: (error: Error | undefined, result: pg.QueryResult | pg.QueryResult[]) => void) {
    super({ text, values: [...parameters] }, callback as never)
    this.submit = (connection: pg.Connection): void => {
      const stream = connection.stream as { cork?: () => void; uncork?: () => void }
      stream.cork?.()
      try {
        for (const [statement, values] of [[BOUNDS, [String(bound)]], [text, parameters]] as const) {
          connection.parse({ name: '', text: statement, types: [] }, true)
          connection.bind({ portal: '', statement: '', values: [...values] }, true)
          connection.describe({ type: 'P', name: '' }, true)
          connection.execute({ portal: '' }, true)
        }
        connection.sync()
      } finally {
        stream.uncork?.()
      }
    }
  }
}

/** The deadline of a transaction passed before COMMIT was sent. */
class DeadlinePassed extends Error {}

/**
 * `run()`, or a rejection with {@link DeadlinePassed} once `waitMs` passed without it settling.
 * The statements still in flight then fail when the caller destroys the connection; their
 * rejections are absorbed here.
 */
function beforeDeadline<T>(waitMs: number, run: () => Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    let late = false
    const timer = setTimeout(() => {
      late = true
      reject(new DeadlinePassed(`no answer within ${waitMs} ms before COMMIT`))
    }, waitMs)
    run().then(
      (value) => {
        clearTimeout(timer)
        if (!late) resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        if (!late) reject(error)
      },
    )
  })
}

/** True for an error the server sent (node-postgres' `DatabaseError`: a SQLSTATE and a severity), not a failing connection. */
function serverAnswered(error: unknown): boolean {
  try {
    return typeof (error as { severity?: unknown }).severity === 'string' && typeof (error as { code?: unknown }).code === 'string'
  } catch {
    return false
  }
}

/** A pool connection within `timeoutMs`; one that arrives later is released unused. */
function connectWithin(pool: pg.Pool, timeoutMs: number): Promise<pg.PoolClient> {
  return new Promise((resolve, reject) => {
    let late = false
    const timer = setTimeout(() => {
      late = true
      reject(storeError('store_timeout', `no connection of the pool within ${timeoutMs} ms: nothing was sent`))
    }, timeoutMs)
    pool.connect().then(
      (client) => {
        clearTimeout(timer)
        if (late) client.release()
        else resolve(client)
      },
      (error: unknown) => {
        clearTimeout(timer)
        if (!late) reject(error)
      },
    )
  })
}

/** `COMMIT`, or a rejection once `waitMs` passed without its answer (the caller then destroys the connection). */
function commitWithin(client: pg.PoolClient, waitMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`COMMIT got no answer within ${waitMs} ms`)), waitMs)
    client.query('COMMIT').then(
      () => {
        clearTimeout(timer)
        resolve()
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })
}
