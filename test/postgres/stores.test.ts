import { createHash, randomBytes } from 'node:crypto'
import { createServer, type Socket } from 'node:net'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { REDACTED, createDispatcher, createMemoryApprovalStores, isUsageError, type ApprovalGrant, type GrantKey } from 'result-views'
import { POSTGRES_APPROVAL_SCHEMA_VERSION, createPostgresApprovalStores, isPostgresOptionsError, migrate, type PostgresApprovalStores } from 'result-views/postgres'
import { describeApprovalStoreConformance, findSecretLeak } from 'result-views/testing'
import { SCOPE, codeOf, deployTool, errorOf, rejectionOf } from '../approval/fixtures.js'
import { useTestDatabase } from './support/database.js'

const db = useTestDatabase('stores')
let prefixes = 0
/** A table prefix no other test of this file uses. */
const newPrefix = (label = 't'): string => `${label}${++prefixes}_`

/** Migrated stores on this file's shared pool, under a new prefix (or `tablePrefix`). */
async function freshStores(tablePrefix = newPrefix()): Promise<PostgresApprovalStores> {
  await migrate({ pool: db.pool, tablePrefix })
  return createPostgresApprovalStores({ pool: db.pool, tablePrefix })
}

describeApprovalStoreConformance('postgres stores', () => freshStores(), { describe, it, expect })

function thrownBy(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  return undefined
}

function problemsOf(error: unknown): Array<[string, string]> {
  expect(isPostgresOptionsError(error), String(error)).toBe(true)
  expect(isUsageError(error)).toBe(true)
  expect((error as { code: string }).code).toBe('postgres_options_invalid')
  return (error as { problems: Array<{ path: string; code: string }> }).problems.map((p) => [p.path, p.code])
}

/** The rows of every table whose name starts with `prefix`, each cast to text (what a `pg_dump` of the data would show). */
async function dumpTables(prefix: string): Promise<string> {
  const { rows: tables } = await db.pool.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND starts_with(tablename, $1) ORDER BY 1", [prefix])
  expect(tables.length).toBe(6)
  const parts: string[] = []
  for (const { name } of tables) {
    const { rows } = await db.pool.query<{ row: string }>(`SELECT t::text AS row FROM "${name}" t`)
    parts.push(`-- ${name}`, ...rows.map((r) => r.row))
  }
  return parts.join('\n')
}

