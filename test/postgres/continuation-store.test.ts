// The continuation store on PostgreSQL: the conformance suite, parts sealed at rest (no clear text
// in the rows or the database files; tampered, copied and foreign-key parts refused typed; a
// rotated key ring still opens), the options refused by name, a database that fails answered
// continuation_unavailable, and two HTTP handlers on one store reading each other's handles.
import { randomBytes } from 'node:crypto'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { createHttpHandler } from 'result-views/http'
import { createPostgresContinuationStore, isPostgresOptionsError, migrate, type PostgresContinuationStoreOptions } from 'result-views/postgres'
import { describeContinuationStoreConformance, findSecretLeak } from 'result-views/testing'
import { fetchJson, serve } from '../http/support.js'
import { useTestDatabase } from './support/database.js'

const db = useTestDatabase('continuations')
let prefixes = 0
const newPrefix = (label = 'c'): string => `${label}${++prefixes}_`

async function freshStore(options: Omit<PostgresContinuationStoreOptions, 'pool'> = {}) {
  const tablePrefix = options.tablePrefix ?? newPrefix()
  await migrate({ pool: db.pool, tablePrefix })
  return createPostgresContinuationStore({ pool: db.pool, ...options, tablePrefix })
}

describeContinuationStoreConformance('postgres store', (bounds) => freshStore(bounds), { describe, it, expect })
describeContinuationStoreConformance('postgres store, sealed', (bounds) => freshStore({ ...bounds, sealKey: randomBytes(32) }), { describe, it, expect })

const SCOPE = JSON.stringify({ workspace_id: 'ws-1' })
const T0 = Date.now()
const resultOf = (texts: string[]) => {
  let start = 5
  let from = 5
  const parts = texts.map((text, i) => {
    const part = { start, part: i + 2, bytes_from: from, text, ...(i < texts.length - 1 ? { next: start + text.length } : {}) }
    start += text.length
    from += Buffer.byteLength(text)
    return part
  })
  return { scope_key: SCOPE, tool_id: 'docs__dump', result_view: 'full', total_bytes: from, parts }
}

describe('createPostgresContinuationStore sealed at rest', () => {
  it('keeps neither the part text nor the key in the rows or the files; reads it back exactly', async () => {
    const tablePrefix = newPrefix('seal')
    const key = randomBytes(32)
    const store = await freshStore({ tablePrefix, sealKey: key })
    const secret = `pw-"part"/~${randomBytes(8).toString('hex')}\\end-é🙂`
    const marker = `continuation-marker-${Date.now()}`
    const result = resultOf([`{"secret":${JSON.stringify(secret)}`, ',"x":1}'])
    const id = await store.put({ ...result, tool_id: marker }, T0)
    const read = await store.read(id!, result.parts[0]!.start, SCOPE, T0 + 1)
    expect(read).toMatchObject({ kind: 'found', part: { text: result.parts[0]!.text } })
    const { rows } = await db.pool.query<{ row: string }>(`SELECT t::text AS row FROM "${tablePrefix}continuation_parts" t UNION ALL SELECT t::text FROM "${tablePrefix}continuations" t`)
    const dump = rows.map((r) => r.row).join('\n')
    expect(dump).toContain(marker)
    expect(dump).not.toContain(secret)
    expect(findSecretLeak(dump, secret)).toBeUndefined()
    expect(dump).not.toContain(key.toString('hex'))
    expect(await db.filesContaining([marker, secret, key.toString('base64')])).toEqual([marker])
  })

  it('refuses a part whose key it does not hold (seal_key_unknown), a changed one and one copied to another row (seal_invalid); a rotated ring opens it', async () => {
    const tablePrefix = newPrefix('rot')
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)]
    const old = await freshStore({ tablePrefix, sealKey: oldKey })
    const result = resultOf(['{"a":1', ',"b":2', '}'])
    const id = (await old.put(result, T0))!
    const start = result.parts[0]!.start
    const reasonOf = async (read: Promise<unknown>) => read.then(() => 'read', (error: { code?: string; reason?: string }) => `${error.code}/${error.reason}`)

    const newOnly = createPostgresContinuationStore({ pool: db.pool, tablePrefix, sealKey: newKey })
    expect(await reasonOf(newOnly.read(id, start, SCOPE, T0 + 1))).toBe('continuation_unavailable/seal_key_unknown')
    const clear = createPostgresContinuationStore({ pool: db.pool, tablePrefix })
    expect(await reasonOf(clear.read(id, start, SCOPE, T0 + 1))).toBe('continuation_unavailable/seal_key_unknown')
    const rotated = createPostgresContinuationStore({ pool: db.pool, tablePrefix, sealKey: newKey, previousSealKeys: [oldKey] })
    expect(await rotated.read(id, start, SCOPE, T0 + 1)).toMatchObject({ kind: 'found', part: { text: '{"a":1' } })
    // What the rotated store seals, a store with only the new key opens.
    const fresh = (await rotated.put(result, T0))!
    expect(await newOnly.read(fresh, start, SCOPE, T0 + 1)).toMatchObject({ kind: 'found' })

    // One ciphertext byte changed; then a part's sealed columns copied onto another part's row.
    await db.pool.query(`UPDATE "${tablePrefix}continuation_parts" SET body = set_byte(body, 0, (get_byte(body, 0) + 1) % 256) WHERE result_id = $1 AND part = 2`, [id])
    expect(await reasonOf(rotated.read(id, start, SCOPE, T0 + 1))).toBe('continuation_unavailable/seal_invalid')
    await db.pool.query(
      `UPDATE "${tablePrefix}continuation_parts" t SET body = s.body, iv = s.iv, tag = s.tag FROM "${tablePrefix}continuation_parts" s WHERE t.result_id = $1 AND t.part = 4 AND s.result_id = $1 AND s.part = 3`,
      [id],
    )
    expect(await reasonOf(rotated.read(id, result.parts[2]!.start, SCOPE, T0 + 1))).toBe('continuation_unavailable/seal_invalid')
    // A result column changed in the table (its total_bytes): the seal binds it, so no part of that result opens.
    await db.pool.query(`UPDATE "${tablePrefix}continuations" SET total_bytes = total_bytes + 1 WHERE result_id = $1`, [id])
    expect(await reasonOf(rotated.read(id, result.parts[1]!.start, SCOPE, T0 + 1))).toBe('continuation_unavailable/seal_invalid')
  })
})

