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
 * - any other error before COMMIT: rolled back, the driver's error is thrown as it is. A
 *   connection that fails before COMMIT is sent is destroyed (the server rolls back what it never
 *   saw committed) and its driver's error is thrown: nothing was written.
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
  // node-postgres rejects the statement in flight when the connection fails; the event is only noted here.
  let failed: Error | undefined
  const release = watchConnection(client, (error) => void (failed ??= error))
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
    if (failed !== undefined) {
      // The connection failed before COMMIT was sent: the server rolls back what it never saw committed.
      broken = failed
      throw error
    }
    try {
      await client.query('ROLLBACK')
    } catch (rollback) {
      broken = rollback instanceof Error ? rollback : new Error('ROLLBACK failed')
    }
    if (serverAnswered(error) && CANCELED.has((error as { code: string }).code)) throw storeError('store_timeout', `the write was canceled on the server after ${timeoutMs} ms and rolled back`, error)
    throw error
  } finally {
    // A connection in an unknown state is destroyed (`release(error)`), never handed to the next caller.
    release(broken ?? failed)
  }
}

/**
 * Listens for `'error'` on a client checked out of the pool until it is released: node-postgres
 * emits it there when the connection fails (pg-pool listens on idle clients only), and with no
 * listener Node ends the process. `failed` gets the error (the statement in flight is rejected
 * too). Returns the client's release, which removes the listener first (pg-pool's own takes over).
 */
function watchConnection(client: pg.PoolClient, failed: (error: Error) => void): (broken?: Error) => void {
  const listener = (error: Error): void => failed(error)
  client.on('error', listener)
  return (broken) => {
    client.removeListener('error', listener)
    client.release(broken)
  }
}

/** How long past the server's bound a one-trip write waits for its answer, in milliseconds: the server's cancel is one round trip away. */
export const ANSWER_GRACE_MS = 250

/** What a one-trip write answers: its statement's row count (from the command tag; rows are not read). */
export interface WriteCount {
  readonly rowCount: number | null
}

/** A write function that answers the row count only. */
export type CountingWrite = (text: string, values: readonly unknown[]) => Promise<WriteCount>

/**
 * A write function for single statements whose late landing is harmless (the token store's: a late
 * `consume` spends a token whose call did not run, a late `insert` stores a token nobody was
 * handed, a late purge deletes what had expired), in one round trip (`docs/approvals.md` "One
 * round trip for token writes"). The bounds the statement runs under, `statement_timeout` and
 * `lock_timeout` set to what is left of `timeoutMs`, travel in the same network write as the
 * statement: `SELECT set_config(…, true)` (which is `SET LOCAL`), the statement, and one Sync. The
 * extended protocol runs both in one implicit transaction that commits at the Sync, rolls back on
 * any error, and leaves the session's own settings (the host's pool's) as they were.
 *
 * - no connection within `timeoutMs`: nothing is sent; a connection that arrives later is handed
 *   back at once. Rejects with `code: 'store_timeout'`.
 * - the server canceled the statement at its bound (SQLSTATE 57014, 55P03): rolled back. Rejects
 *   with `code: 'store_timeout'`.
 * - any other error the server answered: rolled back, the driver's error as it is.
 * - no answer within `timeoutMs` plus {@link ANSWER_GRACE_MS} (a frozen server or network, which
 *   the server's bounds do not count), or the connection failed: the statement was sent and
 *   commits on its own if it reaches the server, so the outcome is unknown. The connection is
 *   destroyed. Rejects with `code: 'store_outcome_unknown'`.
 * - a parameter that is not a string, number, boolean or null: a TypeError, nothing sent.
 *
 * A connection without node-postgres' protocol interface (e.g. `pg-native`) runs the statement in
 * the transaction of {@link boundedWrites} instead.
 */