describe('createPostgresApprovalStores and migrate refuse bad options', () => {
  const pool = { query: () => undefined, connect: () => undefined }
  const hostile = new Proxy({}, { ownKeys: () => { throw new Error('no keys') } }) // prettier-ignore
  const cases: Array<[string, unknown, Array<[string, string]>]> = [
    ['no options', undefined, [['', 'invalid_option']]],
    ['null', null, [['', 'invalid_option']]],
    ['an array', [], [['', 'invalid_option']]],
    ['no connection', {}, [['', 'connection_missing']]],
    ['both connections', { pool, connectionString: 'postgres://x' }, [['/connectionString', 'connection_ambiguous']]],
    ['a pool that is not one', { pool: {} }, [['/pool', 'invalid_pool']]],
    ['an empty connection string', { connectionString: '' }, [['/connectionString', 'invalid_connection_string']]],
    ['a connection string that is no string', { connectionString: 5432 }, [['/connectionString', 'invalid_connection_string']]],
    ['an upper-case prefix', { pool, tablePrefix: 'Approvals_' }, [['/tablePrefix', 'invalid_table_prefix']]],
    ['a prefix that is SQL', { pool, tablePrefix: 'x"; DROP TABLE users; --' }, [['/tablePrefix', 'invalid_table_prefix']]],
    ['a prefix starting with a digit', { pool, tablePrefix: '1_' }, [['/tablePrefix', 'invalid_table_prefix']]],
    ['a prefix of 31 characters', { pool, tablePrefix: 'a'.repeat(31) }, [['/tablePrefix', 'invalid_table_prefix']]],
    ['a prefix that is no string', { pool, tablePrefix: 7 }, [['/tablePrefix', 'invalid_table_prefix']]],
    ['an unknown key', { pool, tablePrefixes: 'x_', 'a/b~': 1 }, [['/tablePrefixes', 'unknown_option'], ['/a~1b~0', 'unknown_option']]],
    ['a getter that throws', { pool, get tablePrefix(): string { throw new Error('boom') } }, [['/tablePrefix', 'unreadable_option']]], // prettier-ignore
    ['a Proxy that throws', hostile, [['', 'unreadable_option']]],
    ['everything at once', { connectionString: '', tablePrefix: '-', extra: true }, [['/extra', 'unknown_option'], ['/connectionString', 'invalid_connection_string'], ['/tablePrefix', 'invalid_table_prefix']]],
  ]
  for (const [label, options, expected] of cases) {
    it(`createPostgresApprovalStores: ${label}`, () => {
      expect(problemsOf(thrownBy(() => createPostgresApprovalStores(options as never)))).toEqual(expected)
    })
    it(`migrate: ${label}`, async () => {
      expect(problemsOf(await migrate(options as never).then(() => undefined, (error: unknown) => error))).toEqual(expected)
    })
  }

  it('migrate: a lock timeout that is not a positive integer of milliseconds', async () => {
    for (const lockTimeoutMs of [0, -1, 1.5, '100', 2 ** 31, Infinity]) {
      const error = await migrate({ pool: db.pool, lockTimeoutMs } as never).then(() => undefined, (e: unknown) => e)
      expect(problemsOf(error), String(lockTimeoutMs)).toEqual([['/lockTimeoutMs', 'invalid_lock_timeout']])
    }
  })

  it('names the options and lists the problems in the message', () => {
    expect(String(thrownBy(() => createPostgresApprovalStores({ connectionString: '' })))).toBe(
      'PostgresOptionsError: createPostgresApprovalStores(options) is invalid (1 problem):\n  - /connectionString: connectionString must be a non-empty string',
    )
  })
})

