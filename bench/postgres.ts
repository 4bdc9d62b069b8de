/**
 * PostgreSQL token consume against the one raw statement it needs: the token store of
 * `createPostgresApprovalStores` (`consume(token_hash, consumed_at)`) and a hand-written
 * `pool.query('UPDATE … SET consumed_at = $2 WHERE token_hash = $1 AND consumed_at IS NULL AND
 * expires_at > $3 RETURNING token_hash')` on the same table, on an embedded server this benchmark
 * starts on loopback (test/postgres/support/server.ts) and stops by its PID. Each operation
 * consumes a token that was never consumed (inserted beforehand, a set per candidate), so both
 * do the real write. One pool of one connection per candidate. Interleaved rounds, many and short
 * (30 of 80 ms per candidate): each round trip waits on the scheduler of a loaded machine, whose
 * load moves within seconds, and eight rounds of 150 ms let one busy second decide the ratio.
 */
import { createHash } from 'node:crypto'
import pg from 'pg'
import { createPostgresApprovalStores, migrate } from 'result-views/postgres'
import { startTestServer } from '../test/postgres/support/server.js'
import { formatMeasured, measureInRounds, median, roundsFor } from './harness.js'

const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex')

/** Inserts `count` unconsumed tokens named `<prefix>-<i>` (one statement), returns their hashes in order. */
async function insertTokens(pool: pg.Pool, prefix: string, count: number, expiresAt: number): Promise<string[]> {
  const hashes = Array.from({ length: count }, (_, i) => hashOf(`${prefix}-${i}`))
  const record = JSON.stringify({ tool_id: 'bench__tool', scope: {}, input_digest: `sha256:${'0'.repeat(64)}`, expires_at: new Date(expiresAt).toISOString() })
  await pool.query(
    `INSERT INTO result_views_approval_tokens (token_hash, expires_at, consumed_at, record) SELECT h, to_timestamp($2::float8 / 1000), NULL, $3 FROM unnest($1::text[]) AS h`,
    [hashes, expiresAt, record],
  )
  return hashes
}

/** Runs the PostgreSQL pair, prints its table, returns `pg_consume_vs_raw_update` and the per-call times. */
export async function postgresBench(quick = false): Promise<Record<string, number>> {
  const server = await startTestServer()
  const { host, port, user, password } = server.info
  const config = { host, port, user, password, database: 'postgres', max: 1 }
  const storePool = new pg.Pool(config)
  const rawPool = new pg.Pool(config)
  // The server is stopped at the end: idle clients it terminates then are no error of the bench.
  storePool.on('error', () => undefined)
  rawPool.on('error', () => undefined)
  try {
    await migrate({ pool: storePool })
    const stores = createPostgresApprovalStores({ pool: storePool })
    const expiresAt = Date.now() + 3_600_000
    const count = quick ? 20_000 : 120_000
    const storeHashes = await insertTokens(storePool, 'store', count, expiresAt)
    const rawHashes = await insertTokens(storePool, 'raw', count, expiresAt)
    await storePool.query('ANALYZE result_views_approval_tokens')
    const raw = `UPDATE result_views_approval_tokens SET consumed_at = $2 WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > to_timestamp($3::float8 / 1000) RETURNING token_hash`
    let nextStore = 0
    let nextRaw = 0
    const take = (hashes: string[], next: number): string => {
      const hash = hashes[next]
      if (hash === undefined) throw new Error('bench: ran out of unconsumed tokens; raise the count')
      return hash
    }
    const measured = await measureInRounds(
      [
        {
          name: 'postgres token store consume',
          run: async () => {
            const at = new Date().toISOString()
            if (!(await stores.tokens.consume(take(storeHashes, nextStore++), at))) throw new Error('bench: store consume answered false')
          },
          batch: 5,
          async: true,
        },
        {
          name: 'raw UPDATE … RETURNING',
          run: async () => {
            const at = new Date()
            const result = await rawPool.query(raw, [take(rawHashes, nextRaw++), at.toISOString(), at.getTime()])
            if (result.rowCount !== 1) throw new Error('bench: raw consume updated no row')
          },
          batch: 5,
          async: true,
        },
      ],
      quick ? roundsFor(true) : { warmupMs: 1_000, warmupRounds: 4, rounds: 30, roundMs: 80 },
    )
    console.log(formatMeasured('\nPostgreSQL token consume (embedded server on loopback, median per call)', measured))
    const storeNs = median(measured, 'postgres token store consume')
    const rawNs = median(measured, 'raw UPDATE … RETURNING')
    return { pg_consume_vs_raw_update: storeNs / rawNs, pg_consume_us: storeNs / 1000, pg_raw_update_us: rawNs / 1000 }
  } finally {
    await storePool.end().catch(() => undefined)
    await rawPool.end().catch(() => undefined)
    await server.stop()
  }
}