export function oneTripWrites(pool: pg.Pool, timeoutMs: number): CountingWrite {
  return (text, values) =>
    new Promise<WriteCount>((resolve, reject) => {
      const parameters = values.map(wireValue)
      const deadline = performance.now() + timeoutMs
      let release: ((broken?: Error) => void) | undefined
      let sent = false
      let done = false
      const finish = (broken: Error | undefined, settle: () => void): void => {
        if (done) return
        done = true
        clearTimeout(timer)
        // A connection in an unknown state is destroyed (`release(error)`), never handed to the next caller.
        release?.(broken)
        settle()
      }
      // One timer: the connection's bound, then, once the statement is out, the grace for the server's own cancel.
      let timer = setTimeout(() => {
        if (!sent) return finish(undefined, () => reject(storeError('store_timeout', `no connection of the pool within ${timeoutMs} ms: nothing was sent`)))
        timer = setTimeout(() => {
          const late = new DeadlinePassed(`no answer within ${timeoutMs + ANSWER_GRACE_MS} ms`)
          finish(late, () => reject(storeError('store_outcome_unknown', `the write was sent and got no answer within ${timeoutMs + ANSWER_GRACE_MS} ms: it may or may not have taken effect`, late)))
        }, ANSWER_GRACE_MS)
      }, timeoutMs)
      const answered = (error: Error | undefined, rowCount: number | null): void => {
        if (error === undefined) return finish(undefined, () => resolve({ rowCount }))
        // The server answered: the implicit transaction did not commit.
        if (serverAnswered(error)) {
          const canceled = CANCELED.has((error as unknown as { code: string }).code)
          return finish(undefined, () => reject(canceled ? storeError('store_timeout', `the write was canceled on the server after ${timeoutMs} ms and rolled back`, error) : error))
        }
        finish(error, () => reject(storeError('store_outcome_unknown', 'the connection failed after the write was sent: it may or may not have taken effect', error)))
      }
      const connected = (connection: pg.PoolClient): void => {
        if (done) return connection.release()
        if (!speaksProtocol(connection)) {
          done = true
          clearTimeout(timer)
          inTransaction(connection, [[text, values]], deadline, timeoutMs).then(resolve, reject)
          return
        }
        const lost = 'the connection failed after the write was sent: it may or may not have taken effect'
        // A failing connection settles the write at once (node-postgres also fails the statement, a tick later).
        release = watchConnection(connection, (error) => finish(error, () => reject(storeError('store_outcome_unknown', lost, error))))
        sent = true
        try {
          connection.query(new CountedStatement(leftOf(deadline), text, parameters, answered))
        } catch (error) {
          // node-postgres refuses a query before writing it (a closed client): nothing was sent; the connection is not reused.
          finish(error instanceof Error ? error : new Error('the query was refused'), () => reject(error))
        }
      }
      try {
        pool.connect().then(connected, (error: unknown) => finish(undefined, () => reject(error)))
      } catch (error) {
        finish(undefined, () => reject(error))
      }
    })
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

/**
 * True for a node-postgres client whose connection writes protocol messages ({@link CountedStatement}
 * needs them). A client in `pipeline: true` mode takes only its own copy's `pg.Query`: one of
 * another copy of node-postgres (a second `pg` in the host's tree) gets the transaction instead.
 */
function speaksProtocol(client: pg.PoolClient): boolean {
  try {
    const connection = (client as unknown as { connection?: Record<string, unknown> }).connection
    const protocol = typeof connection?.parse === 'function' && typeof connection.bind === 'function' && typeof connection.execute === 'function' && typeof connection.sync === 'function'
    return protocol && ((client as { pipeline?: unknown }).pipeline !== true || client instanceof pg.Client)
  } catch {
    return false
  }
}

/** The row count of a command tag (`UPDATE 1`, `DELETE 3`, `INSERT 0 1`): its last number. */
function countOf(tag: unknown): number | null {
  const match = typeof tag === 'string' ? /(\d+)$/.exec(tag) : null
  return match === null ? null : Number(match[1])
}

/**
 * A node-postgres query (a `pg.Query`, so a client in `pipeline: true` mode takes it too) that
 * writes, in one corked network write, Parse/Bind/Execute of the bounds, then of the statement with
 * its parameters, then one Sync: the extended protocol runs everything before a Sync in one
 * implicit transaction. Nothing is described and rows are not read; `answered` gets the
 * statement's row count at ReadyForQuery, or the error (once).
 */
class CountedStatement extends pg.Query {
  constructor(bound: number, text: string, parameters: readonly (string | null)[], answered: (error: Error | undefined, rowCount: number | null) => void) {
    super({ text })
    let completed = 0
    let rowCount: number | null = null
    Object.assign(this, {
      submit: (connection: pg.Connection): void => {
        const stream = connection.stream as { cork?: () => void; uncork?: () => void }
        stream.cork?.()
        try {
          for (const [statement, values] of [[BOUNDS, [String(bound)]], [text, parameters]] as const) {
            connection.parse({ name: '', text: statement, types: [] }, true)
            connection.bind({ portal: '', statement: '', values: [...values] }, true)
            connection.execute({ portal: '' }, true)
          }
          connection.sync()
        } finally {
          stream.uncork?.()
        }
      },
      handleRowDescription: (): void => undefined,
      handleDataRow: (): void => undefined,
      handleEmptyQuery: (): void => undefined,
      handlePortalSuspended: (): void => undefined,
      handleCopyData: (): void => undefined,
      handleCopyInResponse: (connection: { sendCopyFail(message: string): void }): void => connection.sendCopyFail('a bounded write takes no COPY data'),
      handleCommandComplete: (message: { text?: unknown }): void => {
        if (++completed === 2) rowCount = countOf(message.text)
      },
      handleError: (error: Error): void => answered(error, null),
      handleReadyForQuery: (): void => answered(undefined, rowCount),
    })
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

/**
 * A pool connection within `timeoutMs`; one that arrives later is released unused, in the same
 * callback that receives it, so it is never checked out without an `'error'` listener (pg-pool's).
 */
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