describe('migrate', () => {
  const versions = async (prefix: string) => (await db.pool.query(`SELECT version FROM "${prefix}approval_migrations" ORDER BY version`)).rows.map((r) => r.version as number)

  it('creates the tables once and records the schema version; running it again changes nothing', async () => {
    const tablePrefix = newPrefix()
    expect(await migrate({ pool: db.pool, tablePrefix })).toEqual({ from: 0, to: POSTGRES_APPROVAL_SCHEMA_VERSION })
    expect(await migrate({ pool: db.pool, tablePrefix })).toEqual({ from: POSTGRES_APPROVAL_SCHEMA_VERSION, to: POSTGRES_APPROVAL_SCHEMA_VERSION })
    expect(await versions(tablePrefix)).toEqual([1, 2])
    const { rows } = await db.pool.query("SELECT tablename FROM pg_tables WHERE starts_with(tablename, $1) ORDER BY 1", [tablePrefix])
    expect(rows.map((r) => r.tablename)).toEqual(['approval_grants', 'approval_migrations', 'approval_tokens', 'continuation_parts', 'continuations', 'pending_approvals'].map((t) => tablePrefix + t))
  })

  it('upgrades tables of the previous release (version 1, approvals only) to the continuation tables, keeping every row', async () => {
    const tablePrefix = newPrefix()
    await migrate({ pool: db.pool, tablePrefix })
    // What version 1 left: the approval tables only.
    await db.pool.query(`DROP TABLE "${tablePrefix}continuation_parts", "${tablePrefix}continuations"; DELETE FROM "${tablePrefix}approval_migrations" WHERE version = 2`)
    const stores = createPostgresApprovalStores({ pool: db.pool, tablePrefix })
    const grant = await createDispatcher({ tools: [deployTool()], approvals: stores }).approvals.setGrant({ workspace_id: 'ws-up', tool_id: 'ops__deploy', scope: 'tool', decision: 'allow' })
    expect(await migrate({ pool: db.pool, tablePrefix })).toEqual({ from: 1, to: 2 })
    expect(await versions(tablePrefix)).toEqual([1, 2])
    expect((await stores.grants.list('ws-up')).map((g) => g.grant_id)).toEqual([grant.grant_id])
  })

  it('serialises instances migrating at once: 8 pools, one migrates, the others find it done', async () => {
    const tablePrefix = newPrefix()
    const pools = Array.from({ length: 8 }, () => db.newPool({ max: 1 }))
    const results = await Promise.all(pools.map((pool) => migrate({ pool, tablePrefix })))
    expect(results.map((r) => r.from).sort()).toEqual([0, 2, 2, 2, 2, 2, 2, 2])
    expect(await versions(tablePrefix)).toEqual([1, 2])
    await Promise.all(pools.map((pool) => pool.end()))
  })

  it('waits for the advisory lock of another migration, and rejects with 55P03 past lockTimeoutMs, changing nothing', async () => {
    const tablePrefix = newPrefix()
    // The documented lock key: the first 8 bytes of SHA-256("result-views/postgres migrate <prefix>"), signed.
    const key = createHash('sha256').update(`result-views/postgres migrate ${tablePrefix}`).digest().readBigInt64BE(0).toString()
    const holder = await db.pool.connect()
    await holder.query('BEGIN')
    await holder.query('SELECT pg_advisory_xact_lock($1::bigint)', [key])
    const error = await migrate({ pool: db.pool, tablePrefix, lockTimeoutMs: 200 }).then(() => undefined, (e: unknown) => e)
    expect((error as { code?: string }).code).toBe('55P03')
    expect((await db.pool.query('SELECT to_regclass($1) AS t', [`${tablePrefix}approval_migrations`])).rows[0].t).toBeNull()
    const waiting = migrate({ pool: db.pool, tablePrefix })
    await new Promise((resolve) => setTimeout(resolve, 100))
    await holder.query('COMMIT')
    holder.release()
    expect(await waiting).toEqual({ from: 0, to: POSTGRES_APPROVAL_SCHEMA_VERSION })
  })

  it('rolls everything back when a step fails (a table of that name already exists)', async () => {
    const tablePrefix = newPrefix()
    await db.pool.query(`CREATE TABLE "${tablePrefix}approval_grants" (unrelated integer)`)
    const error = await migrate({ pool: db.pool, tablePrefix }).then(() => undefined, (e: unknown) => e)
    expect((error as { code?: string }).code).toBe('42P07')
    for (const table of ['approval_migrations', 'approval_tokens']) {
      expect((await db.pool.query('SELECT to_regclass($1) AS t', [tablePrefix + table])).rows[0].t, table).toBeNull()
    }
  })

  it('refuses tables written by a newer schema version, changing nothing', async () => {
    const tablePrefix = newPrefix()
    await migrate({ pool: db.pool, tablePrefix })
    await db.pool.query(`INSERT INTO "${tablePrefix}approval_migrations" (version) VALUES (${POSTGRES_APPROVAL_SCHEMA_VERSION + 1})`)
    const error = await migrate({ pool: db.pool, tablePrefix }).then(() => undefined, (e: unknown) => e)
    expect(problemsOf(error)).toEqual([['/tablePrefix', 'schema_too_new']])
    expect(String(error)).toContain(`schema version ${POSTGRES_APPROVAL_SCHEMA_VERSION + 1}`)
    expect(await versions(tablePrefix)).toEqual([1, 2, 3])
  })

  it('migrates through a connection string on a pool of its own, ended before it settles', async () => {
    const tablePrefix = newPrefix()
    expect(await migrate({ connectionString: `${db.url}?application_name=rv_migrate_own_pool`, tablePrefix })).toEqual({ from: 0, to: POSTGRES_APPROVAL_SCHEMA_VERSION })
    expect(await connections('rv_migrate_own_pool')).toBe(0)
  })

  it('never truncates a name: with the longest prefix (30 characters) every table, index, sequence and constraint carries it whole', async () => {
    const tablePrefix = 'p'.repeat(28) + `${prefixes++ % 10}_`
    await migrate({ pool: db.pool, tablePrefix })
    const { rows } = await db.pool.query(
      `SELECT relname AS name FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relname LIKE $1
       UNION ALL SELECT conname FROM pg_constraint WHERE connamespace = current_schema()::regnamespace AND conname LIKE $1`,
      [tablePrefix.slice(0, 20) + '%'],
    )
    expect(rows.length).toBeGreaterThanOrEqual(14)
    for (const { name } of rows) expect(name.startsWith(tablePrefix) && name.length <= 63, name).toBe(true)
  })
})

