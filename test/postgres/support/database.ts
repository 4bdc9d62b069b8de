// One database per test file on the run's server (test files run in parallel), created before the
// file's tests and dropped after them.
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, inject } from 'vitest'

export interface TestDatabase {
  /** `postgres://…/<name>` of this file's database. */
  readonly url: string
  readonly name: string
  /** This file's shared pool (ended after the file). */
  readonly pool: pg.Pool
  /** A new pool on this database (ended after the file unless the test ends it). */
  newPool(config?: pg.PoolConfig): pg.Pool
  /**
   * Which of `needles` (UTF-8) occur in the bytes of this database's files or the server's WAL,
   * after a CHECKPOINT (so every committed write is in both).
   */
  filesContaining(needles: readonly string[]): Promise<string[]>
}

function adminClient(): pg.Client {
  const server = inject('postgres')
  const client = new pg.Client({ host: server.host, port: server.port, user: server.user, password: server.password, database: 'postgres' })
  client.on('error', () => undefined)
  return client
}

/** Registers `beforeAll`/`afterAll` for a database of this file; its fields are usable once `beforeAll` ran. */
export function useTestDatabase(label: string): TestDatabase {
  const server = inject('postgres')
  const name = `rv_${label}_${randomBytes(4).toString('hex')}`
  const url = `postgres://${server.user}:${encodeURIComponent(server.password)}@${server.host}:${server.port}/${name}`
  const pools: pg.Pool[] = []
  const newPool = (config: pg.PoolConfig = {}): pg.Pool => {
    const pool = new pg.Pool({ connectionString: url, ...config })
    pool.on('error', () => undefined)
    pools.push(pool)
    return pool
  }
  let shared: pg.Pool | undefined
  beforeAll(async () => {
    const admin = adminClient()
    await admin.connect()
    await admin.query(`CREATE DATABASE "${name}"`)
    await admin.end()
    shared = newPool({ max: 10 })
  })
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end().catch(() => undefined)))
    const admin = adminClient()
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    await admin.end()
  })
  return {
    url,
    name,
    get pool() {
      if (shared === undefined) throw new Error('the test database is ready only inside tests')
      return shared
    },
    newPool,
    async filesContaining(needles) {
      const admin = adminClient()
      await admin.connect()
      await admin.query('CHECKPOINT')
      const { rows } = await admin.query<{ oid: number }>('SELECT oid FROM pg_database WHERE datname = $1', [name])
      await admin.end()
      const files = [join(server.dataDir, 'base', String(rows[0]!.oid)), join(server.dataDir, 'pg_wal')].flatMap(filesUnder)
      const found = new Set<string>()
      for (const file of files) {
        let bytes: Buffer
        try {
          bytes = readFileSync(file)
        } catch (error) {
          // The server removes files of its own while we read (pg_internal.init, recycled WAL): gone is not planted.
          if ((error as { code?: unknown }).code === 'ENOENT') continue
          throw error
        }
        for (const needle of needles) if (bytes.includes(Buffer.from(needle, 'utf8'))) found.add(needle)
      }
      return needles.filter((needle) => found.has(needle))
    },
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    const stat = statSync(path)
    return stat.isDirectory() ? filesUnder(path) : stat.isFile() ? [path] : []
  })
}