describe('createPostgresContinuationStore options', () => {
  const problemsOf = (run: () => unknown): Array<[string, string]> => {
    try {
      run()
    } catch (error) {
      expect(isPostgresOptionsError(error), String(error)).toBe(true)
      return (error as { problems: Array<{ path: string; code: string }> }).problems.map((p) => [p.path, p.code])
    }
    throw new Error('expected a throw')
  }
  it('refuses every bad option at once, at its pointer', () => {
    expect(
      problemsOf(() =>
        createPostgresContinuationStore({ pool: db.pool, maxEntries: 0, maxBytes: '1' as never, ttlMs: 1.5, sealKey: new Uint8Array(32), statementTimeoutMs: 0, maxEntry: 1 } as never),
      ),
    ).toEqual([
      ['/maxEntry', 'unknown_option'],
      ['/maxEntries', 'invalid_limit'],
      ['/maxBytes', 'invalid_limit'],
      ['/ttlMs', 'invalid_limit'],
      ['/statementTimeoutMs', 'invalid_statement_timeout'],
      ['/sealKey', 'invalid_seal_key'],
    ])
    expect(problemsOf(() => createPostgresContinuationStore({ pool: db.pool, previousSealKeys: [randomBytes(32)] }))).toEqual([['/previousSealKeys', 'seal_key_missing']])
    expect(problemsOf(() => createPostgresContinuationStore({} as never))).toEqual([['', 'connection_missing']])
  })
})

const dumpTool = defineTool({
  id: 'docs__dump',
  description: 'Dump documents.',
  input: Type.Object({ count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
  output: Type.Object({ items: Type.Array(Type.Object({ id: Type.Integer(), text: Type.String() })) }),
  handler: ({ count }) => ({ items: Array.from({ length: count }, (_, id) => ({ id, text: `“${id}” \\ 😀\n é 中` })) }),
})

describe('two HTTP handlers on one PostgreSQL continuation store', () => {
  it('a result cut on A is read back part by part on B, alternating, and rejoins exactly; a failing database is continuation_unavailable (503)', async () => {
    const store = await freshStore({ sealKey: randomBytes(32) })
    const dispatcher = createDispatcher({ tools: [dumpTool] })
    const [a, b] = await Promise.all([0, 1].map(() => serve(createHttpHandler(dispatcher, { maxResultBytes: 1024, continuationStore: store }))))
    try {
      const first = await fetchJson(a!.origin, 'POST', '/api/tools/docs__dump/invoke', { input: { count: 100 } })
      expect(first.status).toBe(200)
      const texts = [first.body.result_part.result_part as string]
      let part = first.body.result_part
      for (let i = 0; part.continuation !== undefined; i++) {
        const next = await fetchJson((i % 2 === 0 ? b : a)!.origin, 'POST', '/api/results/continue', { continuation: part.continuation })
        expect(next.status).toBe(200)
        part = next.body.result_part
        texts.push(part.result_part)
      }
      expect(texts.length).toBeGreaterThan(3)
      const whole = await dispatcher.invoke({ tool_id: 'docs__dump', input: { count: 100 } })
      expect(texts.join('')).toBe(JSON.stringify(whole.status === 'ok' && whole.result.structured))

      const broken = createPostgresContinuationStore({ connectionString: 'postgres://nobody:nothing@127.0.0.1:1/none' })
      const down = await serve(createHttpHandler(dispatcher, { maxResultBytes: 1024, continuationStore: broken }))
      try {
        const refused = await fetchJson(down.origin, 'POST', '/api/results/continue', { continuation: first.body.result_part.continuation })
        expect(refused.status).toBe(503)
        expect(refused.body.error).toMatchObject({ code: 'continuation_unavailable', reason: 'store_failed' })
        // The call itself ran and succeeded: its first part says the rest is not available.
        const cut = await fetchJson(down.origin, 'POST', '/api/tools/docs__dump/invoke', { input: { count: 100 } })
        expect(cut.status).toBe(200)
        expect(cut.body.result_part.continuation).toBeUndefined()
      } finally {
        await down.close()
        await broken.close()
      }
    } finally {
      await Promise.all([a!.close(), b!.close()])
    }
  })
})