/** Open connections of one application name to this file's database, once the server has seen closed ones go (it may lag the client by a few ms). */
async function connections(applicationName: string): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [applicationName])
    if (rows[0].n === 0 || attempt === 100) return rows[0].n as number
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('postgres stores', () => {
  it('take a connection string, own that pool and end it on close (twice is fine)', async () => {
    const tablePrefix = newPrefix()
    await migrate({ connectionString: db.url, tablePrefix })
    const stores = createPostgresApprovalStores({ connectionString: db.url, tablePrefix })
    const dispatcher = createDispatcher({ tools: [deployTool()], approvals: stores })
    const { token } = await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' } })
    expect((await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE, approval_token: token })).status).toBe('ok')
    expect(stores.database.totalCount).toBeGreaterThan(0)
    await stores.close()
    await stores.close()
    expect(stores.database.ended).toBe(true)
  })

  it('leave a host pool open on close', async () => {
    const stores = await freshStores()
    await stores.close()
    expect(stores.database).toBe(db.pool)
    expect(db.pool.ended).toBe(false)
  })

  it('key workspaces exactly: lone surrogates, U+FFFD and U+0000 never share grants', async () => {
    const { grants } = await freshStores()
    const workspaces = ['ws\ud800', 'ws\udc00', 'ws\ufffd', 'ws\u0000', 'ws']
    for (const [i, workspace_id] of workspaces.entries()) {
      await grants.put({ grant_id: `g-${i}`, workspace_id, tool_id: 'ops__deploy', scope: 'tool', decision: 'allow', origin: 'management', created_at: '2026-11-10T14:00:00.000Z' })
    }
    for (const [i, workspace_id] of workspaces.entries()) {
      expect((await grants.list(workspace_id)).map((g) => [g.grant_id, g.workspace_id])).toEqual([[`g-${i}`, workspace_id]])
      expect((await grants.get({ workspace_id, tool_id: 'ops__deploy', scope: 'tool' }))?.grant_id).toBe(`g-${i}`)
    }
    expect(await grants.delete('ws\ufffd', 'g-0')).toBe(false)
    expect(await grants.delete('ws\ud800', 'g-0')).toBe(true)
    expect(await grants.delete('ws\u0000', 'g\u0000')).toBe(false)
    expect((await grants.list('ws\ufffd')).map((g) => g.grant_id)).toEqual(['g-2'])
  })

  it('keep grants exactly as the memory store does, for any strings as IDs (fast-check, the memory store as model)', async () => {
    const tablePrefix = newPrefix()
    const { grants } = await freshStores(tablePrefix)
    // Short strings of any UTF-16 code units (U+0000 and lone surrogates included), often colliding.
    const text = fc.oneof(fc.constantFrom('ws', 'ws\ud800', 'ws\udc00', 'ws\ufffd', 'ws\u0000', ''), fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 3 }).map((units) => String.fromCharCode(...units)))
    const key = fc.record({ workspace_id: text, tool_id: text, scope: fc.constantFrom('exact', 'agent', 'tool') as fc.Arbitrary<GrantKey['scope']>, agent_name: fc.option(text, { nil: undefined }), input_digest: fc.option(text, { nil: undefined }) })
    const op = fc.oneof(
      fc.record({ kind: fc.constant('put' as const), key, decision: fc.constantFrom('allow', 'reject') as fc.Arbitrary<'allow' | 'reject'> }),
      fc.record({ kind: fc.constant('get' as const), key }),
      fc.record({ kind: fc.constant('list' as const), workspace_id: text }),
      fc.record({ kind: fc.constant('delete' as const), workspace_id: text, pick: fc.nat() }),
    )
    const canonical = (grant: ApprovalGrant | undefined) => (grant === undefined ? 'none' : JSON.stringify(Object.entries(grant).sort(([a], [b]) => (a < b ? -1 : 1))))
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 12 }), async (ops) => {
        await db.pool.query(`TRUNCATE "${tablePrefix}approval_grants"`)
        const model = createMemoryApprovalStores().grants
        const ids: string[] = []
        for (const o of ops) {
          if (o.kind === 'put') {
            const grant_id = `g-${ids.push('') - 1}`
            ids[ids.length - 1] = grant_id
            const { agent_name, input_digest, ...rest } = o.key
            const grant: ApprovalGrant = { ...rest, ...(agent_name === undefined ? {} : { agent_name }), ...(input_digest === undefined ? {} : { input_digest }), grant_id, decision: o.decision, origin: 'management', created_at: '2026-11-10T14:00:00.000Z' }
            await model.put(grant)
            await grants.put(grant)
          } else if (o.kind === 'get') {
            expect(canonical(await grants.get(o.key))).toBe(canonical(await model.get(o.key)))
          } else if (o.kind === 'list') {
            expect((await grants.list(o.workspace_id)).map(canonical)).toEqual((await model.list(o.workspace_id)).map(canonical))
          } else {
            const grantId = ids.length === 0 ? 'g-none' : ids[o.pick % ids.length]!
            expect(await grants.delete(o.workspace_id, grantId)).toBe(await model.delete(o.workspace_id, grantId))
          }
        }
      }),
      { numRuns: 60 },
    )
  })

  it("list one owner's records exactly: not a record whose input or another field holds the owner's text, and owners with quotes, LIKE signs, U+0000 or a lone surrogate", async () => {
    const stores = await freshStores()
    const base = { state: 'pending', tool_id: 'ops__deploy', tool_call_id: 'c', input_digest: 'sha256:x', created_at: '2026-11-10T14:00:00.000Z', expires_at: '2026-11-10T14:15:00.000Z' } as const
    const owners = ['prof-a', 'prof-"a', 'prof-%_', 'p\ud800', 'p\ufffd', 'p\u0000', 'prof-a ']
    for (const [i, owner] of owners.entries()) await stores.pending.insert({ ...base, approval_id: `own-${i}`, scope: { profile_id: owner }, input: {} })
    // Holds `"profile_id":"prof-a"` in its input and its agent name, but another owns it.
    await stores.pending.insert({ ...base, approval_id: 'decoy', scope: { profile_id: 'prof-b', agent_name: '"profile_id":"prof-a"' }, input: { profile_id: 'prof-a' } })
    for (const [i, owner] of owners.entries()) {
      expect((await stores.pending.list!(owner)).map((r) => r.approval_id), JSON.stringify(owner)).toEqual([`own-${i}`])
    }
    expect((await stores.pending.list!('prof-b')).map((r) => r.approval_id)).toEqual(['decoy'])
    expect(await stores.pending.list!('prof-')).toEqual([])
    expect(await stores.pending.list!('')).toEqual([])
    const dispatcher = createDispatcher({ tools: [deployTool()], approvals: stores })
    expect((await dispatcher.approvals.listPending({ profile_id: 'prof-"a' })).map((v) => v.approval_id)).toEqual(['own-1'])
  })

  it('answer a lookup by an ID PostgreSQL text cannot hold exactly (U+0000, a lone surrogate) with "not found", and refuse to write one', async () => {
    const stores = await freshStores()
    const record = { approval_id: 'a\ufffd', state: 'pending', tool_id: 'ops__deploy', tool_call_id: 'c', scope: {}, input: {}, input_digest: 'sha256:x', created_at: '2026-11-10T14:00:00.000Z', expires_at: '2026-11-10T14:15:00.000Z' } as const
    await stores.pending.insert(record)
    for (const id of ['a\ud800', 'a\u0000']) {
      expect(await stores.pending.get(id), JSON.stringify(id)).toBeUndefined()
      expect(await stores.pending.update(id, 'pending', { ...record, state: 'canceled' })).toBe(false)
      await expect(Promise.resolve(stores.pending.insert({ ...record, approval_id: id }))).rejects.toThrow(RangeError)
    }
    expect((await stores.pending.get('a\ufffd'))?.state).toBe('pending')
    const grant = { grant_id: 'g\ufffd', workspace_id: 'ws-1', tool_id: 'ops__deploy', scope: 'tool', decision: 'allow', origin: 'management', created_at: '2026-11-10T14:00:00.000Z' } as const
    await stores.grants.put(grant)
    expect(await stores.grants.delete('ws-1', 'g\ud800')).toBe(false)
    await expect(Promise.resolve(stores.grants.put({ ...grant, tool_id: 'other', grant_id: 'g\udfff' }))).rejects.toThrow(RangeError)
    expect((await stores.grants.list('ws-1')).map((g) => g.grant_id)).toEqual(['g\ufffd'])
    expect(await stores.tokens.get('not-a-hash\u0000')).toBeUndefined()
    expect(await stores.tokens.consume('A'.repeat(64), '2026-11-10T14:00:00.000Z')).toBe(false)
    const dispatcher = createDispatcher({ tools: [deployTool()], approvals: stores })
    expect(await rejectionOf(dispatcher.approvals.show('approval\u0000', { profile_id: 'prof-owner' }))).toEqual(['approval_not_found', 'unknown_approval'])
  })

  it('never consume a token past its expires_at at the consuming instant, and purge by expires_at', async () => {
    const { tokens } = await freshStores()
    const record = { token_hash: 'c'.repeat(64), tool_id: 'ops__deploy', input_digest: 'sha256:' + '1'.repeat(64), created_at: '2026-11-10T14:00:00.000Z', expires_at: '2026-11-10T14:05:00.000Z' }
    await tokens.insert(record)
    expect(await tokens.consume(record.token_hash, '2026-11-10T14:05:00.000Z')).toBe(false)
    expect(await tokens.consume(record.token_hash, '2026-11-10T14:06:00.000Z')).toBe(false)
    expect((await tokens.get(record.token_hash))?.consumed_at).toBeUndefined()
    expect(await tokens.consume(record.token_hash, '2026-11-10T14:04:59.999Z')).toBe(true)
    expect(await tokens.deleteExpired!('2026-11-10T14:05:00.000Z')).toBe(0)
    expect(await tokens.deleteExpired!('2026-11-10T14:05:00.001Z')).toBe(1)
  })

  it('hold a token minted for the longest life, 100 years, and refuse a longer one with approval_request_invalid', async () => {
    const stores = await freshStores()
    const dispatcher = createDispatcher({ tools: [deployTool()], approvals: stores })
    const mint = (ttlMs: number) => dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' }, ttlMs })
    const { token, expires_at } = await mint(3_155_760_000_000)
    expect(expires_at).toMatch(/^\d{4}-/)
    expect((await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE, approval_token: token })).status).toBe('ok')
    await expect(mint(9_000 * 365 * 24 * 3_600_000)).rejects.toMatchObject({ code: 'approval_request_invalid', reason: 'field_invalid' })
  })
})

describe('postgres stores need only SELECT, INSERT, UPDATE and DELETE on the three store tables', () => {
  it('serve every approval path as a role with exactly those privileges', async () => {
    const tablePrefix = newPrefix()
    await migrate({ pool: db.pool, tablePrefix })
    const role = `rv_app_${createHash('sha256').update(tablePrefix + Math.random()).digest('hex').slice(0, 8)}`
    await db.pool.query(`CREATE ROLE ${role} LOGIN PASSWORD 'app-password'`)
    try {
      for (const table of ['approval_tokens', 'approval_grants', 'pending_approvals']) await db.pool.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON "${tablePrefix}${table}" TO ${role}`)
      const url = new URL(db.url)
      url.username = role
      url.password = 'app-password'
      const stores = createPostgresApprovalStores({ connectionString: url.href, tablePrefix })
      try {
        const runs: unknown[] = []
        const dispatcher = createDispatcher({ tools: [deployTool(runs)], approvals: stores })
        const prompted = createDispatcher({ tools: [deployTool(runs)], approvals: { ...stores, prompt: () => 'allow_always' } })
        const { token } = await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'a' } })
        expect((await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'a' }, scope: SCOPE, approval_token: token })).status).toBe('ok')
        expect((await prompted.invoke({ tool_id: 'ops__deploy', input: { target: 'b' }, scope: SCOPE })).status).toBe('ok')
        expect((await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'b' }, scope: SCOPE })).status).toBe('ok')
        await dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', scope: 'tool', decision: 'allow' })
        const replaced = await dispatcher.approvals.setGrant({ workspace_id: 'ws-1', tool_id: 'ops__deploy', scope: 'tool', decision: 'reject' })
        expect((await dispatcher.approvals.listGrants({ workspace_id: 'ws-1' })).map((g) => g.decision)).toEqual(['allow', 'reject'])
        expect(await dispatcher.approvals.revokeGrant({ workspace_id: 'ws-1', grant_id: replaced.grant_id })).toBe(true)
        const pending = await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'c' }, scope: SCOPE })
        const resolved = await dispatcher.approvals.resolve((pending as { approval_id: string }).approval_id, { decision: 'approved', profile_id: SCOPE.profile_id })
        expect(resolved.execution_status).toBe('completed')
        expect(runs).toEqual([{ target: 'a' }, { target: 'b' }, { target: 'b' }, { target: 'c' }])
        expect(await stores.tokens.deleteExpired!(new Date(Date.now() + 3_600_000).toISOString())).toBe(1)
      } finally {
        await stores.close()
      }
    } finally {
      await db.pool.query(`DROP OWNED BY ${role}`)
      await db.pool.query(`DROP ROLE ${role}`)
    }
  })
})

describe('postgres stores fail closed', () => {
  const invokeDeploy = (stores: PostgresApprovalStores, timeoutMs?: number) =>
    createDispatcher({ tools: [deployTool()], approvals: { ...stores, ...(timeoutMs === undefined ? {} : { timeoutMs }) } }).invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE })

  it('on a pool the host ended', async () => {
    const pool = db.newPool()
    const tablePrefix = newPrefix()
    await migrate({ pool, tablePrefix })
    const stores = createPostgresApprovalStores({ pool, tablePrefix })
    await pool.end()
    expect(codeOf(await invokeDeploy(stores))).toEqual(['approval_unavailable', 'store_failed'])
  })

  it('on stores whose own pool was closed', async () => {
    const tablePrefix = newPrefix()
    await migrate({ pool: db.pool, tablePrefix })
    const stores = createPostgresApprovalStores({ connectionString: db.url, tablePrefix })
    await stores.close()
    expect(codeOf(await invokeDeploy(stores))).toEqual(['approval_unavailable', 'store_failed'])
  })

  it('before migrate (no tables): the cause names the missing relation', async () => {
    const stores = createPostgresApprovalStores({ pool: db.pool, tablePrefix: newPrefix() })
    const error = errorOf(await invokeDeploy(stores))
    expect([error.code, error.reason]).toEqual(['approval_unavailable', 'store_failed'])
    expect(String((error as { cause?: unknown }).cause)).toMatch(/relation .* does not exist/)
  })

  it('on a statement the server refuses (a record whose time cannot be read)', async () => {
    const { tokens } = await freshStores()
    await expect(Promise.resolve(tokens.insert({ token_hash: 'd'.repeat(64), tool_id: 't', input_digest: 'sha256:x', created_at: 'x', expires_at: 'not a time' }))).rejects.toThrow(/NaN/i)
    expect(await tokens.get('d'.repeat(64))).toBeUndefined()
  })

  it('when the server refuses connections', async () => {
    const port = await closedPort()
    const stores = createPostgresApprovalStores({ connectionString: `postgres://u:p@127.0.0.1:${port}/db` })
    expect(codeOf(await invokeDeploy(stores))).toEqual(['approval_unavailable', 'store_failed'])
    await stores.close()
  })

  it('when the server never answers: store_timeout within the dispatcher budget', async () => {
    const sockets = new Set<Socket>()
    const silent = createServer((socket) => void sockets.add(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = silent.address() as { port: number }
      const stores = createPostgresApprovalStores({ connectionString: `postgres://u:p@127.0.0.1:${port}/db` })
      expect(codeOf(await invokeDeploy(stores, 300))).toEqual(['approval_unavailable', 'store_timeout'])
      for (const socket of sockets) socket.destroy()
      await stores.close()
    } finally {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => silent.close(resolve))
    }
  })
})

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

describe('a planted secret never reaches the PostgreSQL tables in clear', () => {
  it('neither an approval token nor a sensitive input field, in any encoding, in the rows or the files', async () => {
    const tablePrefix = newPrefix()
    const stores = await freshStores(tablePrefix)
    const secret = `pw-"canary"/~${createHash('sha256').update(String(Math.random())).digest('hex').slice(0, 16)}\\end`
    const marker = `target-marker-${Date.now()}`
    const runs: unknown[] = []
    const dispatcher = createDispatcher({ tools: [deployTool(runs)], approvals: stores })
    const prompted = createDispatcher({ tools: [deployTool(runs)], approvals: { ...stores, prompt: () => 'allow_always' } })
    const { token } = await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: marker } })
    expect((await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: marker }, scope: SCOPE, approval_token: token })).status).toBe('ok')
    expect(errorOf(await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: marker }, scope: SCOPE, approval_token: token })).reason).toBe('token_replayed')
    const secretCall = { tool_id: 'ops__deploy', input: { target: marker, note: secret }, scope: SCOPE, sensitive_input_fields: ['note'] }
    const pending = await dispatcher.invoke(secretCall)
    expect(pending.status).toBe('approval_pending')
    const resolved = await dispatcher.approvals.resolve((pending as { approval_id: string }).approval_id, { decision: 'approved', profile_id: SCOPE.profile_id })
    expect(resolved.execution_status).toBe('completed')
    expect((await prompted.invoke(secretCall)).status).toBe('ok')
    expect(runs).toEqual([{ target: marker }, { target: marker, note: secret }, { target: marker, note: secret }])

    const encodings = [secret, JSON.stringify(secret).slice(1, -1), secret.replace(/~/g, '~0').replace(/\//g, '~1'), secret.slice(0, 12), secret.slice(-12)]
    const secrets = [...encodings, token, token.slice(0, 16), token.slice(-16)]
    const rows = await dumpTables(tablePrefix)
    for (const control of [marker, REDACTED, '"note"', createHash('sha256').update(token).digest('hex')]) expect(rows).toContain(control)
    for (const value of secrets) expect(rows, value).not.toContain(value)
    // Any 8 characters of the secret in any encoding (raw, JSON, JSON Pointer, percent, nested).
    expect(findSecretLeak(rows, secret)).toBeUndefined()
    expect(await db.filesContaining([marker, ...secrets])).toEqual([marker])
  })

  it('sealed pending inputs: neither the secret nor the key in the rows or the files, while pending and once resolved', async () => {
    const tablePrefix = newPrefix()
    const stores = await freshStores(tablePrefix)
    const key = randomBytes(32)
    const secret = `pw-"sealed"/~${randomBytes(8).toString('hex')}\\end`
    const marker = `sealed-marker-${Date.now()}`
    const runs: unknown[] = []
    const dispatcher = createDispatcher({ tools: [deployTool(runs)], approvals: { ...stores, sealKey: key } })
    const secretCall = { tool_id: 'ops__deploy', input: { target: marker, note: secret }, scope: SCOPE, sensitive_input_fields: ['note'] }
    const left = (await dispatcher.invoke(secretCall)) as { approval_id: string }
    const resolved = (await dispatcher.invoke(secretCall)) as { approval_id: string }
    expect((await dispatcher.approvals.resolve(resolved.approval_id, { decision: 'approved', profile_id: SCOPE.profile_id })).execution_status).toBe('completed')
    expect(runs).toEqual([{ target: marker, note: secret }])
    expect((await stores.pending.get(left.approval_id))?.sealed_input?.alg).toBe('AES-256-GCM')

    const encodings = [secret, JSON.stringify(secret).slice(1, -1), secret.replace(/~/g, '~0').replace(/\//g, '~1'), secret.slice(0, 12), secret.slice(-12)]
    const keys = [key.toString('hex').slice(0, 16), key.toString('base64').slice(0, 16), key.toString('base64url').slice(0, 16)]
    const rows = await dumpTables(tablePrefix)
    for (const control of [marker, REDACTED, 'AES-256-GCM']) expect(rows).toContain(control)
    for (const value of [...encodings, ...keys]) expect(rows, value).not.toContain(value)
    expect(await db.filesContaining([marker, ...encodings, ...keys])).toEqual([marker])
  })
})
